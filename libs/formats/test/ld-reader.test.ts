import { ChannelNotFoundError, openDataFile, UnsupportedFeatureError } from '../src';
import { max, readFixture, sha256, SHA256 } from './fixtures';

/**
 * Independent decoding for cross-checks: walks the channel list with DataView at the offsets documented by the
 * open-source .ld readers (next pointer at +4, data pointer +8, count +12, rate +22, scaling +24..+30, name +32).
 */
function rawChannel(bytes: Uint8Array, name: string) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number, len: number) => Buffer.from(bytes.subarray(at, at + len)).toString('latin1').split('\0')[0];
  for (let p = dv.getUint32(8, true); p !== 0; p = dv.getUint32(p + 4, true)) {
    if (text(p + 32, 32) !== name) continue;
    const data = dv.getUint32(p + 8, true);
    const n = dv.getUint32(p + 12, true);
    const [shift, mul, scale, dec] = [24, 26, 28, 30].map((o) => dv.getInt16(p + o, true));
    const value = (i: number) => (dv.getInt16(data + 2 * i, true) / scale * 10 ** -dec + shift) * mul;
    return { n, hz: dv.getUint16(p + 22, true), unit: text(p + 72, 12), value };
  }
  throw new Error(`no ${name}`);
}

describe('MoTeC .ld reader', () => {
  const bytes = readFixture('Sample1.ld');
  const file = openDataFile(bytes);

  it('when the fixture is read, then it is the documented file', () => {
    expect(sha256(bytes)).toBe(SHA256['Sample1.ld']);
  });

  it('when Sample1.ld is opened, then the catalogue has 78 channels of 454 s with the outing properties', () => {
    expect(file.format).toBe('motec-ld');
    expect(file.channels).toHaveLength(78);
    expect(file.duration).toBe(454);
    expect(file.startTime).toBe(0);
    for (const c of file.channels) expect(c.sampleCount).toBe(454 * c.frequency);
    expect(file.properties).toMatchObject({
      eventName: 'i2 data day',
      sessionName: '2',
      venueName: 'Calder',
      carId: '11A',
      outingTime: '2005-11-23T09:53:00',
    });
  });

  it('when Engine RPM and Ground Speed are read, then they run at 10 Hz with maxima 6846 rpm and 244.6 km/h', () => {
    const rpm = file.readChannel('Engine RPM');
    const speed = file.readChannel('Ground Speed');
    expect(rpm).toMatchObject({ unit: 'rpm', frequency: 10, dimension: 1, time: { kind: 'implicit', start: 0, frequency: 10 } });
    expect(speed).toMatchObject({ unit: 'km/h', frequency: 10 });
    expect(max(rpm.samples)).toBe(6846);
    expect(max(speed.samples)).toBe(244.6);
    expect(file.channels.find((c) => c.name === 'Engine RPM')).toMatchObject({ frequency: 10, sampleCount: 4540, dataType: 'int16', regular: true });
  });

  it.each(['Engine RPM', 'Ground Speed', 'Susp Pos FL', 'Gyro Yaw Velocity', 'Lap Time', 'Steered Angle', 'Air Temp Inlet'])(
    'when %s is read, then unit, rate, count and first/last/every sample match an independent DataView decode',
    (name) => {
      const expected = rawChannel(bytes, name);
      const data = file.readChannel(name);
      expect(data.unit).toBe(expected.unit);
      expect(data.frequency).toBe(expected.hz);
      expect(data.samples).toHaveLength(expected.n);
      expect(data.samples[0]).toBeCloseTo(expected.value(0), 9);
      expect(data.samples[expected.n - 1]).toBeCloseTo(expected.value(expected.n - 1), 9);
      for (let i = 0; i < expected.n; i += 7) expect(data.samples[i]).toBeCloseTo(expected.value(i), 9);
    },
  );

  it('when Susp Pos FL and Gyro Yaw Velocity are read, then they carry 100 Hz mm and the 0.36 scaling', () => {
    expect(file.readChannel('Susp Pos FL')).toMatchObject({ frequency: 100, unit: 'mm' });
    const yaw = file.readChannel('Gyro Yaw Velocity');
    expect(yaw.frequency).toBe(20);
    const raw = rawChannel(bytes, 'Gyro Yaw Velocity');
    expect(yaw.samples[100]).toBeCloseTo(raw.value(100), 9);
  });

  it('when no .ldx is given, then laps come from Lap Number, each boundary moved back to the crossing Running Lap Time gives, and the out-lap ends where Running Lap Time started: 94.14, 159.31, 222.99, 288.18 and 351.94 s', () => {
    // Lap Number moves at 162, 225, 290 and 354 s, when the logger had decoded the beacon; Running Lap Time reads
    // 2.69, 2.01, 1.82 and 2.06 s there, restarted from the line. Before, it reads 0 from the file's start to 95 s and
    // 1.86 s at 96 s: the logger timed from the first crossing, at 94.14 s, but counts a lap only once that timed lap
    // ended (Lap Number is 0 until 162 s).
    const edges = file.laps.map((l) => [l.startTime, l.endTime, l.kind]);
    expect(edges.map(([, , kind]) => kind)).toEqual(['out', 'flying', 'flying', 'flying', 'flying', 'in']);
    const running = file.readChannel('Running Lap Time').samples;
    expect([running[0], running[95], running[96]].map((v) => Math.round(v * 100) / 100)).toEqual([0, 0, 1.86]);
    const boundaries = file.laps.slice(1).map((l) => l.startTime);
    [94.14, 159.31, 222.99, 288.18, 351.94].forEach((t, i) => expect(boundaries[i]).toBeCloseTo(t, 9));
    file.laps.slice(1).forEach((lap, i) => expect(lap.startTime).toBe(file.laps[i].endTime));
    expect(file.laps[5].endTime).toBe(454);
  });

  it('when its laps are placed by Running Lap Time, then each flying lap lasts what the logger\'s own Lap Time channel says: the first (timed from the out-lap\'s end) within 0.05 s, the others to the hundredth', () => {
    // Lap Time holds the last completed lap's time from the sample Lap Number moves on (both 1 Hz): 65.15 s at 162 s
    // is the first flying lap, the one from the out-lap's end at 94.14 s to 159.31 s.
    const lapTime = file.readChannel('Lap Time');
    const lapNumber = [...file.readChannel('Lap Number').samples];
    const moves = lapNumber.flatMap((v, i) => (i > 0 && v !== lapNumber[i - 1] ? [i] : []));
    expect(moves).toEqual([162, 225, 290, 354]);
    const logged = moves.map((i) => lapTime.samples[i]);
    expect(logged.map((t) => Math.round(t * 100) / 100)).toEqual([65.15, 63.68, 65.18, 63.75]);
    const ours = [1, 2, 3, 4].map((i) => file.laps[i].endTime - file.laps[i].startTime);
    expect(Math.abs(ours[0] - logged[0])).toBeLessThanOrEqual(0.05);
    ours.slice(1).forEach((t, i) => expect(Math.abs(t - logged[i + 1])).toBeLessThanOrEqual(0.0100001));
    expect(ours.map((t) => Math.round(t * 100) / 100)).toEqual([65.17, 63.68, 65.19, 63.76]);
  });

  it('when an .ldx is given, then its beacon markers (µs) set the laps instead', () => {
    const ldx = `<?xml version="1.0"?><LDXFile Version="1.6"><Layers><Layer><MarkerBlock><MarkerGroup Name="Beacons">
      <Marker Version="100" ClassName="BCN" Name="Manual.1" Flags="77" Time="162100000"/>
      <Marker Version="100" ClassName="BCN" Name="Manual.2" Flags="77" Time="225800000"/>
      </MarkerGroup></MarkerBlock></Layer></Layers></LDXFile>`;
    const withLdx = openDataFile(bytes, { ldx: new TextEncoder().encode(ldx) });
    expect(withLdx.laps.map((l) => [l.startTime, l.endTime, l.kind])).toEqual([
      [0, 162.1, 'out'],
      [162.1, 225.8, 'flying'],
      [225.8, 454, 'in'],
    ]);
  });

  it('when the .ldx has markers of other groups too, then only the Beacons markers set the laps; with no beacon marker, the Lap Number channel does', () => {
    const ldx = (groups: string) => new TextEncoder().encode(`<?xml version="1.0"?><LDXFile Version="1.6"><Layers><Layer><MarkerBlock>${groups}</MarkerBlock></Layer></Layers></LDXFile>`);
    const sections = `<MarkerGroup Name="Sections" Index="2"><Marker Version="100" ClassName="SEC" Name="T1" Flags="77" Time="50000000"/></MarkerGroup>`;
    const beacons = `<MarkerGroup Name="Beacons" Index="3"><Marker Version="100" ClassName="BCN" Name="Manual.1" Flags="77" Time="162100000"/>
      <Marker Version="100" ClassName="BCN" Name="Manual.2" Flags="77" Time="225800000"/></MarkerGroup>`;
    const laps = (groups: string) => openDataFile(bytes, { ldx: ldx(groups) }).laps.map((l) => [l.startTime, l.endTime]);
    expect(laps(sections + beacons)).toEqual([
      [0, 162.1],
      [162.1, 225.8],
      [225.8, 454],
    ]);
    const fromChannel = file.laps.map((l) => [l.startTime, l.endTime]);
    expect(laps(sections)).toEqual(fromChannel);
    expect(laps('<MarkerGroup Name="Beacons" Index="3"/>')).toEqual(fromChannel);
    expect(fromChannel.length).toBe(6);
  });

  it('when an unscaled int16 channel is read, then it comes back as Float32Array; scaled ones as Float64Array', () => {
    expect(file.readChannel('Brake Temp FL').samples).toBeInstanceOf(Float32Array);
    expect(file.readChannel('Ground Speed').samples).toBeInstanceOf(Float64Array);
  });

  it('when an unknown channel is asked for, then CHANNEL_NOT_FOUND', () => {
    expect(() => file.readChannel('Nope')).toThrow(ChannelNotFoundError);
  });

  it('when a channel block has an unknown sample type, then it is listed as unsupported and reading it names the type', () => {
    const copy = bytes.slice();
    const dv = new DataView(copy.buffer);
    const first = dv.getUint32(8, true);
    dv.setUint16(first + 20, 8, true); // 8-byte samples do not exist in .ld
    const damaged = openDataFile(copy);
    expect(damaged.channels[0].unsupported).toBe('sample type 3/8');
    expect(() => damaged.readChannel(damaged.channels[0].name)).toThrow(UnsupportedFeatureError);
  });
});
