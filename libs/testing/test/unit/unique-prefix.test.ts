import { uniquePrefix } from '../../src';

describe('uniquePrefix', () => {
  test('when called twice with the same label, then both carry the label and differ', () => {
    const a = uniquePrefix('bus');
    const b = uniquePrefix('bus');
    expect(a).toMatch(/^pitwall-t-bus-[0-9a-f]{8}-$/);
    expect(a).not.toBe(b);
  });
});
