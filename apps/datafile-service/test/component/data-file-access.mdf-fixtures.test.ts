import { rmSync } from 'node:fs';
import { buildMetadataRecord, openDataFile, sliceByLap, sliceByWindow, type ChannelSlice, type DataFile } from '@pitwall/formats';
import { buildMdf4File } from '@pitwall/formats/testing';
import { fixture } from '../support/fixtures';
import { expectSamples } from '../support/samples';
import { startDatafileStack, type DatafileStack } from '../support/datafile-stack';
import { workspaceTempDir } from '../support/workspace-tmp';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Two channel groups (a float32 pressure at 50 Hz, a uint8 gear at 5 Hz, 4 s each) interleaved behind 1-byte record
 * ids with a VLSD record every third one: the layout of a hardware logger's unsorted file.
 */
function unsortedLoggerFile(): Uint8Array {
  const group = (n: number, rate: number, name: string, write: (view: DataView, at: number, i: number) => void, dataType: number, bitCount: number) => {
    const records = new Uint8Array(n * 12);
    const view = new DataView(records.buffer);
    for (let i = 0; i < n; i++) {
      view.setFloat64(i * 12, i / rate, true);
      write(view, i * 12 + 8, i);
    }
    return { dataBytes: 12, cycleCount: n, records, channels: [{ name: 't', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 }, { name, dataType, bitCount, byteOffset: 8 }] };
  };
  const pressure = group(200, 50, 'Oil Pressure', (view, at, i) => view.setFloat32(at, 3 + Math.sin(i / 7), true), 4, 32);
  const gear = group(20, 5, 'Gear', (view, at, i) => view.setUint8(at, 1 + (i % 6)), 0, 8);
  return buildMdf4File({ groups: [pressure, gear], unsorted: { recordIdSize: 1, vlsd: { every: 3, payloads: [new TextEncoder().encode('box box')] } } });
}

/** The same file as its logger leaves it when the power goes: `UnFinMF`, with the cycle counters flagged as not updated. */
function unfinalised(file: Uint8Array): Uint8Array {
  const bytes = file.slice();
  bytes.set(new TextEncoder().encode('UnFinMF '), 0);
  new DataView(bytes.buffer).setUint16(60, 0x01, true);
  return bytes;
}

/** A slice's samples as a JSON read carries them (null where there is no sample). */
const samplesOf = (slice: Pick<ChannelSlice, 'samples'>) => Array.from(slice.samples, (v) => (Number.isFinite(v) ? v : null));

/** The numeric channels the reader decodes (text, byte and refused channels have reads of their own). */
const numeric = (file: DataFile) => file.channels.filter((c) => !c.kind && !c.unsupported).map((c) => c.name);

/** The least and the greatest of the values that are there (a loop: a spread of 200,000 overflows the stack). */
function extremes(values: readonly (number | null)[]): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  for (const v of values) {
    if (v === null) continue;
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  return [low, high];
}

/** Each sample's time on the file's axis, as the reader gives it. */
function timesOf(slice: ChannelSlice): number[] {
  const { time } = slice;
  return time.kind === 'explicit' ? Array.from(time.timestamps) : Array.from({ length: slice.samples.length }, (_, i) => time.start + i / time.frequency);
}

describe('the MDF fixtures of the formats issue through the gateway (entity-service, datafile-service and gateway in-process)', () => {
  const dir = workspaceTempDir('datafile-mdf-fixtures-');
  let running: DatafileStack | undefined;
  /** The running stack (its gateway's address, the demo account and its uploads). */
  const stack = (): DatafileStack => {
    if (!running) throw new Error('the stack did not start');
    return running;
  };

  beforeAll(async () => {
    running = await startDatafileStack(dir, {});
  }, 90_000);
  afterAll(async () => {
    await running?.stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = (extra: Record<string, string> = {}) => ({ ApiKey: stack().demo.apiKey, AccountId: stack().demo.accountId, ...extra });
  const ok = async (r: Promise<Response>): Promise<Json> => {
    const answer = await r;
    if (answer.status !== 200) throw new Error(`${answer.status}: ${await answer.text()}`);
    return answer.json();
  };
  const get = (path: string) => ok(fetch(`${stack().base}${path}`, { headers: headers() }));
  const post = (path: string, body: unknown) => ok(fetch(`${stack().base}${path}`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(body) }));
  const dataset = (id: string, group: string) => `/RunSheets/${id}/DataFileAccess/${group}`;

  const logger = unsortedLoggerFile();
  const files: [string, Uint8Array][] = [
    ['f03_conversions_410.mf4', fixture('f03_conversions_410.mf4')],
    ['f11_v330.mdf', fixture('f11_v330.mdf')],
    ['f12_strings_arrays_structs_410.mf4', fixture('f12_strings_arrays_structs_410.mf4')],
    ['f14_430_zstd.mf4', fixture('f14_430_zstd.mf4')],
    ['f14_430_transposed_lz4.mf4', fixture('f14_430_transposed_lz4.mf4')],
    ['unsorted.mf4', logger],
    ['unfinalised.mf4', unfinalised(logger)],
  ];

  describe.each(files)('%s on a run sheet', (name, bytes) => {
    const read = openDataFile(bytes);
    const channels = numeric(read);
    const whole = (channel: string) => read.readChannel(channel);
    let id: string;
    beforeAll(async () => {
      id = await stack().attached.entity();
      await stack().attached.attach(id, 'DataFile', name, bytes);
    }, 30_000);

    test('when the metadata is read, then it is the reader\'s catalogue', async () => {
      expect(channels.length).toBeGreaterThan(0);
      const meta = await get(`${dataset(id, 'DataFile')}/metadata`);
      expect(meta).toEqual(buildMetadataRecord({ entityId: id, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' }, read));
    });

    test('when every numeric channel is read whole, one by one and in one batch, then each is the reader\'s samples', async () => {
      const batch = await post(`${dataset(id, 'DataFile')}/channels`, { channels, mode: 0 });
      for (const [k, channel] of channels.entries()) {
        expectSamples(channel, batch.channels[k].samples, samplesOf(whole(channel)));
        const one = await get(`${dataset(id, 'DataFile')}/channel?channel=${encodeURIComponent(channel)}`);
        expectSamples(channel, one.samples, samplesOf(whole(channel)));
      }
    });

    test('when a window inside the file is read, then it is the reader\'s samples of [start, start + duration) after the file\'s start', async () => {
      const start = read.duration / 4;
      const duration = read.duration / 10;
      const batch = await post(`${dataset(id, 'DataFile')}/channels`, { channels, mode: 2, startTime: start, duration });
      for (const [k, channel] of channels.entries()) {
        const expected = samplesOf(sliceByWindow(whole(channel), read.startTime + start, duration));
        expect(expected.length).toBeGreaterThan(0);
        expectSamples(channel, batch.channels[k].samples, expected);
      }
      const one = await get(`${dataset(id, 'DataFile')}/channel?channel=${encodeURIComponent(channels[0])}&start=${start}&duration=${duration}`);
      expectSamples(channels[0], one.samples, samplesOf(sliceByWindow(whole(channels[0]), read.startTime + start, duration)));
    });

    test('when maxPoints is asked, then at most that many of the reader\'s own (time, sample) pairs come, the extremes and both ends among them', async () => {
      const maxPoints = 40;
      for (const channel of channels) {
        const all = sliceByWindow(whole(channel), read.startTime, read.duration + 1);
        const samples = samplesOf(all);
        const times = timesOf(all);
        const record = await get(`${dataset(id, 'DataFile')}/channel?channel=${encodeURIComponent(channel)}&maxPoints=${maxPoints}`);
        expect(record.samples.length).toBeLessThanOrEqual(maxPoints);
        expect(record.times).toHaveLength(record.samples.length);
        expect([channel, ...extremes(record.samples)]).toEqual([channel, ...extremes(samples)]);
        expect([record.samples[0], record.samples.at(-1)]).toEqual([samples[0], samples.at(-1)]);
        expect(record.times[0]).toBeCloseTo(times[0] as number, 9);
        for (const [i, t] of (record.times as number[]).entries()) {
          const at = times.findIndex((s) => Math.abs(s - t) < 1e-9);
          expect([channel, t, at >= 0 ? samples[at] : 'no sample at that time']).toEqual([channel, t, record.samples[i]]);
        }
      }
    });

    test('when the file is attached twice as per-lap files (its laps, as a user gives an MDF file laps), then a lap\'s read is the reader\'s samples of that lap\'s span', async () => {
      const laps = await stack().attached.entity();
      await stack().attached.attach(laps, 'Laps', `lap1-${name}`, bytes);
      await stack().attached.attach(laps, 'Laps', `lap2-${name}`, bytes);
      const joined = openDataFile([bytes, bytes]);
      const meta = await get(`${dataset(laps, 'Laps')}/metadata`);
      expect(meta.lapCount).toBe(2);
      expect(meta.lapElapsedTimes).toEqual([read.duration, read.duration]);
      const batch = await post(`${dataset(laps, 'Laps')}/channels`, { channels, mode: 1, lapIndex: 1 });
      expect(batch.mode).toBe(1);
      for (const [k, channel] of channels.entries()) {
        const lap = sliceByLap(joined.readChannel(channel), joined.laps, 1);
        // The second lap spans [start + duration, start + 2 duration) on the dataset's axis: the file's own samples, shifted.
        expect(joined.laps[1]).toMatchObject({ startTime: read.startTime + read.duration, endTime: read.startTime + 2 * read.duration });
        expectSamples(channel, samplesOf(lap), samplesOf(whole(channel)));
        expectSamples(channel, batch.channels[k].samples, samplesOf(lap));
      }
      const one = await get(`${dataset(laps, 'Laps')}/channel?channel=${encodeURIComponent(channels[0])}&lapIndex=1`);
      expectSamples(channels[0], one.samples, samplesOf(whole(channels[0])));
      // Both laps hold the same samples: the times a display-sized read carries say it is the second lap's.
      const lapTimes = timesOf(sliceByLap(joined.readChannel(channels[0]), joined.laps, 1));
      const shaped = await get(`${dataset(laps, 'Laps')}/channel?channel=${encodeURIComponent(channels[0])}&lapIndex=1&maxPoints=40`);
      expect(shaped.times[0]).toBeCloseTo(lapTimes[0] as number, 9);
      expect(shaped.times.at(-1)).toBeCloseTo(lapTimes.at(-1) as number, 9);
      expect(shaped.times[0]).toBeGreaterThanOrEqual(read.startTime + read.duration);
      // The two f14 files (200,000 samples a channel, every channel of both laps compared sample by sample) take about
      // 1 s here at a load of 7: room for a loaded CI machine, as no time is asserted.
    }, 120_000);
  });
});
