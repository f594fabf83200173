import type { CatalogueChannel } from '../../src/catalogue';
import { distanceSourceChoices, keptDistanceSource } from '../../src/distance-source';

const channel = (name: string, unit: string, extra: Partial<CatalogueChannel> = {}): CatalogueChannel => ({ name, unit, frequency: 20, sampleCount: 100, dimension: 1, dataType: 'float32', ...extra });
const math = (name: string, unit: string, expression: string): CatalogueChannel => channel(name, unit, { group: 'Math', expression });

describe('distanceSourceChoices: the channels "Distance from" offers', () => {
  test('when a catalogue has distance, speed and other units, then only how far the car went in m/km (taken as it is) and its speed (integrated) qualify, as the service\'s Automatic pick judges them, the file\'s own by name before the math channels', () => {
    const choices = distanceSourceChoices([
      channel('Throttle Pos', '%'),
      channel('Wheel Speed FL', 'km/h'),
      channel('GPS Distance', 'km'),
      channel('Lap Distance', 'm'),
      channel('Ground Speed', 'km/h'),
      channel('Engine RPM', 'rpm'),
      channel('Speed knots', 'kn'),
      channel('Brake Temp', 'C'),
      // A lap's statistic logged once a second and the distance to the car ahead: neither is how far the car went (nor
      // is a wheel's speed, above).
      channel('Max Straight Speed', 'km/h', { frequency: 1 }),
      channel('Distance To Car Ahead', 'm'),
      math('Speed ms', 'm/s', '"Ground Speed" / 3.6'),
      math('Doubled speed', 'KM/H', '"Ground Speed" * 2'),
      math('Ratio', '', '"Ground Speed" / "Engine RPM"'),
    ]);
    expect(choices).toEqual([
      { name: 'GPS Distance', unit: 'km', kind: 'distance', math: false },
      { name: 'Ground Speed', unit: 'km/h', kind: 'speed', math: false },
      { name: 'Lap Distance', unit: 'm', kind: 'distance', math: false },
      { name: 'Speed knots', unit: 'kn', kind: 'speed', math: false },
      { name: 'Doubled speed', unit: 'KM/H', kind: 'speed', math: true },
      { name: 'Speed ms', unit: 'm/s', kind: 'speed', math: true },
    ]);
  });

  test('when a channel in a distance unit holds text, bytes or arrays, then it is not offered (the service takes one number a sample)', () => {
    expect(distanceSourceChoices([channel('Notes', 'm', { kind: 'text' }), channel('Raw', 'm', { kind: 'bytes' }), channel('Tyre Speeds', 'km/h', { dimension: 4, shape: [4] })])).toEqual([]);
  });
});

describe('keptDistanceSource: the choice after the catalogue changed', () => {
  const choices = distanceSourceChoices([channel('Ground Speed', 'km/h'), math('Speed ms', 'm/s', '"Ground Speed" / 3.6')]);

  test('when the new dataset still offers the chosen channel, then it is kept', () => {
    expect(keptDistanceSource('Speed ms', choices)).toBe('Speed ms');
  });

  test('when it does not (another file, a channel in another unit now), then the choice is Automatic', () => {
    expect(keptDistanceSource('GPS Distance', choices)).toBe('');
    expect(keptDistanceSource('Speed ms', [])).toBe('');
  });

  test('when the choice is Automatic, then it stays Automatic', () => {
    expect(keptDistanceSource('', choices)).toBe('');
  });
});
