import { distanceSourceKind, pickDistanceSource } from '../src';

describe('pickDistanceSource', () => {
  it('when the catalogue has a distance channel in m or km, then it is used as it is', () => {
    const channels = [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10 },
      { name: 'Lap Distance', unit: 'm', frequency: 10 },
      { name: 'Distance To Car Ahead', unit: 'm', frequency: 20 },
    ];
    expect(pickDistanceSource(channels)).toEqual({ kind: 'channel', channel: 'Lap Distance', unit: 'm' });
    expect(pickDistanceSource([{ name: 'Odometer', unit: 'km' }])).toEqual({ kind: 'channel', channel: 'Odometer', unit: 'km' });
    // Seldom but no speed channel logged more often (or rates not known): still the distance channel.
    expect(pickDistanceSource([{ name: 'Lap Distance', unit: 'm', frequency: 1 }, { name: 'Ground Speed', unit: 'km/h', frequency: 3 }])).toMatchObject({ channel: 'Lap Distance' });
    expect(pickDistanceSource([{ name: 'Lap Distance', unit: 'm' }, { name: 'Ground Speed', unit: 'km/h', frequency: 100 }])).toMatchObject({ channel: 'Lap Distance' });
  });

  it('when the distance channel is logged under 10 Hz and a car speed channel at least 4 times as often, then the speed is integrated (Sample1.ld: 1 Hz Lap Distance, 10 Hz Ground Speed)', () => {
    const channels = [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10 },
      { name: 'Wheel Speed FL', unit: 'km/h', frequency: 20 },
      { name: 'Lap Distance', unit: 'm', frequency: 1 },
    ];
    expect(pickDistanceSource(channels)).toEqual({ kind: 'integrated', channel: 'Ground Speed', unit: 'km/h' });
    // A distance channel of 10 Hz or more stays, whatever the speed's rate.
    expect(pickDistanceSource([{ name: 'Distance', unit: 'm', frequency: 10 }, { name: 'Speed', unit: 'm/s', frequency: 500 }])).toMatchObject({ kind: 'channel', channel: 'Distance' });
  });

  it('when there is no distance channel, then the car speed channel is integrated, not a wheel or a lap statistic', () => {
    const channels = [
      { name: 'Wheel Speed FL', unit: 'km/h', frequency: 20 },
      { name: 'Max Straight Speed', unit: 'km/h', frequency: 1 },
      { name: 'Speed over Ground', unit: 'km/h', frequency: 10 },
      { name: 'Ground Speed', unit: 'km/h', frequency: 10 },
      { name: 'Dig In 1 Speed', unit: '', frequency: 10 },
    ];
    expect(pickDistanceSource(channels)).toEqual({ kind: 'integrated', channel: 'Ground Speed', unit: 'km/h' });
    expect(pickDistanceSource([{ name: 'Corr_Speed', unit: 'm/s' }])).toEqual({ kind: 'integrated', channel: 'Corr_Speed', unit: 'm/s' });
  });

  it('when a distance-looking channel has no length unit, or a channel cannot be decoded, then it is not picked', () => {
    expect(pickDistanceSource([{ name: 'Distance', unit: 'V' }, { name: 'Speed', unit: 'mph', unsupported: 'sample type 9' }])).toBeUndefined();
    expect(pickDistanceSource([{ name: 'Engine RPM', unit: 'rpm' }])).toBeUndefined();
  });
});

describe('distanceSourceKind', () => {
  it('when a channel is how far the car went or its speed over the ground, then it is a source (taken as it is, or integrated); a lap statistic, a wheel speed or another unit is not', () => {
    expect(distanceSourceKind({ name: 'Lap Distance', unit: 'm', frequency: 1 })).toBe('channel');
    expect(distanceSourceKind({ name: 'Ground Speed', unit: 'km/h', frequency: 10 })).toBe('integrated');
    expect(distanceSourceKind({ name: 'Speed copy', unit: 'km/h' })).toBe('integrated');
    for (const name of ['Max Straight Speed', 'Min Corner Speed', 'Wheel Speed FL', 'Engine Speed']) expect(distanceSourceKind({ name, unit: 'km/h', frequency: 1 })).toBeUndefined();
    expect(distanceSourceKind({ name: 'Distance To Car Ahead', unit: 'm' })).toBeUndefined();
    expect(distanceSourceKind({ name: 'Ground Speed', unit: 'rpm' })).toBeUndefined();
    expect(distanceSourceKind({ name: 'Ground Speed', unit: 'km/h', unsupported: 'compressed' })).toBeUndefined();
  });
});
