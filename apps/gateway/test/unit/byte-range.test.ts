import { byteRange } from '../../src/entry-points/http/attached-file-transfer';

describe('byteRange (RFC 9110 single byte ranges)', () => {
  test('when a range is first-last, first- or -suffix, then it resolves against the size', () => {
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=95-', 100)).toEqual({ start: 95, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  test('when a range starts past the end, is reversed, or asks for nothing, then it is unsatisfiable', () => {
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=9-3', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  test('when there is no range, several, or another unit, then the whole file is sent', () => {
    expect(byteRange(undefined, 100)).toBeUndefined();
    expect(byteRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(byteRange('items=0-1', 100)).toBeUndefined();
    expect(byteRange('bytes=-', 100)).toBeUndefined();
  });
});
