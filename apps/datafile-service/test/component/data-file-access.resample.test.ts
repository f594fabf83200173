import { tableFromIPC } from 'apache-arrow';
import { decodeChannels, physicalSamples, type ChannelSeries } from '@pitwall/channels';
import { PitwallClient } from '@pitwall/client';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ARROW = 'application/vnd.apache.arrow.stream';

/**
 * `rate`: every channel of a read interpolated onto one time base (docs/api.md), so an Arrow read of channels logged at
 * several rates is one record batch, a data frame without holes. Checked against an independent interpolation of the
 * full-resolution JSON read of the same lap.
 */
describe('channel reads resampled onto one time base (?rate=)', () => {
  const started = useDatafileStack('datafile-resample-', {});
  let runSheet: string;
  let withText: string;
  const channels = ['G Force Lat', 'Throttle Pos', 'Gear'];

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld'));
    withText = await started.attached.entityWithFile('DataFile', 'f12_strings_arrays_structs_410.mf4', fixture('f12_strings_arrays_structs_410.mf4'));
  }, 90_000);

  const post = (body: unknown, query = '', accept?: string, id = runSheet) =>
    fetch(`${started.base}/RunSheets/${id}/DataFileAccess/DataFile/channels${query}`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', ...(accept ? { Accept: accept } : {}) }, body: JSON.stringify(body) });

  /** The value at a time of a full-resolution series: linear between the samples around it, held for `held`; null outside. */
  function interpolation(series: ChannelSeries, held: boolean): (t: number) => number | null {
    const values = physicalSamples(series);
    const times = Array.from(values, (_, i) => series.startTime + i / series.frequency);
    return (t) => {
      // The last sample at or before t (the times ascend): j, -1 when there is none.
      let after = 0;
      for (let before = times.length; after < before; ) {
        const mid = (after + before) >>> 1;
        if ((times[mid] as number) <= t + 1e-12) after = mid + 1;
        else before = mid;
      }
      const j = after - 1;
      if (j < 0) return null;
      const a = values[j] as number;
      if (Math.abs((times[j] as number) - t) < 1e-12) return a;
      if (j + 1 >= times.length) return held && t - (times[j] as number) < 1 / series.frequency ? a : null;
      const b = values[j + 1] as number;
      return held ? a : a + ((b - a) * (t - (times[j] as number))) / ((times[j + 1] as number) - (times[j] as number));
    };
  }

  test('when a lap of channels at 20, 5 and 10 Hz is read as Arrow at rate 50, then it is one batch: time every 20 ms from the lap\'s start, each column the whole file interpolated there (gear held), no gap at the lap\'s ends', async () => {
    // The whole file at full resolution in the binary body (it carries each channel's start time): the samples around
    // the lap's first and last points are outside the lap.
    const full = decodeChannels(await (await post({ channels, mode: 0 }, '', 'application/x-service-channels')).arrayBuffer()) as ChannelSeries[];
    const r = await post({ channels, mode: 1, lapIndex: 2 }, '?rate=50', ARROW);
    expect(r.status).toBe(200);
    const table = tableFromIPC(new Uint8Array(await r.arrayBuffer()));
    expect(table.batches).toHaveLength(1);
    expect(Object.fromEntries(table.schema.metadata)).toMatchObject({ rate: '50' });
    const times = Array.from(table.getChild('time')?.toArray() as Float64Array);
    // The lap's line and length, from the metadata: its start is the laps' before it, from the file's start.
    const metadata: Json = await (await fetch(`${started.base}/RunSheets/${runSheet}/DataFileAccess/DataFile/metadata`, { headers: started.headers })).json();
    const lapStart = metadata.startTime + metadata.lapElapsedTimes.slice(0, 2).reduce((a: number, b: number) => a + b, 0);
    const lapTime = metadata.lapElapsedTimes[2];
    expect(times[0]).toBeCloseTo(lapStart, 9);
    expect(times.length).toBe(Math.ceil(lapTime * 50 - 1e-9));
    times.forEach((t, k) => expect(t).toBeCloseTo(lapStart + k / 50, 9));
    for (const name of channels) {
      const record = full.find((c) => c.name === name) as ChannelSeries;
      const column = [...(table.getChild(name) ?? [])].map((v) => (v === null ? null : Number(v)));
      // The file has samples on both sides of the lap: no point of it is a gap, its ends included.
      expect(column.filter((v) => v === null)).toEqual([]);
      const at = interpolation(record, name === 'Gear');
      const expected = times.map((t) => at(t));
      column.forEach((v, k) => {
        const e = expected[k] as number | null;
        if (e === null ? v !== null : v === null || Math.abs(v - e) > 1e-9 * Math.max(1, Math.abs(e))) expect({ name, t: times[k], v }).toEqual({ name, t: times[k], v: e });
      });
      // Float64 of the physical values; no stored conversion to apply.
      const field = table.schema.fields.find((f) => f.name === name);
      expect(field?.type.toString()).toBe('Float64');
      expect(field?.metadata.has('conversion')).toBe(false);
      expect(field?.metadata.get('frequency')).toBe('50');
    }
  });

  test('when the TypeScript client reads a batch as Arrow with a rate, then it sends the rate and reads one batch back', async () => {
    const client = new PitwallClient({ baseUrl: started.base, apiKey: started.demo.apiKey, accountId: started.demo.accountId });
    const bytes = (await client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels, mode: 0 }, { arrow: true, rate: 5 })).returnValue as Uint8Array;
    const table = tableFromIPC(bytes);
    expect(table.batches).toHaveLength(1);
    // The time column, then the three channels at the rate.
    expect(table.schema.fields.map((f) => f.metadata.get('frequency'))).toEqual([undefined, '5', '5', '5']);
  });

  test('when JSON and the binary body are read at a rate, then every record is regular at that rate from the scope\'s start, as many points as fit', async () => {
    const json: Json = await (await post({ channels, mode: 2, startTime: 100.005, duration: 2 }, '?rate=10')).json();
    for (const record of json.channels) expect({ name: record.name, frequency: record.frequency, points: record.samples.length, gaps: record.samples.filter((v: unknown) => v === null).length }).toEqual({ name: record.name, frequency: 10, points: 20, gaps: 0 });
    // A window shorter than the channels' periods: every point between two samples outside it.
    const narrow: Json = await (await post({ channels, mode: 2, startTime: 100.005, duration: 0.05 }, '?rate=100')).json();
    for (const record of narrow.channels) expect({ name: record.name, samples: record.samples.filter((v: unknown) => v === null) }).toEqual({ name: record.name, samples: [] });
    const binary = await post({ channels, mode: 2, startTime: 100.005, duration: 2 }, '?rate=10', 'application/x-service-channels');
    expect(binary.status).toBe(200);
  });

  test('when a window\'s grid points fall on samples, then each takes that sample\'s value exactly: the gear it changed to, the logged number with no rounding off it', async () => {
    // Sample1's Gear (5 Hz) goes from 4 to 2 at its sample of 200.2 s; read in a window from 199.9 s at 100 Hz.
    const whole: Json = await (await post({ channels: ['Gear', 'Throttle Pos'], mode: 0 })).json();
    // The JSON record has no start time: Sample1's channels start at 0 s, and a rate read's grid at the window's start.
    const logged = (name: string, t: number) => {
      const record = whole.channels.find((c: Json) => c.name === name);
      const i = Math.round(t * record.frequency);
      expect(Math.abs(i / record.frequency - t)).toBeLessThan(1e-9);
      return record.samples[i] as number;
    };
    const read: Json = await (await post({ channels: ['Gear', 'Throttle Pos'], mode: 2, startTime: 199.9, duration: 1 }, '?rate=100')).json();
    for (const record of read.channels) {
      const period = 1 / whole.channels.find((c: Json) => c.name === record.name).frequency;
      for (let k = 0; k < record.samples.length; k++) {
        const t = 199.9 + k / record.frequency;
        const onSample = Math.abs(Math.round(t / period) * period - t) < 1e-9;
        if (onSample) expect({ name: record.name, t, value: record.samples[k] }).toEqual({ name: record.name, t, value: logged(record.name, t) });
      }
    }
    expect(logged('Gear', 200.2)).not.toBe(logged('Gear', 200));
  });

  test('when rate comes with maxPoints, is not a number of Hz from 0.001 to 1000000, names a text channel, or would need more samples than the budget, then a 400 or a 413 names it', async () => {
    const problem = async (r: Response, status: number) => {
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      return r.json() as Promise<Json>;
    };
    expect((await problem(await post({ channels, mode: 0 }, '?rate=10&maxPoints=100'), 400)).errors).toEqual({ rate: ['rate and maxPoints do not go together: a rate sets how many points a channel has'] });
    for (const bad of ['0', '-5', 'fast', '2000000']) expect(Object.keys((await problem(await post({ channels, mode: 0 }, `?rate=${bad}`), 400)).errors)).toEqual(['rate']);
    const text = await problem(await post({ channels: ['plain_next_to_strings', 'string_ch'], mode: 0 }, '?rate=10', undefined, withText), 400);
    expect(text.errors).toEqual({ 'channels[1]': ['cannot be resampled: string_ch is a text channel (events)'] });
    const over = await problem(await post({ channels, mode: 0 }, '?rate=1000000'), 413);
    expect(over.detail).toContain('READ_SAMPLE_BUDGET');
    // The points a rate makes are most of what it needs: the refusal offers a lower rate, with what this one made.
    expect(over.detail).toMatch(/, or a lower rate \(rate=1000000 makes \d+ points of them\)/);
  });
});
