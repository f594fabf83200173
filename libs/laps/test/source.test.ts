import { pickDistanceSource } from '../src';

describe('pickDistanceSource', () => {
  it('when the catalogue has a distance channel in m or km, then it is used as it is', () => {
    const channels = [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10 },
      { name: 'Lap Distance', unit: 'm', frequency: 1 },
      { name: 'Distance To Car Ahead', unit: 'm', frequency: 10 },
    ];
    expect(pickDistanceSource(channels)).toEqual({ kind: 'channel', channel: 'Lap Distance', unit: 'm' });
    expect(pickDistanceSource([{ name: 'Odometer', unit: 'km' }])).toEqual({ kind: 'channel', channel: 'Odometer', unit: 'km' });
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
