import { applyConversion, convertInto, type LinearConversion, type RawSampleArray } from '../src';

describe('convertInto', () => {
  const conversions: LinearConversion[] = [
    { numerator: 1, denominator: 1, offset: 0 },
    { numerator: 10, denominator: 10, offset: 0 },
    { numerator: 1, denominator: 10, offset: 0 },
    { numerator: 2446, denominator: 1, offset: -3 },
    { numerator: 3, denominator: 7, offset: 0.5 },
  ];
  const raws: RawSampleArray[] = [
    Int16Array.of(-32768, -1, 0, 1, 7, 32767),
    Int32Array.of(-2147483648, -1, 0, 1, 7, 2147483647),
    Float32Array.of(-0, 0.1, NaN, 3.5, -1e30, 7),
    Float64Array.of(-0, 0.1, NaN, 3.5, -1e300, 7),
  ];

  it.each(raws.flatMap((raw) => conversions.map((c) => [raw.constructor.name, raw, c] as const)))('when %s under %j is converted in pieces, then each value is the one applyConversion gives', (_name, raw, conversion) => {
    const whole = applyConversion(raw, conversion);
    const out = new Float64Array(4);
    for (const from of [0, 2]) {
      convertInto(raw, conversion, from, 4, out);
      for (let i = 0; i < 4; i++) expect(Object.is(out[i], whole[from + i])).toBe(true);
    }
  });
});
