import type { ParameterDef } from '@pitwall/contracts';
import { convertValue } from '../../src/domain/parameters';

const text: ParameterDef = { name: 'Notes', type: 'Text' };

describe('convertValue', () => {
  test('when a Text value holds a NUL or an unpaired surrogate, then it is refused with the parameter named', () => {
    for (const raw of ['a\u0000b', 'x\ud800', '\udc00y']) expect(convertValue(text, raw)).toEqual({ error: expect.stringContaining('Notes is a Text') });
  });

  test('when a Text value holds ordinary unicode, including paired surrogates, then it is kept as is', () => {
    expect(convertValue(text, 'Öhlins 🏁 setup')).toEqual({ value: 'Öhlins 🏁 setup' });
  });

  test.each([
    ['Double', '1e3', 1000],
    ['Integer', '-42', -42],
    ['Boolean', 'TRUE', true],
    ['DateTime', '2026-04-12T14:03:07.250+02:00', '2026-04-12T12:03:07.250Z'],
  ] as const)('when a %s value converts, then the typed value is returned', (type, raw, value) => {
    expect(convertValue({ name: 'P', type }, raw)).toEqual({ value });
  });

  test.each([
    ['Double', 'fast'],
    ['Double', 'Infinity'],
    ['Integer', '1.5'],
    ['Integer', '99999999999999999999'],
    ['Boolean', 'yes'],
    ['DateTime', 'next tuesday'],
    ['Reference', 'car-7'],
  ] as const)('when a %s value is %s, then it does not convert', (type, raw) => {
    expect(convertValue({ name: 'P', type }, raw)).toEqual({ error: expect.stringContaining(`P is a`) });
  });
});
