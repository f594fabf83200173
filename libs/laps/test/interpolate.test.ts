import { interpolateLinear, interpolateStep, isDiscreteChannel } from '../src';

describe('interpolateLinear', () => {
  it('when a point falls between samples, then it lies on the line between them; on a sample it is that sample', () => {
    // Between (0, 10) and (2, 20): at 0.5, 10 + (20 − 10) × 0.5 / 2 = 12.5; at 3, between (2, 20) and (4, 0): 20 − 20 × 1/2 = 10.
    expect(Array.from(interpolateLinear([0, 2, 4], [10, 20, 0], [0, 0.5, 2, 3, 4]))).toEqual([10, 12.5, 20, 10, 0]);
  });

  it('when the points are not in ascending order, then each is still interpolated', () => {
    expect(Array.from(interpolateLinear([0, 2, 4], [10, 20, 0], [3, 0.5, 4, 2, 0]))).toEqual([10, 12.5, 0, 20, 10]);
  });

  it('when a point is outside the samples or next to a gap, then it is NaN', () => {
    const out = interpolateLinear([0, 1, 2, 3], [1, null, 3, 4], [-1, 0.5, 1, 1.5, 2.5, 3.5]);
    expect(Array.from(out)).toEqual([NaN, NaN, NaN, NaN, 3.5, NaN]);
  });

  it('when a tolerance is given, then a point that close outside the samples is read at their end; farther, it is NaN', () => {
    // xs rounded to the microsecond (65.11) while the point was computed as 288.1 − 222.99 = 65.11000000000001.
    const at = [-5e-7, 288.1 - 222.99, 65.110002];
    expect(Array.from(interpolateLinear([0, 65.11], [0, 2200], at))).toEqual([NaN, NaN, NaN]);
    expect(Array.from(interpolateLinear([0, 65.11], [0, 2200], at, 1e-6))).toEqual([0, 2200, NaN]);
  });

  it('when xs repeat, then the first sample reaching the value is taken', () => {
    // Distance stands at 10 m from t = 1 s to t = 3 s; the time at 10 m is the arrival, 1 s.
    expect(Array.from(interpolateLinear([0, 10, 10, 10, 20], [0, 1, 2, 3, 4], [10, 15]))).toEqual([1, 3.5]);
  });
});

describe('interpolateStep', () => {
  it('when a point falls between samples, then it holds the previous sample', () => {
    expect(Array.from(interpolateStep([0, 1, 2], [3, 4, 5], [0, 0.99, 1, 1.5, 2]))).toEqual([3, 3, 4, 4, 5]);
  });

  it('when a point is outside the samples or the held sample is a gap, then it is NaN', () => {
    expect(Array.from(interpolateStep([0, 1, 2], [3, null, 5], [-0.1, 0.5, 1.5, 2.1]))).toEqual([NaN, 3, NaN, NaN]);
  });
});

describe('isDiscreteChannel', () => {
  it.each([
    [{ name: 'Gear', unit: '', dataType: 'int16' }, true],
    [{ name: 'Engaged Gear', unit: 'gear', dataType: 'float32' }, true],
    [{ name: 'Flag_Status', unit: '', dataType: 'float32' }, true],
    [{ name: 'Launch Control Active', unit: '', dataType: 'int16' }, true],
    [{ name: 'Fuel Pump State', unit: 'bool', dataType: 'uint8' }, true],
    [{ name: 'Engine RPM', unit: 'rpm', dataType: 'int16' }, false],
    [{ name: 'Ground Speed', unit: 'km/h', dataType: 'int16' }, false],
    [{ name: 'Throttle Position', unit: '%', dataType: 'int16' }, false],
    [{ name: 'Steered Angle', unit: 'deg', dataType: 'float32' }, false],
    [{ name: 'Lambda 1', unit: '', dataType: 'float32' }, false],
  ])('%o is discrete: %s', (channel, discrete) => {
    expect(isDiscreteChannel(channel)).toBe(discrete);
  });
});
