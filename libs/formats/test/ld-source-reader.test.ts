import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  bytesSource,
  channelFor,
  ChannelNotFoundError,
  CorruptDataFileError,
  DataFileError,
  CountingSource,
  fileHandleSource,
  InvalidSliceError,
  NotADataFileError,
  openDataFile,
  openDataFileFromSource,
  openLdSource,
  physicalChannel,
  resolveScope,
  scopeSampleRange,
  sliceByLap,
  encodeLdFile,
  type LdChannelInput,
  UnsupportedFeatureError,
  writeLdFile,
} from '../src';
import { readFixture } from './fixtures';

const WIDTH: Record<string, number> = { int16: 2, int32: 4, float16: 2, float32: 4 };

/** First index where two arrays differ (Object.is), -1 when equal in length and values; faster than toEqual on large arrays. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe('MoTeC .ld over a ByteSource', () => {
  const bytes = readFixture('Sample1.ld');
  const eager = openDataFile(bytes);

  it('when Sample1.ld is opened from a source, then its catalogue equals the whole-buffer reader\'s', async () => {
    const file = await openDataFileFromSource(bytesSource(bytes));
    expect(file.format).toBe('motec-ld');
    expect(file.properties).toEqual(eager.properties);
    expect(file.channels).toEqual(eager.channels);
    expect(file.laps).toEqual(eager.laps);
    expect([file.startTime, file.duration]).toEqual([eager.startTime, eager.duration]);
  });

  it('when every channel of Sample1.ld is read from a source, then its physical samples equal readChannel\'s', async () => {
    const file = await openLdSource(bytesSource(bytes));
    for (const info of eager.channels.filter((c) => !c.unsupported)) {
      const lazy = physicalChannel(await file.readStored(info.name));
      const whole = eager.readChannel(info.name);
      expect(lazy.samples.constructor).toBe(whole.samples.constructor);
      expect(firstDifference(lazy.samples, whole.samples)).toBe(-1);
      expect(lazy.time).toEqual(whole.time);
    }
  });

  it('when a lap of Sample1.ld is read, then only that lap\'s bytes of each asked channel are read, and the samples equal sliceByLap', async () => {
    const source = new CountingSource(bytesSource(bytes));
    const file = await openLdSource(source);
    const catalogueBytes = source.bytesRead;
    expect(catalogueBytes).toBeLessThan(bytes.length / 4);
    source.reset();
    const names = ['Engine RPM', 'Ground Speed', 'Susp Pos FL', 'Gyro Yaw Velocity'];
    const window = resolveScope({ mode: 'lap', lapIndex: 2 }, file);
    let expected = 0;
    for (const name of names) {
      const info = channelFor(file, name);
      const range = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
      expected += (range.to - range.from) * WIDTH[info.dataType];
      const lap = physicalChannel(await file.readStored(name, range));
      const reference = sliceByLap(eager.readChannel(name), eager.laps, 2);
      expect(lap.samples).toEqual(reference.samples);
      expect(lap.time).toEqual(reference.time);
    }
    expect(source.bytesRead).toBe(expected);
    expect(source.reads).toHaveLength(names.length);
  });

  it('when a channel is missing, unsupported or the range is outside it, then the reader\'s errors come back', async () => {
    const file = await openLdSource(bytesSource(bytes));
    await expect(file.readStored('No Such Channel')).rejects.toBeInstanceOf(ChannelNotFoundError);
    const info = file.channels[0];
    await expect(file.readStored(info.name, { from: 0, to: info.sampleCount + 1 })).rejects.toBeInstanceOf(InvalidSliceError);
    const odd = writeLdFile({ channels: [{ name: 'A', frequency: 10, samples: [1, 2, 3] }] });
    // Class 7 with size 8 is no sample type the reader knows (as in ld-reader.test.ts).
    const dv = new DataView(odd.buffer, odd.byteOffset, odd.byteLength);
    const block = dv.getUint32(8, true);
    dv.setUint16(block + 18, 7, true);
    dv.setUint16(block + 20, 8, true);
    const broken = await openLdSource(bytesSource(odd));
    await expect(broken.readStored('A')).rejects.toBeInstanceOf(UnsupportedFeatureError);
  });

  it('when the source is not an .ld or is cut short, then NotADataFileError or CorruptDataFileError', async () => {
    await expect(openLdSource(bytesSource(new TextEncoder().encode('Time,Speed\n0,1\n')))).rejects.toBeInstanceOf(NotADataFileError);
    for (const cut of [8, 1000, 1762, 5000, 20_000]) {
      await expect(openLdSource(bytesSource(bytes.slice(0, cut)))).rejects.toBeInstanceOf(CorruptDataFileError);
    }
  });

  it('when mutated copies of Sample1.ld are opened and read from a source, then each outcome is a result or a DataFileError', async () => {
    let seed = 99;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let refused = 0;
    for (let k = 0; k < 300; k++) {
      const copy = bytes.slice(0, random() < 0.2 ? Math.floor(random() * bytes.length) : bytes.length);
      // Mutations aimed at the header and the channel list, where the pointers are.
      for (let m = 0; m < 1 + Math.floor(random() * 8); m++) copy[Math.floor(random() * Math.min(copy.length, 30_000))] = Math.floor(random() * 256);
      try {
        const file = await openLdSource(bytesSource(copy));
        for (const c of file.channels.filter((i) => !i.unsupported).slice(0, 5)) await file.readStored(c.name, { from: 0, to: Math.min(10, c.sampleCount) });
      } catch (e) {
        if (!(e instanceof DataFileError)) throw e;
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  it('when an .ldx is given, then its markers set the laps as in the whole-buffer reader', async () => {
    const ldx = '<LDXFile><Layers><Layer><MarkerBlock><MarkerGroup Name="Beacons"><Marker Time="100000000"/><Marker Time="200000000"/></MarkerGroup></MarkerBlock></Layer></Layers></LDXFile>';
    const file = await openLdSource(bytesSource(bytes), { ldx });
    expect(file.laps).toEqual(openDataFile(bytes, { ldx }).laps);
    expect(file.laps.map((l) => l.startTime)).toEqual([0, 100, 200]);
  });
});

/**
 * Streams a synthetic outing to disk as tools/gen-ld does (scaled int16 channels, a 10 Hz Lap Number with 90 s laps);
 * libraries cannot import tools, so the few lines are repeated here.
 */
function generateLd(file: string, duration: number, rates: { hz: number; count: number }[]): number {
  const channels: LdChannelInput[] = [];
  for (const { hz, count } of rates) {
    for (let k = 0; k < count; k++) {
      const index = channels.length;
      channels.push({
        name: `Synthetic ${String(index).padStart(3, '0')} ${hz}Hz`,
        unit: 'u',
        frequency: hz,
        scaling: { dec: 1 },
        sampleCount: hz * duration,
        fill: (first, out) => {
          for (let i = 0; i < out.length; i++) out[i] = Math.round(1000 * Math.sin((first + i) / (50 + index)) + 10 * index) / 10;
        },
      });
    }
  }
  channels.push({
    name: 'Lap Number',
    frequency: 10,
    sampleCount: duration * 10,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) out[i] = Math.floor((first + i) / 900);
    },
  });
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    for (const chunk of encodeLdFile({ properties: { eventName: 'Synthetic', venueName: 'Test' }, channels })) bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

describe('a large generated .ld over a file handle', () => {
  let dir: string;
  let ldPath: string;
  let size: number;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pitwall-ld-'));
    ldPath = path.join(dir, 'large.ld');
    // About 43 MB: 60 channels for 10 minutes at 20 to 1000 Hz, laps of 90 s from the 10 Hz Lap Number.
    size = generateLd(ldPath, 600, [{ hz: 1000, count: 30 }, { hz: 500, count: 10 }, { hz: 100, count: 10 }, { hz: 20, count: 10 }]);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when a lap of 20 channels is read, then the bytes read are the catalogue plus exactly that lap of those channels', async () => {
    expect(size).toBeGreaterThan(40e6);
    const handle = await open(ldPath, 'r');
    try {
      const source = new CountingSource(await fileHandleSource(handle));
      const file = await openDataFileFromSource(source);
      const catalogueBytes = source.bytesRead;
      // Header and channel list in one 64 KiB read, plus the Lap Number channel (600 s × 10 Hz × 2 bytes), plus the 8-byte sniff.
      expect(catalogueBytes).toBeLessThanOrEqual(8 + 64 * 1024 + 600 * 10 * 2);
      expect(file.laps.length).toBe(7);
      source.reset();

      const names = file.channels.filter((c) => c.name !== 'Lap Number').filter((_, k) => k % 3 === 0).slice(0, 20).map((c) => c.name);
      expect(names).toHaveLength(20);
      const window = resolveScope({ mode: 'lap', lapIndex: 3 }, file);
      let expected = 0;
      const lapSamples: (Float64Array | Float32Array)[] = [];
      for (const name of names) {
        const info = channelFor(file, name);
        const range = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
        expect(range.to - range.from).toBe(90 * info.frequency);
        expected += (range.to - range.from) * 2;
        lapSamples.push(physicalChannel(await file.readStored(name, range)).samples);
      }
      expect(source.bytesRead).toBe(expected);
      // A 90 s lap of 20 of the 61 channels of a 600 s file: about 5 % of it, nothing else.
      expect(source.bytesRead + catalogueBytes).toBeLessThan(size / 10);

      // The values are those of the whole-buffer reader.
      const whole = openDataFile(new Uint8Array(readFileSync(ldPath)));
      names.forEach((name, k) => expect(firstDifference(lapSamples[k], sliceByLap(whole.readChannel(name), whole.laps, 3).samples)).toBe(-1));
    } finally {
      await handle.close();
    }
  }, 180_000);
});
