import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compactSamples, decodeChannels, downsampleSeries, encodeChannels, toChannelRecord, toReadRecord, type ChannelSeries } from '@pitwall/channels';
import {
  buildMetadataRecord,
  channelFor,
  bytesSource,
  CountingSource,
  fileHandleSource,
  InvalidSliceError,
  openDataFile,
  openDataFileFromSource,
  physicalChannel,
  resolveScope,
  sampleIndexRange,
  scopeSampleRange,
  sliceByWindow,
  sliceStored,
  type StoredChannel,
  StoredChannelCache,
  storedFromChannelData,
} from '../src';
import { readFixture } from './fixtures';

describe('ByteSource', () => {
  const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);

  it('when ranges are read from bytes or from a file handle, then both give exactly those bytes in fresh buffers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-source-'));
    try {
      writeFileSync(path.join(dir, 'f.bin'), bytes);
      const handle = await open(path.join(dir, 'f.bin'), 'r');
      try {
        for (const source of [bytesSource(bytes), await fileHandleSource(handle)]) {
          expect(source.size).toBe(100);
          const part = await source.read(10, 5);
          expect(Array.from(part)).toEqual([10, 11, 12, 13, 14]);
          expect(part.byteOffset).toBe(0);
          expect((await source.read(100, 0)).length).toBe(0);
          await expect(source.read(98, 5)).rejects.toThrow(RangeError);
          await expect(source.read(-1, 1)).rejects.toThrow(RangeError);
        }
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when reads go through a CountingSource, then it counts their bytes and lists them', async () => {
    const source = new CountingSource(bytesSource(bytes));
    await source.read(0, 10);
    await source.read(50, 7);
    expect(source.bytesRead).toBe(17);
    expect(source.reads).toEqual([{ offset: 0, length: 10 }, { offset: 50, length: 7 }]);
    source.reset();
    expect(source.bytesRead).toBe(0);
  });
});

describe('MDF and CSV over a ByteSource', () => {
  it.each(['csv_sample.csv', 'simple.mf4'])('when %s is opened from a source, then catalogue and stored channels equal the whole-buffer reader', async (name) => {
    const bytes = readFixture(name);
    const eager = openDataFile(bytes);
    const file = await openDataFileFromSource(bytesSource(bytes));
    expect(file.channels).toEqual(eager.channels);
    const info = channelFor(eager, eager.channels.filter((c) => !c.unsupported)[0].name);
    const stored = await file.readStored(info.name, { from: 1, to: 3 });
    expect(stored.conversion).toEqual({ numerator: 1, denominator: 1, offset: 0 });
    expect(Array.from(physicalChannel(stored).samples)).toEqual(Array.from(eager.readChannel(info.name).samples.slice(1, 3)));
  });
});

describe('stored channels', () => {
  const stored: StoredChannel = {
    name: 'Speed',
    unit: 'km/h',
    frequency: 10,
    dimension: 1,
    time: { kind: 'implicit', start: 0, frequency: 10 },
    samples: Int16Array.from([2446, 10, -5, 0]),
    conversion: { numerator: 1, denominator: 10, offset: 0 },
  };

  it('when a slice is converted, then only that slice is, with its own time base', () => {
    const slice = sliceStored(stored, 1, 3);
    expect(slice.samples.buffer).toBe(stored.samples.buffer);
    const physical = physicalChannel(slice);
    expect(Array.from(physical.samples)).toEqual([1, -0.5]);
    expect(physical.time).toEqual({ kind: 'implicit', start: 0.1, frequency: 10 });
    expect(() => sliceStored(stored, 3, 5)).toThrow(RangeError);
  });

  it('when a decoded channel becomes a stored one, then its conversion is the identity and values are unchanged', () => {
    const data = openDataFile(readFixture('csv_sample.csv'));
    const channel = data.readChannel(data.channels[0].name);
    const again = physicalChannel(storedFromChannelData(channel));
    expect(Array.from(again.samples)).toEqual(Array.from(channel.samples));
  });
});

describe('StoredChannelCache', () => {
  const channel = (bytes: number): StoredChannel => ({
    name: 'c',
    unit: '',
    frequency: 1,
    dimension: 1,
    time: { kind: 'implicit', start: 0, frequency: 1 },
    samples: new Int16Array(bytes / 2),
    conversion: { numerator: 1, denominator: 1, offset: 0 },
  });

  it('when more bytes are put than the bound, then the least recently used channels go first', () => {
    const cache = new StoredChannelCache(1000);
    cache.set('blob1', 'A', channel(400));
    cache.set('blob1', 'B', channel(400));
    expect(cache.get('blob1', 'A')).toBeDefined(); // A is now the most recent
    cache.set('blob2', 'A', channel(400));
    expect(cache.get('blob1', 'B')).toBeUndefined();
    expect(cache.get('blob1', 'A')).toBeDefined();
    expect(cache.get('blob2', 'A')).toBeDefined();
    expect(cache.bytes).toBe(800);
    expect(cache.size).toBe(2);
  });

  it('when a channel is larger than the whole bound, then it is not kept and evicts nothing', () => {
    const cache = new StoredChannelCache(1000);
    cache.set('h', 'small', channel(100));
    cache.set('h', 'huge', channel(2000));
    expect(cache.get('h', 'huge')).toBeUndefined();
    expect(cache.get('h', 'small')).toBeDefined();
  });

  it('when a key is set again, then its bytes are counted once', () => {
    const cache = new StoredChannelCache(1000);
    cache.set('h', 'x', channel(300));
    cache.set('h', 'x', channel(500));
    expect(cache.bytes).toBe(500);
    expect(cache.delete('h', 'x')).toBe(true);
    expect(cache.bytes).toBe(0);
    expect(() => new StoredChannelCache(-1)).toThrow(RangeError);
  });

  it('when every entry of a blob is dropped, then its channels and ranges go, their bytes are released and other blobs stay', () => {
    const cache = new StoredChannelCache(10_000);
    cache.set('blob1', 'A', channel(100));
    cache.set('blob1', 'A\u00000:10', channel(200));
    cache.set('blob10', 'A', channel(300));
    expect(cache.deleteAll('blob1')).toBe(2);
    expect(cache.get('blob1', 'A')).toBeUndefined();
    expect(cache.get('blob10', 'A')).toBeDefined();
    expect(cache.bytes).toBe(300);
    expect(cache.deleteAll('blob1')).toBe(0);
  });

  it('when a blob hash and a channel name would concatenate alike, then they are still distinct keys', () => {
    const cache = new StoredChannelCache(10_000);
    cache.set('ab', 'c', channel(2));
    expect(cache.get('a', 'bc')).toBeUndefined();
  });
});

describe('scope resolution', () => {
  const file = openDataFile(readFixture('Sample1.ld'));

  it('when a lap is asked for, then the window is that lap and each channel gets the indices sliceByLap takes', () => {
    const window = resolveScope({ mode: 'lap', lapIndex: 2 }, file);
    expect(window).toEqual({ whole: false, start: file.laps[2].startTime, end: file.laps[2].endTime });
    const info = channelFor(file, 'Ground Speed');
    const range = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
    // Lap 2 (the second flying lap) is [159.31, 222.99): at 10 Hz its first sample is 1594 (159.4 s), its last 2229.
    expect(range).toEqual({ from: 1594, to: 2230 });
    expect(info.frequency).toBe(10);
  });

  it('when a window is asked for, then it counts from the file start and is half-open', () => {
    const shifted = { startTime: 100, laps: [] };
    expect(resolveScope({ mode: 'window', start: 5, duration: 2 }, shifted)).toEqual({ whole: false, start: 105, end: 107 });
    const time = { kind: 'implicit', start: 100, frequency: 10 } as const;
    expect(scopeSampleRange(resolveScope({ mode: 'window', start: 5, duration: 2 }, shifted), time, 1000)).toEqual({ from: 50, to: 70 });
    const explicit = { kind: 'explicit', timestamps: Float64Array.from([100, 104.5, 105, 106.9, 107, 200]) } as const;
    expect(scopeSampleRange(resolveScope({ mode: 'window', start: 5, duration: 2 }, shifted), explicit, 6)).toEqual({ from: 2, to: 4 });
  });

  it('when the file starts at an epoch time, then a window on a sample keeps it, however its bounds rounded (100 Hz from 1.7e9 s)', () => {
    const epoch = { startTime: 1_700_000_000, laps: [] };
    const implicit = { kind: 'implicit', start: 1_700_000_000, frequency: 100 } as const;
    const explicit = { kind: 'explicit', timestamps: Float64Array.from({ length: 1000 }, (_, i) => Number((1_700_000_000 + i / 100).toFixed(2))) } as const;
    for (let k = 0; k < 999; k++) {
      const window = resolveScope({ mode: 'window', start: k / 100, duration: 0.01 }, epoch);
      expect([k, scopeSampleRange(window, implicit, 1000)]).toEqual([k, { from: k, to: k + 1 }]);
      expect([k, scopeSampleRange(window, explicit, 1000)]).toEqual([k, { from: k, to: k + 1 }]);
    }
    // A duration too large to add up reaches the end of the file.
    expect(scopeSampleRange(resolveScope({ mode: 'window', start: 0.5, duration: 1e308 }, epoch), explicit, 1000)).toEqual({ from: 50, to: 1000 });
    expect(scopeSampleRange(resolveScope({ mode: 'window', start: 0.5, duration: 1e308 }, epoch), implicit, 1000)).toEqual({ from: 50, to: 1000 });
  });

  it('when the whole file is asked for, then every sample is in range', () => {
    expect(scopeSampleRange(resolveScope({ mode: 'file' }, file), { kind: 'implicit', start: 0, frequency: 10 }, 4540)).toEqual({ from: 0, to: 4540 });
  });

  it('when the range agrees with sliceByWindow, then the library has one definition of a window', () => {
    const data = file.readChannel('Engine RPM');
    const { from, to } = sampleIndexRange(data.time, data.samples.length, 12.34, 12.34 + 7.7);
    expect(Array.from(data.samples.slice(from, to))).toEqual(Array.from(sliceByWindow(data, 12.34, 7.7).samples));
  });

  it.each([
    [{ mode: 'lap', lapIndex: 6 }, /lap index 6 is outside 0..5/],
    [{ mode: 'lap', lapIndex: -1 }, /outside/],
    [{ mode: 'lap', lapIndex: 1.5 }, /outside/],
    [{ mode: 'window', start: 0, duration: -1 }, /non-negative/],
    [{ mode: 'window', start: NaN, duration: 1 }, /finite/],
  ] as const)('when the scope is %j, then InvalidSliceError', (scope, message) => {
    expect(() => resolveScope(scope, file)).toThrow(InvalidSliceError);
    expect(() => resolveScope(scope, file)).toThrow(message);
  });

  it('when a file has no laps, then a lap index says so', () => {
    expect(() => resolveScope({ mode: 'lap', lapIndex: 0 }, { startTime: 0, laps: [] })).toThrow(/no laps/);
  });
});

describe('metadata record', () => {
  it('when Sample1.ld is described, then the record has exactly the spec fields from its catalogue', () => {
    const file = openDataFile(readFixture('Sample1.ld'));
    const record = buildMetadataRecord({ entityId: 'e1', entityType: 'RunSheet', attachedFileGroupName: 'DataFile_Logged' }, file);
    expect(Object.keys(record).sort()).toEqual(
      ['attachedFileGroupName', 'channels', 'entityId', 'entityType', 'fileProperties', 'fileTimeLength', 'lapCount', 'lapElapsedTimes', 'startTime'].sort(),
    );
    expect(Object.keys(record.fileProperties).sort()).toEqual(['carId', 'driverName', 'eventName', 'outingTime', 'runNumber', 'sessionName', 'venueName']);
    expect(record).toMatchObject({ entityId: 'e1', entityType: 'RunSheet', attachedFileGroupName: 'DataFile_Logged', startTime: 0, fileTimeLength: 454, lapCount: 6 });
    expect(record.fileProperties).toMatchObject({ eventName: 'i2 data day', venueName: 'Calder', carId: '11A', runNumber: null });
    // The out-lap to 94.14 s (where Running Lap Time starts), then the flying laps (the logger's Lap Time: 65.15, 63.68,
    // 65.18, 63.75) and the in-lap from 351.94 s to the end, in seconds rounded to the nanosecond.
    expect(record.lapElapsedTimes).toEqual([94.14, 65.17, 63.68, 65.19, 63.76, 102.06]);
    expect(record.channels).toHaveLength(78);
    expect(Object.keys(record.channels[0]).sort()).toEqual(['dataType', 'dimension', 'frequency', 'name', 'sampleCount', 'unit']);
  });
});

describe('a channel read end to end (lazy .ld → stored → JSON and binary)', () => {
  it('when a lap is encoded in binary with raw values, then decoding it gives the JSON records of the same read', async () => {
    const file = await openDataFileFromSource(bytesSource(readFixture('Sample1.ld')));
    const window = resolveScope({ mode: 'lap', lapIndex: 2 }, file);
    const names = ['Engine RPM', 'Ground Speed', 'Susp Pos FL', 'Gyro Yaw Velocity', 'Lap Number'];
    const json: ChannelSeries[] = [];
    const binary: ChannelSeries[] = [];
    for (const name of names) {
      const info = channelFor(file, name);
      const range = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
      const stored = await file.readStored(name, range);
      const physical = physicalChannel(stored);
      const base = { name, unit: stored.unit, frequency: stored.frequency, dimension: 1, startTime: physical.time.kind === 'implicit' ? physical.time.start : 0 };
      json.push({ ...base, samples: physical.samples });
      binary.push({ ...base, ...compactSamples(stored.samples, stored.conversion) });
    }
    expect(binary.some((s) => s.conversion)).toBe(true);
    const body = encodeChannels(binary);
    expect(decodeChannels(body).map(toReadRecord)).toEqual(json.map(toChannelRecord));
    // Raw int16 is a quarter of the float64 the scaled channels would take.
    expect(body.byteLength).toBeLessThan(encodeChannels(json).byteLength);

    const shown = json.map((s) => downsampleSeries(s, { maxPoints: 100, start: window.whole ? undefined : window.start, end: window.whole ? undefined : window.end }));
    for (const s of shown) expect(s.samples.length).toBeLessThanOrEqual(100);
    expect(decodeChannels(encodeChannels(shown)).map(toReadRecord)).toEqual(shown.map(toChannelRecord));
    expect(toChannelRecord(shown[0]).times).toHaveLength(shown[0].samples.length);
  });
});

describe('a per-lap dataset over sources', () => {
  it('when several sources are opened, then they are one lap-set as openDataFile makes of their bytes', async () => {
    const parts = [readFixture('csv_sample.csv'), readFixture('csv_sample.csv')];
    const eager = openDataFile(parts);
    const file = await openDataFileFromSource(parts.map(bytesSource));
    expect(file.format).toBe('lap-set');
    expect(file.laps).toEqual(eager.laps);
    const name = eager.channels[0].name;
    expect(Array.from(physicalChannel(await file.readStored(name)).samples)).toEqual(Array.from(eager.readChannel(name).samples));
  });
});
