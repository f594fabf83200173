import { CorruptDataFileError, createDemoLdFile, NotADataFileError, openDataFile, UnsupportedFeatureError, writeLdFile } from '../src';
import { readFixture } from './fixtures';

describe('openDataFile: recognition and errors', () => {
  it.each([
    ['a PDF', new TextEncoder().encode('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')],
    ['a PNG', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89])],
    ['random bytes', Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)],
    ['an empty file', new Uint8Array(0)],
    ['a text file without a time column', new TextEncoder().encode('name,value\nfoo,1\n')],
  ])('when given %s, then NOT_A_DATA_FILE', (_, bytes) => {
    expect(() => openDataFile(bytes)).toThrow(NotADataFileError);
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'NOT_A_DATA_FILE' }));
  });

  it('when the format is recognised from content, then the file name plays no part (bytes only)', () => {
    expect(openDataFile(readFixture('Sample1.ld')).format).toBe('motec-ld');
    expect(openDataFile(readFixture('simple.mf4')).format).toBe('mdf4');
    expect(openDataFile(readFixture('csv_sample.csv')).format).toBe('csv');
  });

  it('when a .ld file is truncated inside its samples, then CORRUPT with the reason and the byte offset', () => {
    const bytes = readFixture('Sample1.ld').slice(0, 500_000);
    try {
      openDataFile(bytes);
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(CorruptDataFileError);
      const corrupt = error as CorruptDataFileError;
      expect(corrupt.code).toBe('CORRUPT');
      expect(corrupt.reason).toMatch(/runs past the end of the file/);
      expect(corrupt.offset).toBeGreaterThan(0);
      expect(corrupt.offset).toBeLessThan(1_207_996);
    }
  });

  it('when a .ld channel list loops, then CORRUPT at the repeated block', () => {
    const bytes = readFixture('Sample1.ld').slice();
    const dv = new DataView(bytes.buffer);
    const first = dv.getUint32(8, true);
    dv.setUint32(first + 4, first, true);
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'CORRUPT', offset: first }));
  });

  it('when an MDF DZ block is damaged, then CORRUPT naming the deflate stream', () => {
    const bytes = readFixture('simple.mf4').slice();
    const dz = Buffer.from(bytes).indexOf('##DZ');
    bytes.fill(0xff, dz + 60, dz + 200);
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
  });

  it('when the file is MDF 3, then the MDF 3 reader reads it (here: a lone identification block, CORRUPT as mdf3)', () => {
    const bytes = new Uint8Array(64);
    bytes.set(new TextEncoder().encode('MDF     3.30    '));
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'CORRUPT', format: 'mdf3' }));
    expect(openDataFile(readFixture('f11_v330.mdf')).format).toBe('mdf3');
  });

  it('when the file is MDF older than 3.0, then UNSUPPORTED naming the version', () => {
    const bytes = new Uint8Array(64);
    bytes.set(new TextEncoder().encode('MDF     2.14    '));
    expect(() => openDataFile(bytes)).toThrow(UnsupportedFeatureError);
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ feature: 'MDF version 2.14 (MDF 3.x and 4.x are read)' }));
  });

  it('when a dataset is an array of per-lap files, then they read as one file, one lap per file, in order', () => {
    const lap = (speed: number, seconds: number) =>
      writeLdFile({ channels: [{ name: 'Ground Speed', unit: 'km/h', frequency: 10, scaling: { dec: 1 }, samples: Array.from({ length: seconds * 10 }, () => speed) }] });
    const file = openDataFile([lap(100, 60), lap(150, 50), lap(120, 70)]);
    expect(file.format).toBe('lap-set');
    expect(file.laps.map((l) => [l.index, l.startTime, l.endTime, l.kind])).toEqual([
      [0, 0, 60, 'out'],
      [1, 60, 110, 'flying'],
      [2, 110, 180, 'in'],
    ]);
    const speed = file.readChannel('Ground Speed');
    expect(speed.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
    expect(speed.samples).toHaveLength(1800);
    expect([speed.samples[599], speed.samples[600], speed.samples[1099], speed.samples[1100]]).toEqual([100, 150, 150, 120]);
    expect(speed.gaps).toBeUndefined();
  });

  it('when a per-lap file has no sample or one, then it is still its own lap, one sample period of the group long, and no two files share a time', () => {
    const csv = (rows: number, from: number) => new TextEncoder().encode(`Time,V\n${Array.from({ length: rows }, (_, i) => `${(from + i / 10).toFixed(1)},${i}`).join('\n')}\n`);
    for (const [short, rows] of [['no sample', 0], ['one sample', 1]] as const) {
      const file = openDataFile([csv(2, 0), rows === 0 ? new TextEncoder().encode('Time,V\n') : csv(rows, 0), csv(3, 0)]);
      expect([short, file.laps.length]).toEqual([short, 3]);
      expect(file.laps.map((l) => l.endTime - l.startTime)).toEqual([0.2, 0.1, 0.3].map((t) => expect.closeTo(t, 9)));
      const v = file.readChannel('V');
      const times = Array.from({ length: v.samples.length }, (_, i) => (v.time.kind === 'implicit' ? v.time.start + i / v.time.frequency : v.time.timestamps[i]));
      expect(new Set(times.map((t) => t.toFixed(9))).size).toBe(times.length);
    }
  });

  it('when 2,000 per-lap files each name channels of their own, then each channel reads its own lap and gaps for every other, regular or not', () => {
    // File k: V (in every file) and its own channel Ck, at 10 Hz for 0.3 s; every 100th file's Ck at uneven times.
    const csv = (k: number) => {
      const times = k % 100 === 0 ? [0, 0.05, 0.2] : [0, 0.1, 0.2];
      return new TextEncoder().encode(`Time,V,C${k}\n${times.map((t, i) => `${t},${k},${k * 10 + i}`).join('\n')}\n`);
    };
    const file = openDataFile(Array.from({ length: 2000 }, (_, k) => csv(k)));
    expect(file.laps).toHaveLength(2000);
    expect(file.channels).toHaveLength(2001);
    const c7 = file.readChannel('C7');
    // Regular: on the common grid, three samples per lap, the others gaps.
    expect(c7.time.kind).toBe('implicit');
    expect(c7.samples).toHaveLength(6000);
    expect(Array.from(c7.samples.slice(21, 24))).toEqual([70, 71, 72]);
    expect(Array.from(c7.gaps?.slice(18, 27) ?? [])).toEqual([1, 1, 1, 0, 0, 0, 1, 1, 1]);
    // Irregular in its own lap: its three samples only, at their times on the dataset's axis.
    const c100 = file.readChannel('C100');
    expect(Array.from(c100.samples)).toEqual([1000, 1001, 1002]);
    expect(c100.time.kind === 'explicit' && Array.from(c100.time.timestamps)).toEqual([30, 30.05, 30.2]);
    expect(file.readChannel('V').samples[5999]).toBe(1999);
  });

  it('when the demo file is generated, then it is a small .ld whose laps come from its Lap Number channel', () => {
    const bytes = createDemoLdFile();
    const file = openDataFile(bytes);
    expect(bytes.length).toBeLessThan(300_000);
    expect(file.laps.map((l) => l.kind)).toEqual(['out', 'flying', 'flying', 'flying', 'in']);
    expect(file.properties.venueName).toBe('Demo Circuit');
    expect(file.channels.map((c) => c.name)).toEqual(expect.arrayContaining(['Engine RPM', 'Ground Speed', 'Lap Number', 'Beacon']));
  });

  it('when the demo file is generated with the full channel set, then it has tens of channels over the same laps', () => {
    const file = openDataFile(createDemoLdFile({ fullChannelSet: true }));
    expect(file.channels).toHaveLength(29);
    expect(file.laps).toEqual(openDataFile(createDemoLdFile()).laps);
    expect(file.channels.map((c) => c.name)).toEqual(expect.arrayContaining(['Susp Pos FL', 'Wheel Speed RR', 'Tyre Temp FR', 'G Force Lat', 'Oil Pressure']));
  });
});
