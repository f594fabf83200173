import { pickTrackMapSources, trackMapUnitFactor } from '../src';

const sample1 = [
  { name: 'Ground Speed', unit: 'km/h' },
  { name: 'Wheel Speed FL', unit: 'km/h' },
  { name: 'Gyro Yaw Velocity', unit: 'deg/s' },
  { name: 'Gyro Yaw Velocity 1', unit: 'deg/s' },
  { name: 'G Force Lat', unit: 'G' },
  { name: 'Throttle Pos', unit: '%' },
];

describe('trackMapUnitFactor', () => {
  test('when units are read, then km/h and m/s, deg/s and rad/s, g and m/s² each turn into m/s, rad/s and m/s²', () => {
    expect(trackMapUnitFactor('speed', 'km/h')).toBeCloseTo(1 / 3.6, 12);
    expect(trackMapUnitFactor('speed', 'm/s')).toBe(1);
    expect(trackMapUnitFactor('yawRate', 'deg/s')).toBeCloseTo(Math.PI / 180, 12);
    expect(trackMapUnitFactor('yawRate', '°/s')).toBeCloseTo(Math.PI / 180, 12);
    expect(trackMapUnitFactor('yawRate', 'rad/s')).toBe(1);
    expect(trackMapUnitFactor('lateralAcceleration', 'G')).toBeCloseTo(9.80665, 12);
    expect(trackMapUnitFactor('lateralAcceleration', 'm/s²')).toBe(1);
    expect(trackMapUnitFactor('lateralAcceleration', 'm/s^2')).toBe(1);
    expect(trackMapUnitFactor('latitude', 'deg')).toBe(1);
    expect(trackMapUnitFactor('latitude', '')).toBe(1);
    expect(trackMapUnitFactor('yawRate', 'bar')).toBeUndefined();
    expect(trackMapUnitFactor('lateralAcceleration', 'deg/s')).toBeUndefined();
  });
});

describe('pickTrackMapSources', () => {
  test('when a file has speed, yaw rate and lateral g but no GPS, then the yaw rate is used with the default names', () => {
    expect(pickTrackMapSources(sample1)).toEqual({
      picked: {
        kind: 'yaw-rate',
        channels: [
          { role: 'speed', name: 'Ground Speed', unit: 'km/h', factor: 1 / 3.6 },
          { role: 'yawRate', name: 'Gyro Yaw Velocity', unit: 'deg/s', factor: Math.PI / 180 },
        ],
      },
    });
  });

  test('when the file has GPS too, then GPS is used first; when the request names a source or channels, then they are used', () => {
    const withGps = [...sample1, { name: 'GPS Latitude', unit: 'deg' }, { name: 'GPS_Longitude', unit: 'deg' }];
    expect(pickTrackMapSources(withGps)).toMatchObject({ picked: { kind: 'gps', channels: [{ name: 'GPS Latitude' }, { name: 'GPS_Longitude' }] } });
    expect(pickTrackMapSources(withGps, { source: 'lateral-acceleration' })).toMatchObject({ picked: { kind: 'lateral-acceleration', channels: [{ name: 'Ground Speed' }, { name: 'G Force Lat' }] } });
    expect(pickTrackMapSources(sample1, { channels: { yawRate: 'Gyro Yaw Velocity 1', speed: 'Wheel Speed FL' } })).toMatchObject({ picked: { kind: 'yaw-rate', channels: [{ name: 'Wheel Speed FL' }, { name: 'Gyro Yaw Velocity 1' }] } });
  });

  test('when the request names an unknown channel or one of another unit, then each is refused on its field', () => {
    expect(pickTrackMapSources(sample1, { channels: { yawRate: 'Nope', lateralAcceleration: 'Throttle Pos' } })).toEqual({
      refused: [
        { field: 'channels.yawRate', message: 'channel not found: Nope' },
        { field: 'channels.lateralAcceleration', message: expect.stringContaining("Throttle Pos has unit '%', not a unit of a lateral acceleration") },
      ],
    });
  });

  test('when the file has neither GPS nor speed with a yaw rate or lateral g, then what is missing is said', () => {
    const pick = pickTrackMapSources([{ name: 'Ground Speed', unit: 'km/h' }, { name: 'Yaw Rate', unit: 'bar' }]);
    expect(pick).toEqual({ missing: expect.stringContaining('missing GPS: a latitude channel') });
    const missing = (pick as { missing: string }).missing;
    expect(missing).toContain("yaw-rate: a yaw rate channel ('Gyro Yaw Velocity'");
    expect(missing).toContain('lateral-acceleration: a lateral acceleration channel');
    expect(missing).not.toContain('yaw-rate: a speed');
    expect(pickTrackMapSources(sample1, { source: 'gps' })).toEqual({ missing: expect.stringMatching(/^no gps track map; missing GPS: a latitude channel .* and a longitude channel/) });
  });
});
