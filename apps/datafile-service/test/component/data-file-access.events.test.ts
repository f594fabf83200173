import { tableFromIPC, type Table } from 'apache-arrow';
import { decodeChannelsBody, isEventSeries, toReadRecord, type EventSeries, type ReadSeries } from '@pitwall/client';
import { buildMetadataRecord, openDataFile } from '@pitwall/formats';
import { buildMdf4File, signalDataOffsets } from '@pitwall/formats/testing';
import { fixture } from '../support/fixtures';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Records: the f64 master (0.1 s apart), a 2 × 3 int16 array at byte 8, a 4-byte UTF-8 string at byte 20. */
function arraysFile(): Uint8Array {
  const n = 5;
  const records = new Uint8Array(n * 24);
  const view = new DataView(records.buffer);
  for (let i = 0; i < n; i++) {
    view.setFloat64(i * 24, i / 10, true);
    for (let k = 0; k < 6; k++) view.setInt16(i * 24 + 8 + 2 * k, 10 * i + k, true);
    records.set(new TextEncoder().encode(`m${i}`), i * 24 + 20);
  }
  return buildMdf4File({
    groups: [
      {
        dataBytes: 24,
        cycleCount: n,
        records,
        channels: [
          { name: 'time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'grid', unit: 'bar', dataType: 2, bitCount: 16, byteOffset: 8, array: { shape: [2, 3], stride: 2 } },
          { name: 'note', dataType: 7, bitCount: 32, byteOffset: 20 },
        ],
      },
    ],
  });
}

const MESSAGES = ['Pit this lap', '', 'gap: not read', 'Box, box ñ€ 🏁', 'P3 +1.2'];
const FRAMES = [Uint8Array.of(0x10, 0, 0xff, 7, 1, 2, 3, 4), Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0), Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9), Uint8Array.of(0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3), Uint8Array.of(1, 1, 2, 3, 5, 8, 13, 21)];

/**
 * A logger's outing in two groups: at 10 Hz a VLSD UTF-8 `Message` (driver messages), an 8-byte `CAN 0x101` frame and
 * `Tyre temps`, a 2 × 2 int16 array of 0.1 °C codes (linear conversion), each with an invalidation bit (record 2 of
 * the message, 1 of the frame, 3 of the temperatures are gaps); at 25 Hz a float32 `Speed`.
 */
function outingFile(): Uint8Array {
  const n = 5;
  const encoded = MESSAGES.map((m) => new TextEncoder().encode(m));
  const offsets = signalDataOffsets(encoded);
  const records = new Uint8Array(n * 33);
  const view = new DataView(records.buffer);
  for (let i = 0; i < n; i++) {
    const at = i * 33;
    view.setFloat64(at, i / 10, true);
    view.setBigUint64(at + 8, BigInt(offsets[i] as number), true);
    records.set(FRAMES[i] as Uint8Array, at + 16);
    for (let e = 0; e < 4; e++) view.setInt16(at + 24 + 2 * e, 800 + 10 * i + e, true);
    records[at + 32] = (i === 2 ? 1 : 0) | (i === 1 ? 2 : 0) | (i === 3 ? 4 : 0);
  }
  const m = 13;
  const fast = new Uint8Array(m * 12);
  const fastView = new DataView(fast.buffer);
  for (let i = 0; i < m; i++) {
    fastView.setFloat64(i * 12, i / 25, true);
    fastView.setFloat32(i * 12 + 8, 100 + i / 2, true);
  }
  return buildMdf4File({
    groups: [
      {
        dataBytes: 32,
        invalBytes: 1,
        cycleCount: n,
        records,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'Message', dataType: 7, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: encoded }, invalBitPos: 0 },
          { name: 'CAN 0x101', dataType: 10, bitCount: 64, byteOffset: 16, invalBitPos: 1 },
          { name: 'Tyre temps', unit: 'C', dataType: 2, bitCount: 16, byteOffset: 24, array: { shape: [2, 2], stride: 2 }, conversion: { type: 1, values: [0, 0.1] }, invalBitPos: 2 },
        ],
      },
      {
        dataBytes: 12,
        cycleCount: m,
        records: fast,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'Speed', unit: 'km/h', dataType: 4, bitCount: 32, byteOffset: 8 },
        ],
      },
    ],
  });
}

/** One driver message of `bytes` bytes among two short ones (VLSD): few events, many bytes. */
function hugeMessageFile(bytes: number): Uint8Array {
  const encoded = [new TextEncoder().encode('short'), new TextEncoder().encode('x'.repeat(bytes)), new TextEncoder().encode('short')];
  const offsets = signalDataOffsets(encoded);
  const records = new Uint8Array(3 * 16);
  const view = new DataView(records.buffer);
  for (let i = 0; i < 3; i++) {
    view.setFloat64(i * 16, i / 10, true);
    view.setBigUint64(i * 16 + 8, BigInt(offsets[i] as number), true);
  }
  return buildMdf4File({
    groups: [
      {
        dataBytes: 16,
        cycleCount: 3,
        records,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'Message', dataType: 7, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: encoded } },
        ],
      },
    ],
  });
}

/** READ_SAMPLE_BUDGET of this suite: its reads need a few thousand samples; a text of 200 KB counts 25,000. */
const BUDGET = 20_000;

describe('text, byte and array channels through the gateway (entity-service, datafile-service and gateway in-process)', () => {
  const started = useDatafileStack('datafile-events-', {}, { datafileEnv: { READ_SAMPLE_BUDGET: String(BUDGET) } });
  let strings: string;
  let arrays: string;
  const f12 = fixture('f12_strings_arrays_structs_410.mf4');
  const eager = openDataFile(f12);

  beforeAll(async () => {
    strings = await started.attached.entityWithFile('DataFile', 'f12_strings_arrays_structs_410.mf4', f12);
    arrays = await started.attached.entityWithFile('DataFile', 'arrays.mf4', arraysFile());
  }, 90_000);

  const headers = (extra: Record<string, string> = {}) => ({ ...started.headers, ...extra });
  const get = (path: string, extra?: Record<string, string>) => fetch(`${started.base}${path}`, { headers: headers(extra) });
  const post = (path: string, body: unknown, extra?: Record<string, string>) => fetch(`${started.base}${path}`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json', ...extra }), body: JSON.stringify(body) });
  const dataset = (id: string) => `/RunSheets/${id}/DataFileAccess/DataFile`;
  const json = async (r: Response | Promise<Response>): Promise<Json> => {
    const answer = await r;
    expect(answer.status).toBe(200);
    return answer.json();
  };
  const binary = async (r: Response | Promise<Response>) => {
    const answer = await r;
    expect(answer.status).toBe(200);
    return new Uint8Array(await answer.arrayBuffer());
  };
  const BINARY = { Accept: 'application/x-service-channels' };
  const names = Array.from({ length: 200 }, (_, i) => `s${String(i).padStart(5, '0')}`);

  describe('GET .../metadata', () => {
    test('when a file has strings, a structure and an array, then the catalogue lists each with its kind or its shape', async () => {
      const meta = await json(get(`${dataset(strings)}/metadata`));
      expect(meta).toEqual(buildMetadataRecord({ entityId: strings, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' }, eager));
      expect(meta.channels.find((c: Json) => c.name === 'string_ch')).toEqual({ name: 'string_ch', unit: '', frequency: 10, sampleCount: 200, dimension: 1, dataType: 'string', kind: 'text' });
      expect(meta.channels.find((c: Json) => c.name === 'struct_ch')).toMatchObject({ kind: 'bytes', dataType: 'bytes' });
      expect(meta.channels.find((c: Json) => c.name === 'struct_ch.sx')).toEqual({ name: 'struct_ch.sx', unit: '', frequency: 10, sampleCount: 200, dimension: 1, dataType: 'float64' });
      const other = await json(get(`${dataset(arrays)}/metadata`));
      expect(other.channels.find((c: Json) => c.name === 'grid')).toEqual({ name: 'grid', unit: 'bar', frequency: 10, sampleCount: 5, dimension: 6, dataType: 'int16', shape: [2, 3] });
    });
  });

  describe('GET .../channel', () => {
    test('when a text channel is read in JSON, then the answer is its (time, value) events', async () => {
      const record = await json(get(`${dataset(strings)}/channel?channel=string_ch`));
      expect(record).toEqual({ name: 'string_ch', unit: '', kind: 'text', frequency: 10, times: names.map((_, i) => i / 10), values: names });
    });

    test('when a text channel is read in binary, then the body is layout 2 and decodes to the JSON answer', async () => {
      const body = await binary(get(`${dataset(strings)}/channel?channel=string_ch`, BINARY));
      expect(new DataView(body.buffer).getUint16(4, true)).toBe(2);
      const series = decodeChannelsBody(body);
      expect(isEventSeries(series[0])).toBe(true);
      expect(series.map(toReadRecord)).toEqual([await json(get(`${dataset(strings)}/channel?channel=string_ch`))]);
    });

    test('when a byte channel is read over a window, then the events of [1 s, 1.5 s) come, each in base64', async () => {
      const record = await json(get(`${dataset(strings)}/channel?channel=struct_ch&start=1&duration=0.5`));
      expect(record.kind).toBe('bytes');
      expect(record.times).toEqual([1, 1.1, 1.2, 1.3, 1.4]);
      const raw = eager.readEvents('struct_ch');
      expect(record.values[0]).toBe(Buffer.from(raw.bytes.subarray(raw.offsets[10], raw.offsets[11])).toString('base64'));
    });

    test('when maxPoints is asked of a text channel, then every event comes and the record says maxPoints did not apply', async () => {
      const record = await json(get(`${dataset(strings)}/channel?channel=string_ch&maxPoints=10`));
      expect(record.values).toHaveLength(200);
      expect(record.maxPointsApplied).toBe(false);
      const [series] = decodeChannelsBody(await binary(get(`${dataset(strings)}/channel?channel=string_ch&maxPoints=10`, BINARY))) as EventSeries[];
      expect(series.maxPointsApplied).toBe(false);
      expect(series.times).toHaveLength(200);
    });

    test('when a numeric channel beside the strings is read in binary, then the body is still layout 1', async () => {
      const body = await binary(get(`${dataset(strings)}/channel?channel=plain_next_to_strings`, BINARY));
      expect(new DataView(body.buffer).getUint16(4, true)).toBe(1);
      expect(decodeChannelsBody(body).map(toReadRecord)).toEqual([await json(get(`${dataset(strings)}/channel?channel=plain_next_to_strings`))]);
    });

    test('when a structure field is read, then it is the field\'s numbers', async () => {
      const record = await json(get(`${dataset(strings)}/channel?channel=struct_ch.sy`));
      expect(record.samples).toEqual(Array.from(eager.readChannel('struct_ch.sy').samples));
    });

    test('when an array channel is read, then each sample carries its six values, in JSON and in binary alike', async () => {
      const record = await json(get(`${dataset(arrays)}/channel?channel=grid`));
      expect(record.dimension).toBe(6);
      expect(record.samples).toHaveLength(30);
      expect(record.samples.slice(6, 12)).toEqual([10, 11, 12, 13, 14, 15]);
      expect(decodeChannelsBody(await binary(get(`${dataset(arrays)}/channel?channel=grid`, BINARY))).map(toReadRecord)).toEqual([record]);
      const lapless = await json(get(`${dataset(arrays)}/channel?channel=grid&start=0.2&duration=0.2`));
      expect(lapless.samples).toEqual([20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35]);
      const shown = await json(get(`${dataset(arrays)}/channel?channel=grid&maxPoints=4`));
      expect(shown).toEqual({ ...record, maxPointsApplied: false });
    });
  });

  describe('POST .../channels', () => {
    test('when numbers and text are read in one batch, then each has its record, in JSON and in binary alike', async () => {
      const body = { channels: ['plain_next_to_strings', 'string_ch', 'struct_ch.sx'], mode: 2, startTime: 0, duration: 0.3 };
      const answer = await json(post(`${dataset(strings)}/channels`, body));
      expect(answer.channels.map((c: Json) => c.name)).toEqual(body.channels);
      expect(answer.channels[1]).toEqual({ name: 'string_ch', unit: '', kind: 'text', frequency: 10, times: [0, 0.1, 0.2], values: names.slice(0, 3) });
      expect(answer.channels[0].samples).toEqual(Array.from(eager.readChannel('plain_next_to_strings').samples.slice(0, 3)));
      const decoded = decodeChannelsBody(await binary(post(`${dataset(strings)}/channels`, body, BINARY)));
      expect(decoded.map(toReadRecord)).toEqual(answer.channels);
    });

    test.each([
      ['histogram', { channel: 'string_ch' }, 'channel', 'a text channel'],
      ['scatter', { x: 'plain_next_to_strings', y: 'string_ch' }, 'y', 'a text channel'],
      ['lapstats', { channels: ['plain_next_to_strings', 'string_ch'] }, 'channels[1]', 'a text channel'],
    ])('when %s is asked of a text channel, then 422 naming its field', async (read, body, field, what) => {
      const answer = await post(`${dataset(strings)}/${read}`, body);
      expect(answer.status).toBe(422);
      const problem: Json = await answer.json();
      expect(problem.errors[field]).toEqual([expect.stringMatching(new RegExp(`^must be a channel of one number a sample: string_ch is ${what}`))]);
      expect(problem.detail).toMatch(/^This read takes channels of one number a sample: /);
    });

    test('when a histogram is asked of an array channel, then 422 naming it', async () => {
      const answer = await post(`${dataset(arrays)}/histogram`, { channel: 'grid' });
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as Json).errors).toEqual({ channel: ['must be a channel of one number a sample: grid is an array channel of 6 values a sample'] });
    });

    test('when a text channel of a built file is read with a UTF-8 value, then it reads as written', async () => {
      const answer = await json(post(`${dataset(arrays)}/channels`, { channels: ['note'], mode: 0 }));
      expect(answer.channels[0].values).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    });
  });

  describe('reads that need what the file does not have (arrays.mf4: no number channel but its master, no distance or speed)', () => {
    beforeAll(async () => {
      await defineMathChannel(started, { Name: 'Note x2', Expression: '"note" * 2', Unit: '' });
      await defineMathChannel(started, { Name: 'Grid x2', Expression: '"grid" * 2', Unit: 'bar' });
      await defineMathChannel(started, { Name: 'Lap metres', Expression: 'lapDistance()', Unit: 'm', Rate: '10' });
    });

    test.each([
      ['Note x2', 'math channel Note x2 reads note, which is not a channel of one number a sample'],
      ['Grid x2', 'math channel Grid x2 reads grid, which is not a channel of one number a sample'],
      ['Lap metres', "math channel Lap metres reads lapDistance(), and the file has no distance channel (a name like 'Distance' in m or km) and no speed channel to integrate (a name like 'Speed' in km/h, m/s, mph or knots)"],
    ])('when math channel %s is read, then it is a 422 saying why it cannot be evaluated on this file', async (name, why) => {
      const answer = await get(`${dataset(arrays)}/channel?channel=${encodeURIComponent(name)}`);
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem: Json = await answer.json();
      expect(problem.errors).toEqual({ channel: [why] });
      expect(problem.detail).toContain(why);
    });

    test('when lap statistics ask for sectorStartDistances, then it is a 422 saying the file has no distance or speed channel to time sectors by', async () => {
      const answer = await post(`${dataset(arrays)}/lapstats`, { channels: [], sectorStartDistances: [0, 50] });
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await answer.json()) as Json).detail).toBe(
        `RunSheets ${arrays} dataset 'DataFile' has no distance channel (a name like 'Distance' or 'Lap Distance' in m or km) and no speed channel to integrate (a name like 'Ground Speed' or 'Speed' in km/h, kph, m/s, mph or knots), so its sectors cannot be timed`,
      );
      // Without sectors the same read answers.
      expect((await post(`${dataset(arrays)}/lapstats`, { channels: [] })).status).toBe(200);
    });
  });

  describe('as Arrow (Accept: application/vnd.apache.arrow.stream or application/vnd.apache.arrow.file)', () => {
    const FORMS = ['application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.file'] as const;
    let outing: string;
    let huge: string;
    beforeAll(async () => {
      outing = await started.attached.entityWithFile('DataFile', 'outing.mf4', outingFile());
      huge = await started.attached.entityWithFile('DataFile', 'huge-message.mf4', hugeMessageFile(200_000));
    }, 60_000);

    const arrow = async (r: Response | Promise<Response>, form: string): Promise<Table> => {
      const answer = await r;
      expect({ status: answer.status, type: answer.headers.get('content-type') }).toEqual({ status: 200, type: form });
      return tableFromIPC(new Uint8Array(await answer.arrayBuffer()));
    };
    /** A series's times as every body gives them: its own, or start + i / frequency (the binary body's implicit time). */
    const timesOf = (series: ReadSeries): number[] => {
      if (isEventSeries(series) || series.times) return Array.from(series.times as Float64Array);
      const n = series.samples.length / Math.max(1, series.dimension);
      return Array.from({ length: n }, (_, i) => series.startTime + i / series.frequency);
    };
    /**
     * What the Arrow column of a channel says, as the JSON record says it: from the one batch where it is not all null,
     * its times, and its values (texts; bytes in base64; an array's values one after another, a null list as `dimension`
     * nulls; numbers).
     */
    function asRecord(table: Table, name: string): { times: number[]; values: unknown[] } {
      const batches = table.batches.filter((b) => (b.getChild(name)?.nullCount ?? 0) < b.numRows);
      expect({ name, batches: batches.length }).toEqual({ name, batches: 1 });
      const batch = batches[0] as (typeof batches)[number];
      const field = table.schema.fields.find((f) => f.name === name);
      const dimension = (field?.type as { listSize?: number } | undefined)?.listSize ?? 1;
      const values = [...(batch.getChild(name) ?? [])].flatMap((v: unknown) => {
        if (v instanceof Uint8Array) return [Buffer.from(v).toString('base64')];
        if (v !== null && typeof v === 'object') return Array.from(v as Iterable<number>);
        return v === null && dimension > 1 ? new Array<null>(dimension).fill(null) : [v];
      });
      return { times: Array.from(batch.getChild('time')?.toArray() as Float64Array), values };
    }
    /** The JSON record's own values and times (the times of a regular record from its binary block). */
    async function jsonRecords(id: string, body: { channels: string[]; mode: number; startTime?: number; duration?: number }): Promise<{ name: string; times: number[]; values: unknown[] }[]> {
      const answer = await json(post(`${dataset(id)}/channels`, body));
      const series = decodeChannelsBody(await binary(post(`${dataset(id)}/channels`, body, BINARY)));
      expect(series.map(toReadRecord)).toEqual(answer.channels);
      return answer.channels.map((record: Json, k: number) => ({ name: record.name, times: record.times ?? timesOf(series[k] as ReadSeries), values: record.values ?? record.samples }));
    }

    test('when a text, a byte and an array channel are each read alone as an Arrow stream and file, then each column is the JSON record: same strings, bytes, values, times and gaps', async () => {
      for (const form of FORMS)
        for (const channel of ['Message', 'CAN 0x101', 'Tyre temps']) {
          const [record] = await jsonRecords(outing, { channels: [channel], mode: 0 });
          const table = await arrow(get(`${dataset(outing)}/channel?channel=${encodeURIComponent(channel)}`, { Accept: form }), form);
          expect({ form, channel, ...asRecord(table, channel) }).toEqual({ form, channel, times: record?.times, values: record?.values });
        }
      // What the JSON says, so the comparison above is of the values written: the gaps null, the texts as written, the temperatures converted.
      const [message, frame, temps] = await jsonRecords(outing, { channels: ['Message', 'CAN 0x101', 'Tyre temps'], mode: 0 });
      expect(message?.values).toEqual(MESSAGES.map((m, i) => (i === 2 ? null : m)));
      expect(frame?.values).toEqual(FRAMES.map((f, i) => (i === 1 ? null : Buffer.from(f).toString('base64'))));
      expect(temps?.values.slice(0, 4).map((v) => Math.round((v as number) * 10))).toEqual([800, 801, 802, 803]);
      expect(temps?.values.slice(12, 16)).toEqual([null, null, null, null]);
    });

    test('when they are read in one batch beside a numeric channel of another rate, then text, bytes and arrays share their group\'s batch, the 25 Hz channel has its own, and every column is the JSON record', async () => {
      const body = { channels: ['Speed', 'Message', 'CAN 0x101', 'Tyre temps'], mode: 2, startTime: 0.1, duration: 0.35 };
      const records = await jsonRecords(outing, body);
      for (const form of FORMS) {
        const table = await arrow(post(`${dataset(outing)}/channels`, body, { Accept: form }), form);
        expect(table.schema.fields.map((f) => [f.name, f.type.toString()])).toEqual([
          ['time', 'Float64'],
          ['Speed', 'Float32'],
          ['Message', 'Utf8'],
          ['CAN 0x101', 'Binary'],
          ['Tyre temps', 'FixedSizeList[4]<Float64>'],
        ]);
        expect(table.batches.map((b) => b.numRows)).toEqual([9, 4]);
        for (const record of records) expect({ form, name: record.name, ...asRecord(table, record.name) }).toEqual({ form, ...record });
        const meta = (name: string) => Object.fromEntries(table.schema.fields.find((f) => f.name === name)?.metadata ?? []);
        expect(meta('Message')).toEqual({ unit: '', frequency: '10', dataType: 'string', kind: 'text' });
        expect(meta('CAN 0x101')).toEqual({ unit: '', frequency: '10', dataType: 'bytes', kind: 'bytes' });
        expect(meta('Tyre temps')).toEqual({ unit: 'C', frequency: '10', dataType: 'int16', shape: '[2,2]' });
      }
    });

    test('when a real asammdf file\'s string and structure bytes are read as Arrow, then they are the JSON record\'s, in one batch with the numbers of their group', async () => {
      const body = { channels: ['plain_next_to_strings', 'string_ch', 'struct_ch'], mode: 0 };
      const records = await jsonRecords(strings, body);
      for (const form of FORMS) {
        const table = await arrow(post(`${dataset(strings)}/channels`, body, { Accept: form }), form);
        expect(table.batches.map((b) => b.numRows)).toEqual([200]);
        for (const record of records) expect({ form, name: record.name, ...asRecord(table, record.name) }).toEqual({ form, ...record });
      }
    });

    test('when maxPoints is asked beside text, then the text comes whole and its field says maxPoints did not apply', async () => {
      const table = await arrow(post(`${dataset(strings)}/channels?maxPoints=8`, { channels: ['plain_next_to_strings', 'string_ch'], mode: 0 }, { Accept: FORMS[0] }), FORMS[0]);
      expect(asRecord(table, 'string_ch').values).toEqual(names);
      expect(table.schema.fields.find((f) => f.name === 'string_ch')?.metadata.get('maxPointsApplied')).toBe('false');
      expect(asRecord(table, 'plain_next_to_strings').values.length).toBeLessThanOrEqual(8);
    });

    test('when a text channel\'s values pass READ_SAMPLE_BUDGET at 8 bytes a sample, then Arrow, JSON and binary are refused with the 413 of the numeric reads, naming the budget and the bytes', async () => {
      for (const accept of [...FORMS, 'application/json', 'application/x-service-channels']) {
        const r = await get(`${dataset(huge)}/channel?channel=Message`, { Accept: accept });
        expect({ accept, status: r.status }).toEqual({ accept, status: 413 });
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        const problem: Json = await r.json();
        expect(problem.sampleBudget).toBe(BUDGET);
        // Three events, and their 200,010 bytes at 8 a sample.
        expect(problem.samplesNeeded).toBe(3 + Math.ceil(200_010 / 8));
        expect(problem.errors).toEqual({ channel: [`need ${problem.samplesNeeded} decoded samples, more than the budget of ${BUDGET}`] });
        expect(problem.detail).toContain('a text or byte channel counts a sample for each 8 bytes of its values, 200010 bytes here');
      }
      // A batch naming it twice counts what each copy carries, as a numeric channel's repeats do.
      const twice = await post(`${dataset(huge)}/channels`, { channels: ['Message', 'Message'], mode: 0 }, { Accept: FORMS[1] });
      expect(twice.status).toBe(413);
      expect(((await twice.json()) as Json).samplesNeeded).toBe(6 + Math.ceil((2 * 200_010) / 8));
    });

  });
});
