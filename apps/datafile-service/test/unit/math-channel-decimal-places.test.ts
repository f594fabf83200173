import { applyConversion, decodeChannels, IDENTITY, toReadRecord, type ChannelSeries } from '@pitwall/channels';
import { seededRandom as random } from '@pitwall/random';
import { evaluateMathChannels, type MathTask } from '../../src/workers/math-channels';
import { shapedChunks, type StoredSlice } from '../../src/workers/shape-channels';

// DecimalPlaces (docs/math-channels.md): the math task rounds a definition's values to that many decimals, halves away
// from zero, for the definitions reading it and for what is sent: int16 codes when every one fits, else int32, else the
// rounded float64 values; gaps stay gaps.

/** A 10 Hz input of physical float64 values (an MDF double), NaN a gap. */
function input(values: readonly number[], name = 'x'): StoredSlice {
  const samples = Float64Array.from(values);
  const gaps = values.some((v) => Number.isNaN(v)) ? Uint8Array.from(values, (v) => (Number.isNaN(v) ? 1 : 0)) : undefined;
  return { name, unit: '', frequency: 10, dimension: 1, startTime: 0, samples, conversion: IDENTITY, ...(gaps ? { gaps } : {}) };
}

function evaluate(values: readonly number[], definitions: MathTask['definitions'], channels = [definitions[definitions.length - 1]?.name as string]): StoredSlice[] {
  return evaluateMathChannels({ channels: channels.map((name) => ({ name, unit: 'u' })), definitions, inputs: [input(values)], span: { start: 0, end: values.length / 10 } });
}

const physical = (s: StoredSlice) => Array.from(applyConversion(s.samples, s.conversion), (v, i) => (s.gaps?.[i] === 1 ? null : v));

/** The JSON records and the binary body's records of a slice, through the shape worker's streamed path (the service's). */
function bodies(slice: StoredSlice, maxPoints?: number): { json: unknown; binary: unknown } {
  const shape = (binary: boolean) => Buffer.concat([...shapedChunks({ channels: [{ ...slice }], binary, ...(maxPoints ? { maxPoints } : {}) }).chunks]);
  return { json: JSON.parse(shape(false).toString('utf8')), binary: decodeChannels(shape(true)).map(toReadRecord) };
}

describe('a math channel with DecimalPlaces', () => {
  test('when it is evaluated, then its values are the expression round(x * 10^d) / 10^d, sent as codes with the conversion 1 / 10^d', () => {
    const next = random(40);
    const values = Array.from({ length: 5000 }, () => (next() - 0.5) * 600);
    for (const places of [0, 1, 2, 3]) {
      const [slice, reference] = evaluate(values, [{ name: 'm', expression: 'x / 3.6', decimalPlaces: places }, { name: 'r', expression: `round(x / 3.6 * ${10 ** places}) / ${10 ** places}` }], ['m', 'r']) as [StoredSlice, StoredSlice];
      // |x / 3.6| < 83.4: 83,333 at 3 decimals is past int16.
      expect(slice.samples).toBeInstanceOf(places < 3 ? Int16Array : Int32Array);
      expect(slice.conversion).toEqual({ numerator: 1, denominator: 10 ** places, offset: 0 });
      // The same doubles, -0 apart (the codes have none).
      expect(physical(slice)).toEqual(Array.from(reference.samples, (v) => v + 0));
    }
  });

  test('when a value is a half at the last decimal, then it is rounded away from zero', () => {
    // 0.125 and 2.5 are exact in binary: 12.5 and 25 scaled.
    const [slice] = evaluate([0.125, -0.125, 2.5, -2.5, 0.004, -0.004], [{ name: 'm', expression: 'x', decimalPlaces: 2 }]);
    expect(Array.from(slice?.samples ?? [])).toEqual([13, -13, 250, -250, 0, 0]);
    expect(physical(slice as StoredSlice)).toEqual([0.13, -0.13, 2.5, -2.5, 0, 0]);
    expect(Object.is(physical(slice as StoredSlice)[5], 0)).toBe(true);
  });

  test.each([
    ['the int16 bounds', 'int16', [32767, -32768, 1]],
    ['one past int16 above', 'int32', [32767.5, 0]],
    ['one past int16 below (halves away from zero)', 'int32', [-32768.5, 0]],
    ['the int32 bounds', 'int32', [2147483647, -2147483648]],
  ])('when the codes reach %s, then they are sent as %s', (_, name, values) => {
    const type = name === 'int16' ? Int16Array : Int32Array;
    const [slice] = evaluate(values, [{ name: 'm', expression: 'x', decimalPlaces: 0 }]);
    expect(slice?.samples).toBeInstanceOf(type);
    expect(slice?.conversion).toEqual({ numerator: 1, denominator: 1, offset: 0 });
    expect(physical(slice as StoredSlice)).toEqual(values.map((v) => (v < 0 ? -Math.round(-v) : Math.round(v))));
  });

  test.each([
    ['a code past int32', [2147483647.5, 1.234], [2147483648, 1]],
    ['a value float64 holds no decimal of', [1e300, 0.4], [1e300, 0]],
  ])('when a value is %s, then the answer is its rounded values as float64', (_, values, expected) => {
    const [slice] = evaluate(values, [{ name: 'm', expression: 'x', decimalPlaces: 0 }]);
    expect(slice?.samples).toBeInstanceOf(Float64Array);
    expect(slice?.conversion).toEqual(IDENTITY);
    expect(Array.from(slice?.samples ?? [])).toEqual(expected);
  });

  test('when a result is infinite (a division by zero, log(0), an overflow), then it is a gap for every reader, with DecimalPlaces or not', () => {
    const values = [2, 0, -4, 1e300];
    // 1 / x: 0.5, Infinity, -0.25, 1e-300; log(0) is -Infinity; x * 1e10 overflows at 1e300.
    for (const [expression, expected] of [
      ['1 / x', [0.5, null, -0.25, 1e-300]],
      ['log(x)', [Math.log(2), null, null, Math.log(1e300)]],
      ['x * 1e10', [2e10, 0, -4e10, null]],
    ] as const) {
      const [slice] = evaluate(values, [{ name: 'm', expression }]);
      expect(physical(slice as StoredSlice)).toEqual(expected);
      const { json, binary } = bodies(slice as StoredSlice);
      expect((json as { samples: unknown[] }[])[0]?.samples).toEqual(expected);
      expect(binary).toEqual(json);
    }
    // Rounded: the gap does not make the channel float64; its code is 0, flagged.
    const [rounded] = evaluate(values, [{ name: 'm', expression: '1 / x', decimalPlaces: 1 }]);
    expect(rounded?.samples).toBeInstanceOf(Int16Array);
    expect(physical(rounded as StoredSlice)).toEqual([0.5, null, -0.3, 0]);
    // A definition reading it reads the gap (atan would make an infinity pi / 2), rounded or not.
    for (const decimalPlaces of [undefined, 2]) {
      const [reading] = evaluate(values, [{ name: 'm', expression: '1 / x', ...(decimalPlaces === undefined ? {} : { decimalPlaces }) }, { name: 'r', expression: 'atan(m) + 0' }]);
      expect(physical(reading as StoredSlice)[1]).toBeNull();
    }
  });

  test('when its values have gaps, then they stay gaps (code 0, flagged), in the slice, the JSON and the binary body', () => {
    const [slice] = evaluate([1.234, NaN, -5.678, NaN], [{ name: 'm', expression: 'x', decimalPlaces: 1 }]);
    expect(Array.from(slice?.samples ?? [])).toEqual([12, 0, -57, 0]);
    expect(Array.from(slice?.gaps ?? [])).toEqual([0, 1, 0, 1]);
    const { json, binary } = bodies(slice as StoredSlice);
    expect((json as { samples: unknown[] }[])[0]?.samples).toEqual([1.2, null, -5.7, null]);
    expect(binary).toEqual(json);
    const [past] = evaluate([1e12, NaN], [{ name: 'm', expression: 'x', decimalPlaces: 1 }]);
    expect(past?.samples).toBeInstanceOf(Float64Array);
    expect(Array.from(past?.gaps ?? [])).toEqual([0, 1]);
  });

  test('when another definition reads it, then it reads the rounded values; without DecimalPlaces nothing is rounded', () => {
    const [rounded, reading, plain] = evaluate(
      [1, 2, 10],
      [
        { name: 'third', expression: 'x / 3', decimalPlaces: 1 },
        { name: 'back', expression: 'third * 3' },
        { name: 'full', expression: 'x / 3' },
      ],
      ['third', 'back', 'full'],
    ) as [StoredSlice, StoredSlice, StoredSlice];
    expect(physical(rounded)).toEqual([0.3, 0.7, 3.3]);
    expect(Array.from(reading.samples)).toEqual([0.3 * 3, 0.7 * 3, 3.3 * 3]);
    expect(Array.from(plain.samples)).toEqual([1 / 3, 2 / 3, 10 / 3]);
    expect(plain.samples).toBeInstanceOf(Float64Array);
  });

  test('when it is shaped as JSON and binary, whole and with maxPoints, then both carry the same rounded numbers, the JSON at most d decimals', () => {
    const next = random(41);
    const values = Array.from({ length: 8_000 }, (_, i) => (i % 997 === 0 ? NaN : 100 * Math.sin(i / 300) + next()));
    for (const places of [2, 4]) {
      const [slice] = evaluate(values, [{ name: 'm', expression: 'x / 3.6', decimalPlaces: places }]);
      expect(slice?.samples).toBeInstanceOf(places === 2 ? Int16Array : Int32Array);
      for (const maxPoints of [undefined, 400]) {
        const { json, binary } = bodies(slice as StoredSlice, maxPoints);
        expect(binary).toEqual(json);
        const samples = (json as { samples: (number | null)[] }[])[0]?.samples ?? [];
        if (maxPoints) expect(samples.length).toBeLessThanOrEqual(maxPoints);
        else expect(samples).toEqual(physical(slice as StoredSlice));
        for (const v of samples) if (v !== null) expect(String(v).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(places);
        expect(samples).toContain(null);
      }
    }
  });

  test('when its binary body is decoded, then it carries the codes and their conversion as a logged scaled channel does', () => {
    const [slice] = evaluate([12.345, -0.5], [{ name: 'm', expression: 'x', decimalPlaces: 2 }]);
    const body = Buffer.concat([...shapedChunks({ channels: [slice as StoredSlice], binary: true }).chunks]);
    const [series] = decodeChannels(body) as ChannelSeries[];
    expect(series?.samples).toBeInstanceOf(Int16Array);
    expect(Array.from(series?.samples ?? [])).toEqual([1235, -50]);
    expect(series?.conversion).toEqual({ numerator: 1, denominator: 100, offset: 0 });
  });
});

describe('a math channel with DecimalPlaces named twice in one task', () => {
  test('when the task names it twice, then both slices carry its codes (each in an array of its own)', () => {
    const [first, second] = evaluate([1.234, -5.678, NaN], [{ name: 'm', expression: 'x', decimalPlaces: 2 }], ['m', 'm']) as [StoredSlice, StoredSlice];
    expect(physical(first)).toEqual([1.23, -5.68, null]);
    expect(physical(second)).toEqual(physical(first));
    expect(second.samples.buffer).not.toBe(first.samples.buffer);
  });
});

describe('inputs with the names of Object.prototype', () => {
  test.each(['__proto__', 'constructor', 'toString'])('when a file channel is named %s, then a math channel reading it (quoted) gets its values, and one reading that definition too', (name) => {
    const values = [1, 2, 3, 4];
    const [doubled, again] = evaluateMathChannels({
      channels: [
        { name: 'Doubled', unit: 'u' },
        { name: 'Again', unit: 'u' },
      ],
      definitions: [
        { name: 'Doubled', expression: `"${name}" * 2` },
        { name: 'Again', expression: '"Doubled" + 1' },
      ],
      inputs: [input(values, name)],
      span: { start: 0, end: values.length / 10 },
    });
    expect([physical(doubled as StoredSlice), physical(again as StoredSlice)]).toEqual([
      [2, 4, 6, 8],
      [3, 5, 7, 9],
    ]);
  });
});
