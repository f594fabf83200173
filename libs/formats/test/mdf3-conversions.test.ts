import { type Mdf3ChannelSpec } from '../src/testing';
import { openMdf3, writeRecords } from './built-files';

/**
 * MDF 3 exponential (cc 7) and logarithmic (cc 8) conversions, each form of each, with expected values worked out by
 * hand from the formulas (docs/formats.md, "MDF 3"): with P1..P7 and the raw value x,
 *   P4 = 0: f(((x − P7)·P6 − P3) / P1) / P2
 *   P1 = 0: f((P3 / (x − P7) − P6) / P4) / P5
 * where f is exp for cc 7 and ln for cc 8; with neither P1 nor P4 zero the formula is undefined.
 */
describe('MDF 3 exponential and logarithmic conversions', () => {
  /** The raw int16 values, one per record. */
  const RAW = [2, 3, 4, 5, 6, 9, 12, 90];
  const channel = (name: string, type: 7 | 8, p: number[]): Mdf3ChannelSpec => ({ name, dataType: 1, bitCount: 16, byteOffset: 0, conversion: { type, values: p } });
  const records = writeRecords(RAW.length, 2, (v, o, i) => v.setInt16(o, RAW[i] as number, true));
  const file = openMdf3({
    groups: [
      {
        recordSize: 2,
        cycleCount: RAW.length,
        records,
        channels: [
          // Parameters P1 to P7.
          channel('exp, P4 = 0', 7, [2, 4, 6, 0, 0, 3, 2]),
          channel('exp, P1 = 0', 7, [0, 0, 8, 2, 0.5, 2, 1]),
          channel('ln, P4 = 0', 8, [10, 2, -10, 0, 0, 1, 0]),
          channel('ln, P1 = 0', 8, [0, 0, 12, 2, 0.5, 0, 0]),
          channel('exp, undefined', 7, [1, 1, 0, 1, 1, 1, 0]),
        ],
      },
    ],
  });
  const at = (name: string, x: number) => file.readChannel(name).samples[RAW.indexOf(x)];

  it('when cc 7 has P4 = 0, then a sample is exp(((x − P7)·P6 − P3)/P1)/P2', () => {
    // ((x − 2)·3 − 6)/2 is −3 at x = 2, 0 at x = 4, 3 at x = 6; then exp of it over 4.
    expect(at('exp, P4 = 0', 4)).toBe(0.25);
    expect(at('exp, P4 = 0', 2)).toBeCloseTo(0.049787068367863944 / 4, 15);
    expect(at('exp, P4 = 0', 6)).toBeCloseTo(20.085536923187668 / 4, 12);
  });

  it('when cc 7 has P1 = 0, then a sample is exp((P3/(x − P7) − P6)/P4)/P5', () => {
    // (8/(x − 1) − 2)/2 is 1 at x = 3, 0 at x = 5, −0.5 at x = 9; then exp of it over 0.5.
    expect(at('exp, P1 = 0', 5)).toBe(2);
    expect(at('exp, P1 = 0', 3)).toBeCloseTo(2 * 2.718281828459045, 13);
    expect(at('exp, P1 = 0', 9)).toBeCloseTo(2 * 0.6065306597126334, 13);
  });

  it('when cc 8 has P4 = 0, then a sample is ln(((x − P7)·P6 − P3)/P1)/P2', () => {
    // ((x + 10)/10) is 1.2 at x = 2 and 10 at x = 90; then ln of it over 2.
    expect(at('ln, P4 = 0', 90)).toBeCloseTo(2.302585092994046 / 2, 15);
    expect(at('ln, P4 = 0', 2)).toBeCloseTo(0.1823215567939546 / 2, 15);
  });

  it('when cc 8 has P1 = 0, then a sample is ln((P3/(x − P7) − P6)/P4)/P5', () => {
    // (12/x)/2 is 1 at x = 6, 2 at x = 3, 0.5 at x = 12; then ln of it over 0.5.
    expect(at('ln, P1 = 0', 6)).toBe(0);
    expect(at('ln, P1 = 0', 3)).toBeCloseTo(2 * 0.6931471805599453, 15);
    expect(at('ln, P1 = 0', 12)).toBeCloseTo(-2 * 0.6931471805599453, 15);
  });

  it('when neither P1 nor P4 is 0, then the channel is listed and refused by itself, naming why', () => {
    const undefinedForm = file.channels.find((c) => c.name === 'exp, undefined');
    expect(undefinedForm?.unsupported).toBe('exponential conversion (cc_type 7) with both P1 and P4 non-zero');
    expect(() => file.readChannel('exp, undefined')).toThrow('unsupported mdf3 feature: exponential conversion (cc_type 7) with both P1 and P4 non-zero');
    expect(file.readChannel('ln, P1 = 0').samples).toHaveLength(RAW.length);
  });
});
