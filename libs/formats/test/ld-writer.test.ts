import { encodeLdFile, openDataFile, writeLdFile } from '../src';

describe('.ld writer', () => {
  const input = {
    properties: { eventName: 'Test', sessionName: 'Q1', driverName: 'Driver', venueName: 'Venue', carId: 'C7', outingTime: '2026-01-02T03:04:05' },
    channels: [
      { name: 'Engine RPM', unit: 'rpm', frequency: 20, scaling: { mul: 6, scale: 10, dec: -1 }, samples: [0, 6, 6846, 1200] },
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, scaling: { dec: 1 }, samples: [0, 244.6, 12.3] },
      { name: 'Brake Temp', unit: 'C', frequency: 1, type: 'int32' as const, samples: [100000, -5] },
      { name: 'Lateral G', unit: 'G', frequency: 50, type: 'float32' as const, samples: [0.5, -1.25] },
    ],
  };

  it('when a file is written and read back, then properties, rates, units and values survive', () => {
    const file = openDataFile(writeLdFile(input));
    expect(file.properties).toMatchObject({ eventName: 'Test', sessionName: 'Q1', driverName: 'Driver', venueName: 'Venue', carId: 'C7', outingTime: '2026-01-02T03:04:05' });
    expect(Array.from(file.readChannel('Engine RPM').samples)).toEqual([0, 6, 6846, 1200]);
    expect(Array.from(file.readChannel('Ground Speed').samples)).toEqual([0, 244.6, 12.3]);
    expect(Array.from(file.readChannel('Brake Temp').samples)).toEqual([100000, -5]);
    expect(Array.from(file.readChannel('Lateral G').samples)).toEqual([0.5, -1.25]);
    expect(file.channels.map((c) => [c.name, c.unit, c.frequency, c.dataType])).toEqual([
      ['Engine RPM', 'rpm', 20, 'int16'],
      ['Ground Speed', 'km/h', 10, 'int16'],
      ['Brake Temp', 'C', 1, 'int32'],
      ['Lateral G', 'G', 50, 'float32'],
    ]);
  });

  it('when streamed with fill callbacks, then the chunks concatenate to the same bytes as the in-memory writer', () => {
    const values = Array.from({ length: 3000 }, (_, i) => Math.round(100 * Math.sin(i / 10)) / 10);
    const viaSamples = writeLdFile({ channels: [{ name: 'X', frequency: 100, scaling: { dec: 1 }, samples: values }] });
    const chunks = [...encodeLdFile({ channels: [{ name: 'X', frequency: 100, scaling: { dec: 1 }, sampleCount: 3000, fill: (first, out) => out.forEach((_, i) => (out[i] = values[first + i])) }] })];
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(viaSamples));
  });

  it('when the input is invalid, then the writer refuses it', () => {
    expect(() => writeLdFile({ channels: [{ name: 'X', frequency: 0.5, samples: [1] }] })).toThrow(RangeError);
  });
});
