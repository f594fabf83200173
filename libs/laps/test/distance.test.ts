import { distanceFromChannel, integrateDistance, lapDistances, UnknownLengthUnitError, UnknownSpeedUnitError } from '../src';

describe('integrateDistance', () => {
  it('when speeds are in km/h, then each interval adds the mean of its two speeds times its duration, in metres', () => {
    // 36 km/h = 10 m/s, 72 km/h = 20 m/s.
    // [0, 1]: (10 + 20) / 2 × 1 s = 15 m      → 15
    // [1, 3]: (20 + 20) / 2 × 2 s = 40 m      → 55
    // [3, 3.5]: (20 + 10) / 2 × 0.5 s = 7.5 m → 62.5
    const d = integrateDistance([0, 1, 3, 3.5], [36, 72, 72, 36], 'km/h');
    expect(Array.from(d)).toEqual([0, 15, 55, 62.5]);
  });

  it.each([
    // 10 units for 2 s at a constant speed: 20 units of length.
    ['m/s', 20],
    ['KPH', (20 * 1000) / 3600], // 20 km / 3600 = 5.5556 m
    ['Km/H', (20 * 1000) / 3600],
    ['mph', (20 * 1609.344) / 3600], // 20 miles / 3600 = 8.9408 m
    ['knots', (20 * 1852) / 3600], // 20 nautical miles / 3600 = 10.2889 m
  ])('when the unit is %s, then it is recognised whatever its case', (unit, metres) => {
    const d = integrateDistance([0, 1, 2], [10, 10, 10], unit);
    expect(d[2]).toBeCloseTo(metres, 10);
  });

  it('when a speed is a gap, then the intervals touching it add no distance', () => {
    // [0,1]: (10 + 10) / 2 × 1 = 10 → 10; [1,2] and [2,3] touch the gap: +0 → 10, 10; [3,4]: (10 + 30) / 2 × 1 = 20 → 30.
    expect(Array.from(integrateDistance([0, 1, 2, 3, 4], [10, 10, null, 10, 30], 'm/s'))).toEqual([0, 10, 10, 10, 30]);
    expect(Array.from(integrateDistance([0, 1, 2, 3, 4], [10, 10, NaN, 10, 30], 'm/s'))).toEqual([0, 10, 10, 10, 30]);
  });

  it('when the unit is not a speed unit, then a typed error names it', () => {
    expect(() => integrateDistance([0, 1], [1, 1], 'rpm')).toThrow(UnknownSpeedUnitError);
    expect(() => integrateDistance([0, 1], [1, 1], 'rpm')).toThrow("speed unit 'rpm'");
  });

  it('when there are no samples or one, then the distance is empty or zero', () => {
    expect(integrateDistance([], [], 'm/s').length).toBe(0);
    expect(Array.from(integrateDistance([5], [100], 'm/s'))).toEqual([0]);
  });
});

describe('distanceFromChannel', () => {
  it('when the channel is in km, then it counts metres from the first present sample', () => {
    // 1.2 km is the origin: 1.2 → 0, 1.25 → 50, 1.5 → 300 m; the gap stays a gap.
    const d = distanceFromChannel([null, 1.2, 1.25, NaN, 1.5], 'km');
    expect(Array.from(d).map((v) => (Number.isNaN(v) ? v : Math.round(v * 1e9) / 1e9))).toEqual([NaN, 0, 50, NaN, 300]);
  });

  it('when the channel resets inside the slice, then the distance carries on', () => {
    // 100, 2300 (2200 m from the origin), reset to 40: 2300 + 40 − 100 = 2240, then 90: 2300 + 90 − 100 = 2290.
    expect(Array.from(distanceFromChannel([100, 2300, 40, 90], 'm'))).toEqual([0, 2200, 2240, 2290]);
  });

  it('when the unit is not a length, then a typed error names it', () => {
    expect(() => distanceFromChannel([1], 'V')).toThrow(UnknownLengthUnitError);
  });

  it('when the channel resets, then the distance carries on from where it was, however far it reset (a window or a whole file need not start at a line)', () => {
    expect(Array.from(distanceFromChannel([3800, 3822, 60, 82], 'm', 15))).toEqual([15, 37, 97, 119]);
    expect(Array.from(distanceFromChannel([3800, 3822, 10, 32], 'm', 15))).toEqual([15, 37, 47, 69]);
  });
});

describe('lapDistances', () => {
  it('when the lap starts between samples, then the first sample is already that far in at the speed of the first step', () => {
    // First sample 0.69 s after the line; the channel climbs 22 m in the first second: 0.69 × 22 = 15.18 m.
    const d = lapDistances([0.69, 1.69, 2.69], [3800, 3822, 3844], { kind: 'channel', unit: 'm' });
    expect(Array.from(d).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([15.18, 37.18, 59.18]);
    // A speed channel: 36 km/h is 10 m/s, 0.5 s after the line: 5 m, then 10 m more each second.
    expect(Array.from(lapDistances([0.5, 1.5, 2.5], [36, 36, 36], { kind: 'integrated', unit: 'km/h' }))).toEqual([5, 15, 25]);
  });

  it('when the channel resets inside the lap to under half of what was counted (a later lap\'s line), then the distance carries on', () => {
    const d = lapDistances([0.69, 1.69, 2.69, 3.69], [3800, 3822, 10, 32], { kind: 'channel', unit: 'm' });
    expect(Array.from(d).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([15.18, 37.18, 47.18, 69.18]);
    // Only the first reset can be this lap's line (60 m at 2 s: the sample at 1 s lies on the way, at 30 m): a second
    // one always carries on.
    expect(Array.from(lapDistances([0, 1, 2, 3, 4], [3800, 3822, 60, 82, 5], { kind: 'channel', unit: 'm' }))).toEqual([0, 30, 60, 82, 87]);
  });

  it('when the channel restarts inside the lap from its line, then the samples before lie between the line and that restart at its mean speed', () => {
    // Still the previous lap's 3800, 3822 m at 0.69 and 1.69 s; at 2.69 s 158 m from the line (58.7 m/s since).
    const d = lapDistances([0.69, 1.69, 2.69, 3.69], [3800, 3822, 158, 217], { kind: 'channel', unit: 'm' });
    const speed = 158 / 2.69;
    expect(Array.from(d)).toEqual([speed * 0.69, speed * 1.69, 158, 217]);
    // Restarting on the second sample (nothing to extrapolate from): the first lies on that line too.
    expect(Array.from(lapDistances([0.82, 1.82, 2.82], [2305, 106, 168], { kind: 'channel', unit: 'm' }))).toEqual([(106 / 1.82) * 0.82, 106, 168]);
  });

  it('when the lap starts on a sample, after a gap, or the first step goes backwards, then it counts from 0 at the first sample', () => {
    expect(Array.from(lapDistances([0, 1], [100, 110], { kind: 'channel', unit: 'm' }))).toEqual([0, 10]);
    // The first sample 3 s after the start but steps of 1 s: a gap came first, nothing is extrapolated over it.
    expect(Array.from(lapDistances([3, 4], [36, 36], { kind: 'integrated', unit: 'km/h' }))).toEqual([0, 10]);
    expect(Array.from(lapDistances([0.5, 1.5], [110, 100], { kind: 'channel', unit: 'm' }))).toEqual([0, -10]);
    expect(Array.from(lapDistances([0.5, 1.5, 2.5], [NaN, 100, 110], { kind: 'channel', unit: 'km' }))).toEqual([NaN, 0, 10000]);
    expect(() => lapDistances([0, 1], [1], { kind: 'channel', unit: 'm' })).toThrow(RangeError);
    expect(() => lapDistances([0.5, 1], [1, 2], { kind: 'channel', unit: 'V' })).toThrow(UnknownLengthUnitError);
  });
});
