import { byteRange } from '../../src/entry-points/http/attached-file-transfer';

describe('byteRange (RFC 9110 §14.1.2 and §14.2 byte ranges)', () => {
  test('when a range is first-last, first- or -suffix, then it resolves against the size', () => {
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=95-', 100)).toEqual({ start: 95, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=4-4', 100)).toEqual({ start: 4, end: 4 });
    expect(byteRange('bytes=0-99999999999999999999999', 100)).toEqual({ start: 0, end: 99 });
  });

  test('when the unit is in another case or the set has spaces or empty elements, then it is still read (the unit is case-insensitive, the set a list)', () => {
    expect(byteRange('Bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes= 0-9 ,', 100)).toEqual({ start: 0, end: 9 });
  });

  test('when a valid range set has no range overlapping the file, then it is unsatisfiable', () => {
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=100-200', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=99999999999999999999-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(byteRange('bytes=100-150,200-', 100)).toBe('unsatisfiable');
  });

  test('when the range set is invalid (a last position before the first, not a range), then it is ignored: the whole file is sent', () => {
    expect(byteRange('bytes=4-2', 100)).toBeUndefined();
    expect(byteRange('bytes=9-3', 100)).toBeUndefined();
    expect(byteRange('bytes=200-150', 100)).toBeUndefined();
    expect(byteRange('bytes=100000000000000000001-100000000000000000000', 100)).toBeUndefined();
    expect(byteRange('bytes=0-1,4-2', 100)).toBeUndefined();
    expect(byteRange('bytes=-', 100)).toBeUndefined();
    expect(byteRange('bytes=', 100)).toBeUndefined();
    expect(byteRange('bytes=abc', 100)).toBeUndefined();
    expect(byteRange('bytes=1-2-3', 100)).toBeUndefined();
    expect(byteRange('bytes=--5', 100)).toBeUndefined();
    expect(byteRange('bytes=0x10-', 100)).toBeUndefined();
    expect(byteRange('bytes 0-9', 100)).toBeUndefined();
    expect(byteRange('garbage', 100)).toBeUndefined();
  });

  test('when there is no range, several that overlap the file, or another unit, then the whole file is sent', () => {
    expect(byteRange(undefined, 100)).toBeUndefined();
    expect(byteRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(byteRange('bytes=0-1,200-', 100)).toBeUndefined();
    expect(byteRange('items=0-1', 100)).toBeUndefined();
  });
});
