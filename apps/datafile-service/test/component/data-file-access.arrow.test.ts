import { RecordBatchFileReader, tableFromIPC, type RecordBatch, type Table } from 'apache-arrow';
import { PitwallClient } from '@pitwall/client';
import { openDataFile } from '@pitwall/formats';
import { buildMdf4File } from '@pitwall/formats/testing';
import { fixture } from '../support/fixtures';
import { busReplies, defineMathChannel, useDatafileStack } from '../support/datafile-stack';
import { expectSamples } from '../support/samples';

const ARROW = 'application/vnd.apache.arrow.stream';
const ARROW_FILE = 'application/vnd.apache.arrow.file';
interface JsonRecord {
  name: string;
  unit: string;
  frequency: number;
  samples: (number | null)[];
  times?: number[];
}

/**
 * The channel reads as an Arrow IPC stream (`Accept: application/vnd.apache.arrow.stream`), through the gateway: by
 * claim when large (CLAIM_INLINE_MAX_BYTES 4 KiB here, redeemed over HTTP), read back with apache-arrow and compared
 * value for value with the JSON answer of the same read.
 */
describe('channel reads as Arrow (POST .../channels and GET .../channel)', () => {
  const started = useDatafileStack('datafile-arrow-', { URL_SIGNING_SECRET: 'datafile-arrow-test-secret', CLAIM_SECRET: 'datafile-arrow-shared-secret', CLAIM_IN_PROCESS: 'false', DATAFILE_RESULT_CACHE_BYTES: '0' }, { datafileEnv: { CLAIM_INLINE_MAX_BYTES: '4096', ARROW_MAX_BATCH_COLUMNS: '2000' } });
  let runSheet: string;
  const sample1 = fixture('Sample1.ld');
  const eager = openDataFile(sample1);
  const names = eager.channels.map((c) => c.name);

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
  }, 90_000);

  const dataset = (id = runSheet) => `/RunSheets/${id}/DataFileAccess/DataFile`;
  // The identity transfer (its Content-Length, its chunks) is what these reads check: asked for it, as fetch would send gzip
  // (compressed answers: data-file-access.compression.test.ts).
  const post = (body: unknown, accept?: string, id?: string) => fetch(`${started.base}${dataset(id)}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity', ...(accept ? { Accept: accept } : {}) }, body: JSON.stringify(body) });

  /** A channel's values and times as the stream carries them: from the one batch where its column is not all null. */
  function columnOf(table: Table, name: string): { samples: (number | null)[]; times: number[] } {
    const batches = table.batches.filter((b) => {
      const column = b.getChild(name);
      return column !== null && (column.nullCount < b.numRows || b.numRows === 0);
    });
    expect(batches).toHaveLength(1);
    const batch = batches[0] as (typeof batches)[number];
    return { samples: [...(batch.getChild(name) ?? [])].map((v) => (v === null ? null : Number(v))), times: Array.from(batch.getChild('time')?.toArray() as Float64Array) };
  }

  test('when a whole-file batch of every channel is read as Arrow, then it comes by claim with its Content-Length, one batch per rate, each column the JSON record\'s values', async () => {
    let bytes!: Uint8Array;
    const replies = await busReplies(started.stack, async () => {
      const r = await post({ channels: names, mode: 0 }, ARROW);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(ARROW);
      bytes = new Uint8Array(await r.arrayBuffer());
      expect(r.headers.get('content-length')).toBe(String(bytes.byteLength));
    });
    expect(replies[0]?.claim).toMatchObject({ contentType: ARROW, length: bytes.byteLength });
    const asJson = (await (await post({ channels: names, mode: 0 })).json()) as { channels: JsonRecord[] };
    const table = tableFromIPC(bytes);
    expect(table.schema.fields.map((f) => f.name)).toEqual(['time', ...names]);
    const rates = new Set(eager.channels.map((c) => c.frequency));
    expect(rates.size).toBeGreaterThan(1);
    expect(table.batches).toHaveLength(rates.size);
    const metadata = Object.fromEntries(table.schema.metadata);
    expect(metadata).toMatchObject({ entityType: 'RunSheets', entityId: runSheet, attachedFileGroupName: 'DataFile', format: 'motec-ld', mode: '0', scope: '{"mode":"file"}', channels: JSON.stringify(names) });
    for (const record of asJson.channels) {
      const field = table.schema.fields.find((f) => f.name === record.name);
      expect(field?.metadata.get('unit')).toBe(record.unit);
      expect(Number(field?.metadata.get('frequency'))).toBe(record.frequency);
      const { samples, times } = columnOf(table, record.name);
      expectSamples(record.name, samples, record.samples);
      const time = eager.readChannel(record.name).time;
      if (time.kind === 'implicit') expect(times[1]).toBeCloseTo(time.start + 1 / time.frequency, 9);
    }
    // A scaled .ld channel says its conversion; its column is float64 of the physical values.
    expect(table.schema.fields.some((f) => f.metadata.has('conversion') && f.type.toString() === 'Float64')).toBe(true);
    // Every channel of Sample1 read three ways and compared value by value: seconds on a loaded machine.
  }, 30_000);

  test('when the client reads a lap of a channel, a window and a display-sized batch as Arrow, then each equals its JSON read, times included', async () => {
    const client = new PitwallClient({ baseUrl: started.base, apiKey: started.demo.apiKey, accountId: started.demo.accountId });
    const lapJson = (await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Engine RPM', { lapIndex: 1 })).returnValue as JsonRecord;
    const lap = await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Engine RPM', { lapIndex: 1, arrow: true });
    expect(lap.statusCode).toBe(200);
    const lapTable = tableFromIPC(lap.returnValue as Uint8Array);
    expect(columnOf(lapTable, 'Engine RPM').samples).toEqual(lapJson.samples);
    expect(lapTable.schema.metadata.get('scope')).toBe('{"mode":"lap","lapIndex":1}');
    // A window from a start to the end of the file (no duration asked) names no duration.
    const toTheEnd = await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Engine RPM', { start: 300, arrow: true });
    expect(tableFromIPC(toTheEnd.returnValue as Uint8Array).schema.metadata.get('scope')).toBe('{"mode":"window","start":300}');

    const two = ['Ground Speed', 'Engine RPM'];
    const windowBody = { channels: two, mode: 2 as const, startTime: 30, duration: 4 };
    const windowJson = (await client.getRunSheetDataFileChannels(runSheet, 'DataFile', windowBody)).returnValue as { channels: JsonRecord[] };
    const windowTable = tableFromIPC((await client.getRunSheetDataFileChannels(runSheet, 'DataFile', windowBody, { arrow: true })).returnValue as Uint8Array);
    for (const record of windowJson.channels) expect(columnOf(windowTable, record.name).samples).toEqual(record.samples);

    // maxPoints: M4 points at their own times, each channel a batch of its own.
    const shownJson = (await client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: two, mode: 0 }, { maxPoints: 100 })).returnValue as { channels: JsonRecord[] };
    const shown = tableFromIPC((await client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: two, mode: 0 }, { maxPoints: 100, arrow: true })).returnValue as Uint8Array);
    expect(shown.schema.metadata.get('maxPoints')).toBe('100');
    for (const record of shownJson.channels) {
      const { samples, times } = columnOf(shown, record.name);
      expect(samples.length).toBeLessThanOrEqual(100);
      expect(samples).toEqual(record.samples);
      expect(times).toEqual(record.times);
    }
  });

  test('when a display-sized read of every channel as Arrow would be more batch columns than ARROW_MAX_BATCH_COLUMNS, then it is a 413 naming it, and JSON or one rate reads it', async () => {
    // maxPoints gives each channel times of its own: 78 batches, each of the time and 78 columns (77 of them null).
    const shown = (accept: string, query = 'maxPoints=100') => fetch(`${started.base}${dataset()}/channels?${query}`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', Accept: accept }, body: JSON.stringify({ channels: names, mode: 0 }) });
    const refused = await shown(ARROW);
    expect({ status: refused.status, type: refused.headers.get('content-type') }).toEqual({ status: 413, type: 'application/problem+json; charset=utf-8' });
    const problem = (await refused.json()) as { detail: string; errors: Record<string, string[]>; arrowMaxBatchColumns: number; arrowBatchColumns: number };
    expect(problem.detail).toMatch(/^This read as Arrow is \d+ record batches \(one per time base\) of 79 columns each, \d+ batch columns, more than ARROW_MAX_BATCH_COLUMNS \(2000\) allows one answer/);
    expect(problem.errors['channels']?.[0]).toMatch(/record batches of 79 columns are \d+ batch columns, more than ARROW_MAX_BATCH_COLUMNS \(2000\)$/);
    expect(problem.arrowMaxBatchColumns).toBe(2000);
    expect(problem.arrowBatchColumns).toBeGreaterThan(2000);
    expect((await shown(ARROW_FILE)).status).toBe(413);
    // The ways out the detail names: JSON of the same read, or one time base for every channel.
    expect((await shown('application/json')).status).toBe(200);
    const oneRate = await shown(ARROW, 'rate=10');
    expect(oneRate.status).toBe(200);
    expect(tableFromIPC(new Uint8Array(await oneRate.arrayBuffer())).batches).toHaveLength(1);
  });

  test('when a batch names a channel twice, then the stream has it as one column', async () => {
    const r = await post({ channels: ['Engine RPM', 'Ground Speed', 'Engine RPM'], mode: 1, lapIndex: 0 }, ARROW);
    expect(r.status).toBe(200);
    expect(tableFromIPC(new Uint8Array(await r.arrayBuffer())).schema.fields.map((f) => f.name)).toEqual(['time', 'Engine RPM', 'Ground Speed']);
  });

  test('when the columns of an irregular CSV are read as Arrow, then they share one batch and its time column, each the JSON record\'s values', async () => {
    // Irregular times (rows 0.1 s apart but one 0.35 s): each channel carries its own copy of them.
    const csv = 'Time,A,B,C\n0,1,10,100\n0.1,2,,200\n0.45,3,30,300\n0.55,4,40,\n0.65,5,50,500\n';
    const id = await started.attached.entityWithFile('DataFile', 'irregular.csv', new TextEncoder().encode(csv));
    const body = { channels: ['A', 'B', 'C'], mode: 0 };
    const json = (await (await post(body, undefined, id)).json()) as { channels: JsonRecord[] };
    expect(json.channels.every((c) => c.times !== undefined)).toBe(true);
    const table = tableFromIPC(new Uint8Array(await (await post(body, ARROW, id)).arrayBuffer()));
    expect(table.batches).toHaveLength(1);
    expect(table.numRows).toBe(5);
    for (const record of json.channels) {
      const { samples, times } = columnOf(table, record.name);
      expect(samples).toEqual(record.samples);
      expect(times).toEqual(record.times);
    }
  });

  describe('as an Arrow IPC file (Accept: application/vnd.apache.arrow.file)', () => {
    const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());
    /** The file is the stream's messages, byte for byte, after the 8 bytes of `ARROW1` and padding; it ends with `ARROW1`. */
    function expectFileOf(file: Uint8Array, stream: Uint8Array): void {
      expect(Buffer.from(file.subarray(0, 8)).toString('latin1')).toBe('ARROW1\0\0');
      expect(Buffer.from(file.subarray(8, 8 + stream.byteLength)).equals(Buffer.from(stream))).toBe(true);
      expect(Buffer.from(file.subarray(file.byteLength - 6)).toString('latin1')).toBe('ARROW1');
    }
    /** A record batch of the file reached through its footer's block (random access), as apache-arrow reads it. */
    function batchOfFile(file: Uint8Array, k: number): { count: number; batch: RecordBatch | null } {
      const reader = RecordBatchFileReader.from(file);
      reader.open();
      return { count: reader.numRecordBatches, batch: reader.readRecordBatch(k) as RecordBatch | null };
    }

    test('when a whole-file batch of every channel is read as an Arrow file, then it comes by claim with its exact Content-Length, the stream\'s messages in a file whose footer reaches each batch, a channel of each rate the JSON record\'s values', async () => {
      let file!: Uint8Array;
      const replies = await busReplies(started.stack, async () => {
        const r = await post({ channels: names, mode: 0 }, ARROW_FILE);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe(ARROW_FILE);
        file = await bytesOf(r);
        expect(r.headers.get('content-length')).toBe(String(file.byteLength));
      });
      expect(replies[0]?.claim).toMatchObject({ contentType: ARROW_FILE, length: file.byteLength });
      const stream = await bytesOf(await post({ channels: names, mode: 0 }, ARROW));
      expectFileOf(file, stream);
      const table = tableFromIPC(file);
      expect(table.schema.fields.map((f) => f.name)).toEqual(['time', ...names]);
      expect(Object.fromEntries(table.schema.metadata)).toEqual(Object.fromEntries(tableFromIPC(stream).schema.metadata));
      const asJson = (await (await post({ channels: names, mode: 0 })).json()) as { channels: JsonRecord[] };
      // A channel of each rate, each batch's values checked (the stream's test checks every channel against JSON, and the file carries its bytes).
      const oneOfEachRate = [...new Map(asJson.channels.map((record) => [record.frequency, record])).values()];
      expect(oneOfEachRate).toHaveLength(table.batches.length);
      for (const record of oneOfEachRate) expectSamples(record.name, columnOf(table, record.name).samples, record.samples);
      // The footer's last block is the stream's last batch.
      const streamed = tableFromIPC(stream).batches;
      const { count, batch } = batchOfFile(file, streamed.length - 1);
      expect(count).toBe(streamed.length);
      const last = streamed.at(-1) as RecordBatch;
      expect(batch?.numRows).toBe(last.numRows);
      // Its columns' values and validity, byte for byte.
      const bytesOfColumn = (b: RecordBatch | null | undefined, name: string) => {
        const data = b?.getChild(name)?.data[0];
        return [data?.values, data?.nullBitmap].map((a) => (a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64') : null));
      };
      for (const field of table.schema.fields) expect({ field: field.name, bytes: bytesOfColumn(batch, field.name) }).toEqual({ field: field.name, bytes: bytesOfColumn(last, field.name) });
    }, 30_000);

    test('when a short read is asked as an Arrow file, then the small answer crosses the bus inline, with its length, and reads as the stream and the JSON do', async () => {
      const path = `${started.base}${dataset()}/channel?channel=Engine%20RPM&lapIndex=1&maxPoints=16`;
      let file!: Uint8Array;
      const replies = await busReplies(started.stack, async () => {
        const r = await fetch(path, { headers: { ...started.headers, Accept: ARROW_FILE, 'Accept-Encoding': 'identity' } });
        expect(r.headers.get('content-type')).toBe(ARROW_FILE);
        file = await bytesOf(r);
        expect(r.headers.get('content-length')).toBe(String(file.byteLength));
      });
      expect(replies[0]?.claim).toBeUndefined();
      const stream = await bytesOf(await fetch(path, { headers: { ...started.headers, Accept: ARROW } }));
      expectFileOf(file, stream);
      const json = (await (await fetch(path, { headers: started.headers })).json()) as JsonRecord;
      expect(columnOf(tableFromIPC(file), 'Engine RPM')).toEqual({ samples: json.samples, times: json.times });
      expect(batchOfFile(file, 0).batch?.numRows).toBe(json.samples.length);
    });

    test('when laps, windows, maxPoints, a rate and a math channel are read as an Arrow file, then each is its stream\'s read in a file', async () => {
      await defineMathChannel(started, { Name: 'Speed ms arrow', Expression: '"Ground Speed" / 3.6', Unit: 'm/s' });
      const two = ['Ground Speed', 'Engine RPM'];
      const reads: { what: string; send: (accept: string) => Promise<Response> }[] = [
        { what: 'a lap of a channel', send: (accept) => fetch(`${started.base}${dataset()}/channel?channel=Engine%20RPM&lapIndex=2`, { headers: { ...started.headers, Accept: accept } }) },
        { what: 'a window of a batch', send: (accept) => post({ channels: two, mode: 2, startTime: 30, duration: 4 }, accept) },
        { what: 'a display-sized batch', send: (accept) => fetch(`${started.base}${dataset()}/channels?maxPoints=100`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', Accept: accept }, body: JSON.stringify({ channels: two, mode: 0 }) }) },
        { what: 'a lap at a rate', send: (accept) => fetch(`${started.base}${dataset()}/channels?rate=50`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', Accept: accept }, body: JSON.stringify({ channels: [...two, 'Gear'], mode: 1, lapIndex: 1 }) }) },
        { what: 'a math channel beside a logged one', send: (accept) => post({ channels: ['Speed ms arrow', 'Ground Speed'], mode: 1, lapIndex: 1 }, accept) },
      ];
      for (const { what, send } of reads) {
        const asFile = await send(ARROW_FILE);
        expect({ what, status: asFile.status, type: asFile.headers.get('content-type') }).toEqual({ what, status: 200, type: ARROW_FILE });
        const file = await bytesOf(asFile);
        const stream = await bytesOf(await send(ARROW));
        expectFileOf(file, stream);
        const fromFile = tableFromIPC(file);
        const fromStream = tableFromIPC(stream);
        expect(fromFile.batches.map((b) => b.numRows)).toEqual(fromStream.batches.map((b) => b.numRows));
        for (const field of fromStream.schema.fields) expect([...(fromFile.getChild(field.name) ?? [])]).toEqual([...(fromStream.getChild(field.name) ?? [])]);
      }
    }, 30_000);
  });

  describe('a file with a channel named `time` and a text conversion', () => {
    let id: string;
    beforeAll(async () => {
      id = await started.attached.entityWithFile('DataFile', 'labels.mf4', mdfWithTimeAndGear());
    });

    test('when a text conversion\'s channel is read as Arrow, then its codes come with their labels in the field metadata', async () => {
      const asJson = (await (await post({ channels: ['Gear'], mode: 0 }, undefined, id)).json()) as { channels: JsonRecord[] };
      const table = tableFromIPC(new Uint8Array(await (await post({ channels: ['Gear'], mode: 0 }, ARROW, id)).arrayBuffer()));
      expect(columnOf(table, 'Gear').samples).toEqual(asJson.channels[0]?.samples);
      const field = table.schema.fields[1];
      expect(JSON.parse(field?.metadata.get('labels') ?? 'null')).toEqual([
        { min: 1, max: 1, text: 'first' },
        { min: 2, max: 2, text: 'second' },
      ]);
      expect(field?.metadata.get('defaultLabel')).toBe('neutral');
      expect(table.schema.metadata.get('format')).toBe('mdf4');
    });

    test('when a read as Arrow names the channel `time`, then 406 names it, and JSON and the binary body still read it', async () => {
      const batch = await post({ channels: ['Gear', 'time'], mode: 0 }, ARROW, id);
      expect(batch.status).toBe(406);
      expect(batch.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await batch.json()) as { detail: string; errors: Record<string, string[]> };
      expect(problem.errors).toEqual({ 'channels[1]': ['cannot be an Arrow column: time is the name of the time column; read it as JSON or the binary body'] });
      expect(problem.detail).toBe("The read cannot be answered as an Arrow stream: channels[1] time is named like the Arrow stream's time column");
      const one = await fetch(`${started.base}${dataset(id)}/channel?channel=time`, { headers: { ...started.headers, Accept: ARROW } });
      expect(one.status).toBe(406);
      expect(((await one.json()) as { errors: unknown }).errors).toEqual({ channel: [expect.stringContaining('time column')] });
      const asFile = await post({ channels: ['Gear', 'time'], mode: 0 }, ARROW_FILE, id);
      expect(asFile.status).toBe(406);
      expect(((await asFile.json()) as { detail: string }).detail).toBe("The read cannot be answered as an Arrow file: channels[1] time is named like the Arrow file's time column");
      expect((await post({ channels: ['Gear', 'time'], mode: 0 }, undefined, id)).status).toBe(200);
      expect((await post({ channels: ['Gear', 'time'], mode: 0 }, 'application/x-service-channels', id)).status).toBe(200);
    });
  });
});

/** Four records: the master Time, a float32 channel named `time`, and an 8-bit Gear whose value-to-text conversion labels 1 and 2. */
function mdfWithTimeAndGear(): Uint8Array {
  const records = new Uint8Array(4 * 13);
  const view = new DataView(records.buffer);
  for (let i = 0; i < 4; i++) {
    view.setFloat64(i * 13, i / 10, true);
    view.setFloat32(i * 13 + 8, 100 + i, true);
    view.setUint8(i * 13 + 12, i % 3);
  }
  return buildMdf4File({
    groups: [
      {
        dataBytes: 13,
        cycleCount: 4,
        records,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'time', unit: 's', dataType: 4, bitCount: 32, byteOffset: 8 },
          { name: 'Gear', dataType: 0, bitCount: 8, byteOffset: 12, conversion: { type: 7, values: [1, 2], texts: ['first', 'second', 'neutral'] } },
        ],
      },
    ],
  });
}
