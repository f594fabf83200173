import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeChannelsBody, PitwallClient, toChannelRecord, toReadRecord, type ChannelSeries } from '@pitwall/client';
import { z } from 'zod';
import { ChannelRecordJson, ChannelsReadJson, DataFileMetadataJson, LapDeltaJson, LapDistanceJson } from '@pitwall/contracts';
import { buildMetadataRecord, openDataFile, sliceByLap, sliceByWindow } from '@pitwall/formats';
import { buildMdf3File, buildMdf4File } from '@pitwall/formats/testing';
import { fixture, SAMPLE1_LDX } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

const root = join(__dirname, '..', '..', '..', '..');

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const json = async (r: Response | Promise<Response>): Promise<Json> => (await r).json();

describe('data file access through the gateway (entity-service, datafile-service and gateway in-process)', () => {
  // With a user of another account, with datasets of its own the demo user must not see.
  const started = useDatafileStack('datafile-http-', { URL_SIGNING_SECRET: 'datafile-http-test-secret' }, { outsider: true });
  let runSheet: string;
  const sample1 = fixture('Sample1.ld');
  const eager = openDataFile(sample1);

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
  }, 90_000);

  const headers = (extra: Record<string, string> = {}) => ({ ...started.headers, ...extra });
  const get = (path: string, extra?: Record<string, string>) => fetch(`${started.base}${path}`, { headers: headers(extra) });
  const post = (path: string, body: unknown, extra?: Record<string, string>) => fetch(`${started.base}${path}`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json', ...extra }), body: JSON.stringify(body) });
  const dataset = (id = runSheet, group = 'DataFile', type = 'RunSheets') => `/${type}/${id}/DataFileAccess/${encodeURIComponent(group)}`;
  const physical = (name: string) => Array.from(eager.readChannel(name).samples);

  describe('GET .../metadata', () => {
    test('when a RunSheet has a .ld in the group, then every field of the metadata record is the file\'s', async () => {
      const r = await get(`${dataset()}/metadata`);
      expect(r.status).toBe(200);
      const body = await json(r);
      expect(body).toEqual(buildMetadataRecord({ entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' }, eager));
      expect(body.lapCount).toBeGreaterThan(1);
      expect(body.channels.find((c: { name: string }) => c.name === 'Engine RPM')).toMatchObject({ unit: expect.any(String), frequency: expect.any(Number), sampleCount: expect.any(Number), dimension: 1, dataType: expect.any(String) });
    });

    test('when the file is stored LZ4-compressed, then it reads as the same file (from its decompressed copy)', async () => {
      const id = await started.attached.entityWithFile('DataFile_Logged', 'Sample1.ld', sample1, { compressed: true, type: 'Setups' });
      const meta = await json(get(`${dataset(id, 'DataFile_Logged', 'Setups')}/metadata`));
      expect(meta).toEqual(buildMetadataRecord({ entityId: id, entityType: 'Setups', attachedFileGroupName: 'DataFile_Logged' }, eager));
      const lap = await json(get(`${dataset(id, 'DataFile_Logged', 'Setups')}/channel?channel=Engine%20RPM&lapIndex=1`));
      expect(lap.samples).toEqual(Array.from(sliceByLap(eager.readChannel('Engine RPM'), eager.laps, 1).samples));
    });

    test('when a .ldx sits beside the .ld in the group, then its Beacons markers give the laps', async () => {
      const id = await started.attached.entity('SessionCarDatas');
      await started.attached.attach(id, 'DataFile', 'Sample1.ld', sample1);
      await started.attached.attach(id, 'DataFile', 'Sample1.ldx', new TextEncoder().encode(SAMPLE1_LDX));
      const meta = await json(get(`${dataset(id, 'DataFile', 'SessionCarDatas')}/metadata`));
      expect(meta.lapCount).toBe(3);
      // Beacons at 162.1 and 225.8 s: the second lap is 63.7 s, not 225.8 - 162.1 = 63.70000000000002.
      expect(meta.lapElapsedTimes.slice(0, 2)).toEqual([162.1, 63.7]);
    });

    test('when the .ldx beside a .ld is damaged, then the 422 names the .ldx; a group of only an .ldx is a 415 naming it', async () => {
      const id = await started.attached.entity('SessionCarDatas');
      await started.attached.attach(id, 'DataFile', 'a.ld', sample1);
      await started.attached.attach(id, 'DataFile', 'a.ldx', new TextEncoder().encode(SAMPLE1_LDX.replace('Time="162100000"', 'Time="abc"')));
      const refused = async (path: string) => {
        const res = await get(path);
        return [res.status, ((await res.json()) as { detail: string }).detail];
      };
      expect(await refused(`${dataset(id, 'DataFile', 'SessionCarDatas')}/metadata`)).toEqual([422, expect.stringMatching(/^a\.ldx: /)]);
      const only = await started.attached.entityWithFile('Markers', 'only.ldx', new TextEncoder().encode(SAMPLE1_LDX), { type: 'SessionCarDatas' });
      expect(await refused(`${dataset(only, 'Markers', 'SessionCarDatas')}/metadata`)).toEqual([415, expect.stringMatching(/^only\.ldx: /)]);
    });

    test('when the .ldx beside a .ld has beacons for more laps than MAX_LAPS_PER_FILE, then the 422 names the .ldx, not the .ld', async () => {
      const id = await started.attached.entity('SessionCarDatas');
      await started.attached.attach(id, 'DataFile', 'b.ld', sample1);
      // 10,000 markers 40 ms apart inside Sample1's 454 s: 10,001 laps.
      const markers = Array.from({ length: 10_000 }, (_, i) => `<Marker Time="${(i + 1) * 40_000}"/>`).join('');
      await started.attached.attach(id, 'DataFile', 'b.ldx', new TextEncoder().encode(`<LDXFile><MarkerGroup Name="Beacons">${markers}</MarkerGroup></LDXFile>`));
      const res = await get(`${dataset(id, 'DataFile', 'SessionCarDatas')}/metadata`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^b\.ldx: The data file could not be read: ldx has more than 10000 laps; at most 10000 are read \(MAX_LAPS_PER_FILE is 10000\)$/);
    });

    test('when a group holds several per-lap files, then they read as one dataset, one lap per file in order', async () => {
      const id = await started.attached.entity();
      const csv = fixture('csv_sample.csv');
      await started.attached.attach(id, 'Laps', 'lap1.csv', csv);
      await started.attached.attach(id, 'Laps', 'lap2.csv', csv);
      const joined = openDataFile([csv, csv]);
      const meta = await json(get(`${dataset(id, 'Laps')}/metadata`));
      expect(meta.lapCount).toBe(2);
      expect(meta).toEqual(buildMetadataRecord({ entityId: id, entityType: 'RunSheets', attachedFileGroupName: 'Laps' }, joined));
      const name = joined.channels[0].name;
      const lap2 = await json(get(`${dataset(id, 'Laps')}/channel?channel=${encodeURIComponent(name)}&lapIndex=1`));
      const slice = sliceByLap(joined.readChannel(name), joined.laps, 1);
      expect(lap2.samples).toEqual(Array.from(slice.samples, (v) => (Number.isFinite(v) ? v : null)));
      // The CSV's rows are not evenly spaced: its samples carry their times without maxPoints (docs/binary-channels.md).
      expect(slice.time.kind).toBe('explicit');
      expect(lap2.times).toEqual(slice.time.kind === 'explicit' ? Array.from(slice.time.timestamps) : undefined);
    });
  });

  describe('per-lap files', () => {
    /** One lap's CSV: rows 0.1 s and 0.2 s apart (not evenly spaced, so its times travel with its samples). */
    const lapCsv = new TextEncoder().encode('Time,Ground Speed [km/h]\n0,100\n0.1,110\n0.3,120\n');

    test('when the laps are joined, then their times are on the file axis to the nanosecond, without the sum\'s floating-point residue', async () => {
      const id = await started.attached.entity();
      for (const name of ['lap1.csv', 'lap2.csv', 'lap3.csv']) await started.attached.attach(id, 'Laps', name, lapCsv);
      // Each lap lasts its last row plus its mean period: 0.3 + 0.15 s.
      expect((await json(get(`${dataset(id, 'Laps')}/metadata`))).lapElapsedTimes).toEqual([0.45, 0.45, 0.45]);
      const record = await json(get(`${dataset(id, 'Laps')}/channel?channel=${encodeURIComponent('Ground Speed')}`));
      // 0.45 + 0.1 is 0.5499999999999999 in doubles, 0.45 * 2 + 0.1 is 0.9999999999999999.
      expect(record.times).toEqual([0, 0.1, 0.3, 0.45, 0.55, 0.75, 0.9, 1, 1.2]);
      const lap = await json(get(`${dataset(id, 'Laps')}/distance?lapIndex=1`));
      expect(lap.lapTime).toBe(0.45);
      const delta = await json(get(`${dataset(id, 'Laps')}/delta?lapIndex=2&referenceLapIndex=1`));
      expect([delta.lap.lapTime, delta.reference.lapTime]).toEqual([0.45, 0.45]);
    });
  });

  describe('per-lap files logged at different rates', () => {
    /** One lap of 1 s logged at `rate` Hz: its rows are evenly spaced, so alone it is a regular channel at that rate. */
    const lapAt = (rate: number) => new TextEncoder().encode(`Time,Speed [km/h]\n${Array.from({ length: rate }, (_, i) => `${i / rate},${100 + i}`).join('\n')}\n`);

    test('when a channel has another rate in each file, then it is reported at its mean rate with its times, in the metadata and in every read', async () => {
      const id = await started.attached.entity();
      await started.attached.attach(id, 'Mixed', 'lap1.csv', lapAt(10));
      await started.attached.attach(id, 'Mixed', 'lap2.csv', lapAt(20));
      // 30 samples over 2 s: 15 Hz, not the first file's 10 Hz (nor the second's 20 Hz).
      const meta = await json(get(`${dataset(id, 'Mixed')}/metadata`));
      expect(meta.channels).toEqual([{ name: 'Speed', unit: 'km/h', frequency: 15, sampleCount: 30, dimension: 1, dataType: 'float64' }]);
      const whole = await json(get(`${dataset(id, 'Mixed')}/channel?channel=Speed`));
      expect(whole.frequency).toBe(15);
      expect(whole.times).toEqual([...Array.from({ length: 10 }, (_, i) => i / 10), ...Array.from({ length: 20 }, (_, i) => 1 + i / 20)]);
      const lap = await json(get(`${dataset(id, 'Mixed')}/channel?channel=Speed&lapIndex=1`));
      expect(lap).toMatchObject({ frequency: 15, times: Array.from({ length: 20 }, (_, i) => 1 + i / 20) });
      const binary = decodeChannelsBody(new Uint8Array(await (await get(`${dataset(id, 'Mixed')}/channel?channel=Speed&lapIndex=1`, { Accept: 'application/x-service-channels' })).arrayBuffer()));
      expect(binary.map(toReadRecord)).toEqual([lap]);
    });
  });

  describe('GET .../channel', () => {
    test('when a lap is asked, then its samples are the lap\'s physical values exactly', async () => {
      const r = await get(`${dataset()}/channel?channel=${encodeURIComponent('Ground Speed')}&lapIndex=2`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('application/json');
      const record = await json(r);
      const expected = sliceByLap(eager.readChannel('Ground Speed'), eager.laps, 2);
      expect(record).toMatchObject({ name: 'Ground Speed', unit: eager.channels.find((c) => c.name === 'Ground Speed')?.unit, dimension: 1 });
      expect(record.samples).toEqual(Array.from(expected.samples));
    });

    test('when start and duration are given, then the half-open window [start, start+duration) is read', async () => {
      const record = await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&start=10&duration=2.5`));
      expect(record.samples).toEqual(Array.from(sliceByWindow(eager.readChannel('Engine RPM'), eager.startTime + 10, 2.5).samples));
    });

    test('when start is given without duration, then the window runs to the end of the file (also for a duration too large to add up)', async () => {
      const all = eager.readChannel('Engine RPM');
      const expected = Array.from(sliceByWindow(all, eager.startTime + 10, eager.duration).samples);
      expect(expected.length).toBeGreaterThan(0);
      expect((await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&start=10`))).samples).toEqual(expected);
      expect((await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&start=10&duration=1e308`))).samples).toEqual(expected);
      const batch = await json(post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 2, startTime: 10, duration: 1e308 }));
      expect(batch.channels[0].samples).toEqual(expected);
      // Display-sized: the buckets span the rest of the file, not the open end.
      const shaped = await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&start=10&maxPoints=400`));
      expect(shaped.samples.length).toBeGreaterThan(300);
      expect(shaped.samples.length).toBeLessThanOrEqual(400);
      expect([Math.min(...shaped.samples), Math.max(...shaped.samples)]).toEqual([Math.min(...expected), Math.max(...expected)]);
    });

    test('when no scope is given, then the whole channel is read', async () => {
      const record = await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}`));
      expect(record.samples).toEqual(physical('Engine RPM'));
    });

    test('when a scope parameter is given with no value (lapIndex=), then it is as if not given: the whole channel (docs/api.md)', async () => {
      const record = await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&lapIndex=&start=&duration=&maxPoints=`));
      expect(record.samples).toEqual(physical('Engine RPM'));
    });

    test.each([
      ['application/x-service-channels', 'application/x-service-channels'],
      ['application/octet-stream', 'application/octet-stream'],
      // A media type with parameters or a weight is still that type (docs/api.md).
      ['application/x-service-channels;version=1', 'application/x-service-channels'],
      ['application/octet-stream; q=1', 'application/octet-stream'],
    ])('when Accept is %s, then the binary body decodes to the JSON of the same read', async (accept, type) => {
      const path = `${dataset()}/channel?channel=${encodeURIComponent('Susp Pos FL')}&lapIndex=1`;
      const asJson = await json(get(path));
      const r = await get(path, { Accept: accept });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain(type);
      const series = decodeChannelsBody(new Uint8Array(await r.arrayBuffer()));
      expect(series.map(toReadRecord)).toEqual([asJson]);
    });

    test('when maxPoints is given, then at most N points come back, keeping each bucket\'s extremes', async () => {
      const all = physical('Engine RPM');
      const record = await json(get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&maxPoints=400`));
      expect(record.samples.length).toBeLessThanOrEqual(400);
      expect(record.times).toHaveLength(record.samples.length);
      expect(Math.max(...record.samples)).toBe(Math.max(...all));
      expect(Math.min(...record.samples)).toBe(Math.min(...all));
      expect(record.samples[0]).toBe(all[0]);
      expect(record.samples.at(-1)).toBe(all.at(-1));
      const binary = decodeChannelsBody(new Uint8Array(await (await get(`${dataset()}/channel?channel=${encodeURIComponent('Engine RPM')}&maxPoints=400`, { Accept: 'application/x-service-channels' })).arrayBuffer()));
      expect(binary.map(toReadRecord)).toEqual([record]);
    });
  });

  describe('an MDF 3 file', () => {
    const mdf3 = fixture('f11_v330.mdf');
    const read = openDataFile(mdf3);
    let id: string;
    beforeAll(async () => {
      id = await started.attached.entityWithFile('DataFile', 'f11_v330.mdf', mdf3);
    });
    const at = () => dataset(id);

    test('when an MDF 3.30 file is attached, then its metadata is its catalogue (recognised by its content, not its name)', async () => {
      const meta = await json(get(`${at()}/metadata`));
      expect(meta).toEqual(buildMetadataRecord({ entityId: id, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' }, read));
      expect(meta.channels.map((c: { name: string; unit: string; frequency: number; sampleCount: number; dataType: string }) => [c.name, c.unit, c.frequency, c.sampleCount, c.dataType])).toEqual([
        ['v3_f64', 'V', 100, 500, 'float64'],
        ['v3_i16', '', 100, 500, 'int16'],
      ]);
      expect(meta.fileTimeLength).toBe(5);
    });

    test('when a channel, a window of it and a display-sized read are asked, then each is the file\'s samples', async () => {
      const sine = read.readChannel('v3_f64');
      expect((await json(get(`${at()}/channel?channel=v3_f64`))).samples).toEqual(Array.from(sine.samples));
      const window = await json(get(`${at()}/channel?channel=v3_i16&start=1&duration=0.5`));
      expect(window.samples).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
      const shaped = await json(get(`${at()}/channel?channel=v3_f64&maxPoints=50`));
      expect(shaped.samples.length).toBeLessThanOrEqual(50);
      expect(shaped.times).toHaveLength(shaped.samples.length);
      expect([Math.min(...shaped.samples), Math.max(...shaped.samples)]).toEqual([Math.min(...sine.samples), Math.max(...sine.samples)]);
      const binary = decodeChannelsBody(new Uint8Array(await (await get(`${at()}/channel?channel=v3_f64&maxPoints=50`, { Accept: 'application/x-service-channels' })).arrayBuffer()));
      expect(binary.map(toReadRecord)).toEqual([shaped]);
      const batch = await json(post(`${at()}/channels`, { channels: ['v3_i16', 'v3_f64'], mode: 2, startTime: 4.9, duration: 1 }));
      expect(batch.channels[0].samples).toEqual(Array.from({ length: 10 }, (_, i) => 490 + i));
    });

    test('when a channel has a text formula conversion (cc 10), then that channel is a 415 naming it and the others read', async () => {
      const formula = await started.attached.entity();
      const records = Uint8Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? i / 3 : i));
      await started.attached.attach(formula, 'DataFile', 'formula.dat', buildMdf3File({
        groups: [{ recordSize: 3, cycleCount: 4, records, channels: [
          { name: 'Time', unit: 's', dataType: 0, bitCount: 8, byteOffset: 0, master: true, conversion: { type: 0, values: [0, 0.1] } },
          { name: 'Speed', unit: 'km/h', dataType: 0, bitCount: 8, byteOffset: 1 },
          { name: 'Calc', dataType: 0, bitCount: 8, byteOffset: 2, conversion: { type: 10, formula: 'X1 * 2 + 1' } },
        ] }],
      }));
      const refused = await get(`${dataset(formula)}/channel?channel=Calc`);
      expect(refused.status).toBe(415);
      expect((await json(refused)).detail).toBe('channel Calc cannot be read: it uses ASAM-MCD2 text formula conversion (cc_type 10)');
      expect((await json(get(`${dataset(formula)}/channel?channel=Speed`))).samples).toEqual([1, 4, 7, 10]);
    });
  });

  describe('POST .../channels', () => {
    const names = ['Engine RPM', 'Ground Speed', 'Lap Number'];

    test.each([
      [0, {}, (name: string) => physical(name)],
      [1, { lapIndex: 1 }, (name: string) => Array.from(sliceByLap(eager.readChannel(name), eager.laps, 1).samples)],
      [2, { startTime: 30, duration: 4 }, (name: string) => Array.from(sliceByWindow(eager.readChannel(name), eager.startTime + 30, 4).samples)],
    ])('when mode is %s, then every channel is read in that scope and the request is echoed', async (mode, scope, expected) => {
      const r = await post(`${dataset()}/channels`, { channels: names, mode, ...scope });
      expect(r.status).toBe(200);
      const body = await json(r);
      expect(body).toMatchObject({ entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile', mode });
      expect(body.channels.map((c: { name: string }) => c.name)).toEqual(names);
      for (const [k, name] of names.entries()) expect(body.channels[k].samples).toEqual(expected(name));
    });

    test('when the binary body is asked for a lap of several channels, then it decodes to the JSON channels', async () => {
      const body = { channels: names, mode: 1, lapIndex: 2 };
      const asJson = await json(post(`${dataset()}/channels`, body));
      const r = await post(`${dataset()}/channels`, body, { Accept: 'application/x-service-channels' });
      expect(decodeChannelsBody(new Uint8Array(await r.arrayBuffer())).map(toReadRecord)).toEqual(asJson.channels);
    });
  });

  describe('the Python decoder of docs/binary-channels.md', () => {
    /** A python3 with numpy on PATH (npm puts node's directory first, whose python3 may have none). */
    const pythonWithNumpy = (): string => {
      for (const dir of [...new Set((process.env['PATH'] ?? '').split(':').filter(Boolean))]) {
        const candidate = join(dir, 'python3');
        try {
          accessSync(candidate, constants.X_OK);
          execFileSync(candidate, ['-c', 'import numpy'], { stdio: 'ignore', timeout: 60_000 });
          return candidate;
        } catch {
          // not executable, or no numpy
        }
      }
      throw new Error('no python3 with numpy on PATH');
    };

    test('when python3 decodes a real binary response with the documented decoder, then it gets the JSON records of the same read', async () => {
      const body = { channels: ['Engine RPM', 'Ground Speed', 'Susp Pos FL'], mode: 1, lapIndex: 1 };
      const asJson = await json(post(`${dataset()}/channels`, body));
      const r = await post(`${dataset()}/channels`, body, { Accept: 'application/x-service-channels' });
      writeFileSync(join(started.dir, 'response.bin'), new Uint8Array(await r.arrayBuffer()));
      const decoder = /```python\n([\s\S]*?)```/.exec(readFileSync(join(root, 'docs', 'binary-channels.md'), 'utf8'))?.[1] as string;
      writeFileSync(join(started.dir, 'decode.py'), `${decoder}\nimport json, sys\nprint(json.dumps(to_records(open(sys.argv[1], 'rb').read())))\n`);
      const output = execFileSync(pythonWithNumpy(), [join(started.dir, 'decode.py'), join(started.dir, 'response.bin')], { encoding: 'utf8', timeout: 60_000 });
      expect(JSON.parse(output)).toEqual(asJson.channels);
    }, 90_000);
  });

  describe('the client library', () => {
    test('when the metadata, channels and lap traces are read as JSON, then each answer is the schema the OpenAPI document declares for it, no field more at any depth', async () => {
      const declared: [z.ZodType, unknown][] = [
        [DataFileMetadataJson, await json(await get(`${dataset()}/metadata`))],
        [ChannelRecordJson, await json(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=1`))],
        [ChannelRecordJson, await json(await get(`${dataset()}/channel?channel=Engine%20RPM&maxPoints=50`))],
        [ChannelsReadJson, await json(await post(`${dataset()}/channels`, { channels: ['Engine RPM', 'Ground Speed'], mode: 1, lapIndex: 0 }))],
        [LapDistanceJson, await json(await get(`${dataset()}/distance?lapIndex=1&maxPoints=50`))],
        [LapDeltaJson, await json(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=2&maxPoints=50`))],
      ];
      for (const [schema, body] of declared) {
        expect(schema.safeParse(body).error).toBeUndefined();
        expect(undeclared(schema, body)).toEqual([]);
      }
    });

    test('when a RunSheet\'s metadata, a lap of a channel and a batch are read with the generated methods, then JSON and binary agree', async () => {
      const client = new PitwallClient({ baseUrl: started.base, apiKey: started.demo.apiKey, accountId: started.demo.accountId });
      const meta = await client.getRunSheetDataFileMetadata(runSheet, 'DataFile');
      expect(meta.returnValue?.lapCount).toBe(eager.laps.length);
      const json = await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Engine RPM', { lapIndex: 1 });
      const binary = await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Engine RPM', { lapIndex: 1, binary: true });
      expect(binary.statusCode).toBe(200);
      expect((binary.returnValue as ChannelSeries[]).map(toChannelRecord)).toEqual([json.returnValue]);
      const shown = await client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: ['Engine RPM', 'Ground Speed'], mode: 0 }, { maxPoints: 100, binary: true });
      for (const series of shown.returnValue as ChannelSeries[]) expect(series.samples.length).toBeLessThanOrEqual(100);
      const missing = await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Nope');
      expect(missing).toMatchObject({ success: false, statusCode: 400 });
    });
  });

  describe('errors (problem+json)', () => {
    const problem = async (r: Response, status: number) => {
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      return json(r);
    };

    test('when the channel is unknown, then 400 names it (every unknown one of a batch, by its place in channels)', async () => {
      const body = await problem(await get(`${dataset()}/channel?channel=Warp%20Drive`), 400);
      expect(body.detail).toContain('Warp Drive');
      expect(body.errors).toEqual({ channel: ['channel not found: Warp Drive'] });
      const batch = await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM', 'Flux', 'Engine RPM', 'Warp'], mode: 0 }), 400);
      expect(batch.detail).toBe('channels not found: Flux, Warp');
      expect(batch.errors).toEqual({ 'channels[1]': ['channel not found: Flux'], 'channels[3]': ['channel not found: Warp'] });
    });

    test('when a batch names thousands of unknown channels, then the detail lists the first 8 (long names cut) and how many more, and errors names each', async () => {
      const names = Array.from({ length: 3000 }, (_, i) => `Nope ${i}`);
      names[1] = 'L'.repeat(5000);
      const batch = await problem(await post(`${dataset()}/channels`, { channels: names, mode: 0 }), 400);
      expect(batch.detail).toBe(`channels not found: Nope 0, ${'L'.repeat(200)}…, Nope 2, Nope 3, Nope 4, Nope 5, Nope 6, Nope 7 and 2992 more (each named in errors)`);
      expect(Object.keys(batch.errors)).toHaveLength(3000);
      expect(batch.errors['channels[2999]']).toEqual(['channel not found: Nope 2999']);
    });

    test('when an unknown channel is close to channels of the file (case, spacing, a typo), then its 400 says which ("did you mean")', async () => {
      const body = await problem(await get(`${dataset()}/channel?channel=engine_rpm`), 400);
      expect(body.detail).toBe('channel not found: engine_rpm (did you mean "Engine RPM"?)');
      const batch = await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPN', 'Warp'], mode: 0 }), 400);
      expect(batch.errors).toEqual({ 'channels[0]': ['channel not found: Engine RPN (did you mean "Engine RPM"?)'], 'channels[1]': ['channel not found: Warp'] });
    });

    test('when the channel name in the URL is as long as a read may ask for, in characters of 3 UTF-8 bytes, then it is looked up (400 naming it), and one longer is a 400 too', async () => {
      // 16,383 characters percent-encode to 147,447 bytes of URL: past Node's default header limit (a bare 431).
      const longest = '…'.repeat(16_383);
      const body = await problem(await get(`${dataset()}/channel?channel=${encodeURIComponent(longest)}`), 400);
      expect(body.errors).toEqual({ channel: [`channel not found: ${longest}`] });
      const over = await problem(await get(`${dataset()}/channel?channel=${encodeURIComponent(`${longest}…`)}`), 400);
      expect(Object.keys(over.errors as object)).toEqual(['channel']);
    });

    test('when a window or a batch body is malformed, then 400 names the field as the request spells it', async () => {
      const channel = `${dataset()}/channel?channel=Engine%20RPM`;
      expect((await problem(await get(`${channel}&start=1&duration=-1`), 400)).errors).toEqual({ duration: ['must be 0 or more'] });
      expect((await problem(await get(`${channel}&start=1e400&duration=1`), 400)).errors).toEqual({ start: ['is too large a number of seconds'] });
      expect((await problem(await get(`${channel}&start=abc&duration=1`), 400)).errors).toEqual({ start: ['is not a number of seconds'] });
      expect((await problem(await get(`${channel}&start=1&duration=x`), 400)).errors).toEqual({ duration: ['is not a number of seconds'] });
      expect((await problem(await get(`${channel}&maxPoints=999999999999`), 400)).errors).toEqual({ maxPoints: ['must be from 4 to 999999999'] });
      // 1e12 is a whole number, but not written in digits: the message says both what is wanted and how.
      for (const bad of ['1e12', '2.5', '-4', 'ten']) expect((await problem(await get(`${channel}&maxPoints=${bad}`), 400)).errors).toEqual({ maxPoints: ['must be a whole number from 4 to 999999999, in digits'] });
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 2, startTime: 1, duration: -1 }), 400)).errors).toEqual({ duration: ['must be 0 or more'] });
      // An unknown property is a typo to report, not to ignore (maxPoints is a query parameter).
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 1, lapIndex: 0, maxPoints: 10 }), 400)).errors).toHaveProperty('maxPoints');
      // A mode that is none of the three says which there are.
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 3 }), 400)).errors).toEqual({ mode: ['must be the number 0 (the whole file), 1 (a lap) or 2 (a window)'] });
      // A wrapper that sends the mode as a string is told the type is wrong, not only the values.
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: '0' }), 400)).errors).toEqual({ mode: ['must be the number 0 (the whole file), 1 (a lap) or 2 (a window), not a string'] });
      // JSON that is not an object is named for what it is, not called invalid JSON.
      for (const [text, what] of [['null', 'null'], ['3', 'a number'], ['"x"', 'a string'], ['[{"channels": ["Engine RPM"]}]', 'an array']] as const) {
        const scalar = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: text });
        expect(await problem(scalar, 400)).toMatchObject({ detail: `The request body must be a JSON object, not ${what}`, errors: { '(body)': ['must be a JSON object'] } });
      }
      const broken = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: '{"channels": [' });
      // Where it breaks, as the parser says it (a body's own text is not echoed back).
      expect((await problem(broken, 400)).detail).toMatch(/^The request body is not valid JSON: .*end of JSON input/);
      const token = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: '{"channels": ["Engine RPM"] "mode": 0}' });
      expect((await problem(token, 400)).detail).toMatch(/^The request body is not valid JSON: .*position 28\b/);
      const word = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: '{"channels": x}' });
      const unexpected = (await problem(word, 400)).detail as string;
      expect(unexpected).toMatch(/^The request body is not valid JSON: .*'x'/);
      expect(unexpected).not.toContain('channels');
    });

    test('when a batch body gives a scope field its mode does not read, or null ones, then the mode decides the scope and the answer says which', async () => {
      const batch = async (body: object) => {
        const res = await post(`${dataset()}/channels`, { channels: ['Engine RPM'], ...body });
        expect(res.status).toBe(200);
        return (await res.json()) as { mode: number; channels: { samples: unknown[] }[] };
      };
      const lapCount = async (body: object) => (await batch(body)).channels[0]?.samples.length;
      const whole = await lapCount({ mode: 0 });
      const lap1 = await lapCount({ mode: 1, lapIndex: 1 });
      const window = await lapCount({ mode: 2, startTime: 1, duration: 2 });
      expect(new Set([whole, lap1, window]).size).toBe(3);
      // As a wrapper whose request model sends every field would send them: the unread ones as 0 or null.
      expect(await batch({ mode: 0, lapIndex: 0, startTime: 0, duration: 0 })).toMatchObject({ mode: 0 });
      expect(await lapCount({ mode: 0, lapIndex: -1, startTime: -1, duration: -1 })).toBe(whole);
      expect(await lapCount({ mode: 2, lapIndex: 1e12, startTime: 1, duration: 2 })).toBe(window);
      expect(await lapCount({ mode: 0, lapIndex: 1, startTime: 1, duration: 2 })).toBe(whole);
      expect(await lapCount({ mode: 1, lapIndex: 1, startTime: null, duration: null })).toBe(lap1);
      expect(await lapCount({ mode: 2, lapIndex: 1, startTime: 1, duration: 2 })).toBe(window);
      expect(await lapCount({ mode: 0, lapIndex: null, startTime: null, duration: null })).toBe(whole);
      // null is absent: a mode without its own field still needs it.
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 1, lapIndex: null }), 400)).errors).toEqual({ lapIndex: ['is required when mode is 1'] });
      expect((await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 2, startTime: 1, duration: null }), 400)).errors).toEqual({ duration: ['is required when mode is 2'] });
      // Every bad field of one body is named in one answer, the scope's with the others.
      const several = await problem(await post(`${dataset()}/channels`, { channels: [], mode: 1 }), 400);
      expect(Object.keys(several.errors as object).sort()).toEqual(['channels', 'lapIndex']);
      expect((several.errors as Record<string, string[]>)['lapIndex']).toEqual(['is required when mode is 1']);
      const badWindow = await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM', 7], mode: 2, duration: -1 }), 400);
      expect(Object.keys(badWindow.errors as object).sort()).toEqual(['channels[1]', 'duration', 'startTime']);
    });

    test('when a batch body has no mode or a bad lapIndex or time, then 400 says so in the words of the query path', async () => {
      const batch = (body: object) => post(`${dataset()}/channels`, { channels: ['Engine RPM'], ...body });
      expect((await problem(await batch({}), 400)).errors).toEqual({ mode: ['is required'] });
      expect((await problem(await batch({ mode: null }), 400)).errors).toEqual({ mode: ['is required'] });
      expect((await problem(await batch({ mode: 2, startTime: 1, duration: -1 }), 400)).errors).toEqual({ duration: ['must be 0 or more'] });
      expect((await problem(await batch({ mode: 0, lapIndex: 'x' }), 400)).errors).toEqual({ lapIndex: ['is not a non-negative integer'] });
      for (const lapIndex of [2.5, -1, '1']) expect((await problem(await batch({ mode: 1, lapIndex }), 400)).errors).toEqual({ lapIndex: ['is not a non-negative integer'] });
      expect((await problem(await batch({ mode: 1, lapIndex: 1e12 }), 400)).errors).toEqual({ lapIndex: ['must be at most 999999999'] });
      // The same words as the query path's for the same values.
      const channel = `${dataset()}/channel?channel=Engine%20RPM`;
      expect((await problem(await get(`${channel}&lapIndex=2.5`), 400)).errors).toEqual({ lapIndex: ['is not a non-negative integer'] });
      expect((await problem(await get(`${channel}&lapIndex=1000000000000`), 400)).errors).toEqual({ lapIndex: ['must be at most 999999999'] });
      expect((await problem(await batch({ mode: 2, startTime: 'abc', duration: 'x' }), 400)).errors).toEqual({ startTime: ['is not a number of seconds'], duration: ['is not a number of seconds'] });
      // JSON's 1e400 parses as Infinity.
      const huge = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: '{"channels": ["Engine RPM"], "mode": 2, "startTime": 1e400, "duration": 1}' });
      expect((await problem(huge, 400)).errors).toEqual({ startTime: ['is too large a number of seconds'] });
    });

    test('when several query values are not valid, then one 400 names each of them', async () => {
      const body = await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&start=abc&duration=-1&maxPoints=2`), 400);
      expect(body.errors).toEqual({ start: ['is not a number of seconds'], duration: ['must be 0 or more'], maxPoints: ['must be from 4 to 999999999'] });
      expect(body.detail).toBe("start 'abc' is not a number of seconds; duration '-1' must be 0 or more; maxPoints '2' must be from 4 to 999999999");
      const withPath = await problem(await get(`${dataset('not-a-guid')}/channel?channel=Engine%20RPM&maxPoints=2`), 400);
      expect(withPath.errors).toEqual({ id: ['is not a GUID'], maxPoints: ['must be from 4 to 999999999'] });
      expect(withPath.detail).toBe("id 'not-a-guid' is not a GUID; maxPoints '2' must be from 4 to 999999999");
      // A required value that is missing is named with them.
      const missing = await problem(await get(`${dataset()}/channel?lapIndex=x&maxPoints=2`), 400);
      expect(missing.errors).toEqual({ lapIndex: ['is not a non-negative integer'], maxPoints: ['must be from 4 to 999999999'], channel: ['is required'] });
      expect(missing.detail).toBe("lapIndex 'x' is not a non-negative integer; maxPoints '2' must be from 4 to 999999999; channel is required");
    });

    test('when a query parameter is given twice, in one spelling or two, then 400 names it and neither value is read', async () => {
      for (const query of ['maxPoints=100&maxPoints=200', 'maxPoints=100&MAXPOINTS=200', 'lapIndex=0&LapIndex=1']) {
        const body = await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&${query}`), 400);
        const name = query.split('=')[0] as string;
        expect(body.errors).toEqual({ [name]: ['must be given once'] });
        expect(body.detail).toBe(`query parameter ${name} must be given once`);
      }
    });

    test('when a query parameter is given again with no value, in one spelling or two, then the empty one is not given (as one given empty alone)', async () => {
      const lap = await json(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=1`));
      const whole = await json(await get(`${dataset()}/channel?channel=Engine%20RPM`));
      expect(lap).not.toEqual(whole);
      for (const query of ['lapIndex=1&lapIndex=', 'lapIndex=&lapIndex=1', 'lapIndex=1&LAPINDEX=', 'LapIndex=&lapIndex=1&lapIndex=']) {
        expect({ query, body: await json(await get(`${dataset()}/channel?channel=Engine%20RPM&${query}`)) }).toEqual({ query, body: lap });
      }
      for (const query of ['lapIndex=&lapIndex=', 'lapIndex=&LAPINDEX=']) {
        expect({ query, body: await json(await get(`${dataset()}/channel?channel=Engine%20RPM&${query}`)) }).toEqual({ query, body: whole });
      }
      // Two values, one of them empty, are still two values.
      expect((await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=1&lapIndex=&LapIndex=2`), 400)).errors).toEqual({ lapIndex: ['must be given once'] });
    });

    test('when lapIndex is outside 0..lapCount-1, then 400', async () => {
      const body = await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=${eager.laps.length}`), 400);
      expect(body.detail).toContain(`0..${eager.laps.length - 1}`);
      await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 1, lapIndex: 99 }), 400);
      await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM'], mode: 1 }), 400);
      expect((await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=-1`), 400)).errors).toEqual({ lapIndex: ['is not a non-negative integer'] });
      // An integer too long for any file's laps is out of range, not "not an integer".
      expect((await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&lapIndex=99999999999999999999`), 400)).errors).toEqual({ lapIndex: ['must be at most 999999999'] });
      await problem(await get(`${dataset()}/channel?channel=Engine%20RPM&maxPoints=2`), 400);
      // With an unknown channel too, one 400 names both.
      const both = await problem(await get(`${dataset()}/channel?channel=Nope&lapIndex=${eager.laps.length}`), 400);
      expect(Object.keys(both.errors).sort()).toEqual(['channel', 'lapIndex']);
      expect(both.detail).toContain('channel not found: Nope');
      const batch = await problem(await post(`${dataset()}/channels`, { channels: ['Engine RPM', 'Nope'], mode: 1, lapIndex: 99 }), 400);
      expect(Object.keys(batch.errors).sort()).toEqual(['channels[1]', 'lapIndex']);
    });

    test('when the dataset, the entity or the account is unknown, then 404', async () => {
      await problem(await get(`${dataset(runSheet, 'NoSuchGroup')}/metadata`), 404);
      await problem(await get(`${dataset(randomUUID())}/metadata`), 404);
      const other = await started.outsider.entityWithFile('DataFile', 'Sample1.ld', sample1);
      await problem(await get(`${dataset(other)}/metadata`), 404);
      await problem(await fetch(`${started.base}${dataset()}/metadata`, { headers: { ApiKey: started.demo.apiKey, AccountId: randomUUID() } }), 404);
    });

    test('when the group\'s file is only pending (state 0), then the dataset is not there: 404', async () => {
      const id = await started.attached.entity();
      await started.attached.prepareOnly(id, 'DataFile', 'Sample1.ld');
      await problem(await get(`${dataset(id)}/metadata`), 404);
    });

    test('when the batch body is over 1 MiB, then 413 before it is read', async () => {
      const channels = Array.from({ length: 40_000 }, (_, i) => `Channel number ${i} with a long name`);
      const body = JSON.stringify({ channels, mode: 0 });
      expect((await problem(await post(`${dataset()}/channels`, { channels, mode: 0 }), 413)).detail).toBe(`The request body of ${Buffer.byteLength(body)} bytes is larger than the limit of 1048576 bytes (1 MiB, BODY_LIMIT)`);
    });

    test('when the file is not a data file, then 415', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'notes.txt', new TextEncoder().encode('just some notes, not telemetry\n'.repeat(20)));
      expect((await problem(await get(`${dataset(id)}/metadata`), 415)).detail).toBe('notes.txt: The attached file is not a data file this service can read channels from (MoTeC .ld, ASAM MDF 3.x or 4.x, MoTeC or generic CSV)');
      // Beside a good .ld in one group (read as per-lap files), the detail names the file that is not one.
      const mixed = await started.attached.entity();
      await started.attached.attach(mixed, 'DataFile', 'Sample1.ld', sample1);
      await started.attached.attach(mixed, 'DataFile', 'notes.txt', new TextEncoder().encode('just some notes, not telemetry\n'.repeat(20)));
      expect((await problem(await get(`${dataset(mixed)}/metadata`), 415)).detail).toMatch(/^notes\.txt: The attached file is not a data file/);
    });

    test('when the file uses a feature the readers cannot read (an MDF 4 ##DZ block of an unknown zip type), then 415 naming it', async () => {
      const records = new Uint8Array(10 * 16);
      const view = new DataView(records.buffer);
      for (let i = 0; i < 10; i++) {
        view.setFloat64(i * 16, i / 10, true);
        view.setFloat64(i * 16 + 8, i, true);
      }
      const bytes = buildMdf4File({
        groups: [{ dataBytes: 16, cycleCount: 10, records, storage: 'DZ', channels: [
          { name: 'time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'Throttle', unit: '%', dataType: 4, bitCount: 64, byteOffset: 8 },
        ] }],
      });
      // The zip type: the DZ block's 24-byte header (no links), then its original block type (2 bytes) and its zip type.
      bytes[Buffer.from(bytes).indexOf('##DZ') + 26] = 9;
      const id = await started.attached.entityWithFile('DataFile', 'zip9.mf4', bytes);
      expect((await problem(await get(`${dataset(id)}/metadata`), 415)).detail).toBe(
        'zip9.mf4: The data file uses a feature this service cannot read: unsupported mdf4 feature: ##DZ zip type 9 (MDF 4.3 defines 0 to 5: deflate, zstd and LZ4, each plain or transposed)',
      );
    });

    test('when the file is MDF 4.3 with zstd or transposed LZ4 blocks, unsorted, or unfinalised, then its metadata and channels read as the file says', async () => {
      for (const name of ['f14_430_zstd.mf4', 'f14_430_transposed_lz4.mf4']) {
        const id = await started.attached.entityWithFile('DataFile', name, fixture(name));
        const meta = await json(get(`${dataset(id)}/metadata`));
        expect(meta.channels.map((c: { name: string; sampleCount: number }) => [c.name, c.sampleCount])).toEqual([['z_f64', 200_000], ['z_i16', 200_000]]);
        const window = await json(get(`${dataset(id)}/channel?channel=z_i16&start=1.5&duration=0.005`));
        expect(window.samples).toEqual([500, 501, 502, 503, 504]);
      }
      // Two groups' records and VLSD records interleaved behind record ids, then the same file left unfinalised.
      const records = (n: number) => new Uint8Array(n * 10).map((_, i) => (i % 10 < 8 ? 0 : i));
      const group = (n: number, rate: number) => {
        const bytes = records(n);
        const v = new DataView(bytes.buffer);
        for (let i = 0; i < n; i++) v.setFloat64(i * 10, i / rate, true);
        return { dataBytes: 10, cycleCount: n, records: bytes, channels: [{ name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 }, { name: `Value ${rate} Hz`, dataType: 0, bitCount: 16, byteOffset: 8 }] };
      };
      const unsorted = buildMdf4File({ groups: [group(100, 10), group(20, 2)], unsorted: { recordIdSize: 2, vlsd: { every: 4, payloads: [new TextEncoder().encode('pit')] } } });
      const unfinalised = unsorted.slice();
      unfinalised.set(new TextEncoder().encode('UnFinMF '), 0);
      new DataView(unfinalised.buffer).setUint16(60, 0x01, true);
      for (const [name, bytes] of [['unsorted.mf4', unsorted], ['unfinalised.mf4', unfinalised]] as const) {
        const id = await started.attached.entityWithFile('DataFile', name, bytes);
        const meta = await json(get(`${dataset(id)}/metadata`));
        expect(meta.channels.map((c: { name: string; frequency: number; sampleCount: number }) => [c.name, c.frequency, c.sampleCount])).toEqual([['Value 10 Hz', 10, 100], ['Value 2 Hz', 2, 20]]);
        const read = await json(post(`${dataset(id)}/channels`, { channels: ['Value 2 Hz'], mode: 0 }));
        expect(read.channels[0].samples).toEqual(Array.from(openDataFile(unsorted).readChannel('Value 2 Hz').samples));
      }
    });

    test('when channels the file lists cannot be decoded (MIME sample, complex number, a formula calling an unknown function), then 415 names each by its place and name', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'mixed.mf4', mdfWithUnreadableChannels());
      const meta = await json(get(`${dataset(id)}/metadata`));
      // The catalogue lists them (the spec's record has no field to flag them: docs/api.md says which they are).
      expect(meta.channels.map((c: { name: string; dataType: string }) => [c.name, c.dataType])).toEqual([['Speed', 'float32'], ['Comment', 'mime'], ['Payload', 'complex'], ['Calc', 'int16']]);
      const batch = await problem(await post(`${dataset(id)}/channels`, { channels: ['Speed', 'Comment', 'Payload', 'Calc'], mode: 0 }), 415);
      expect(batch.errors).toEqual({
        'channels[1]': ['cannot be read: Comment uses MIME sample channels, which this service does not decode'],
        'channels[2]': ['cannot be read: Payload uses complex number channels, which this service does not decode'],
        'channels[3]': [`cannot be read: Calc uses ${UNKNOWN_FUNCTION}, which this service does not decode`],
      });
      expect(batch.detail).toBe(
        `channels[1] Comment cannot be read: it uses MIME sample channels; channels[2] Payload cannot be read: it uses complex number channels; channels[3] Calc cannot be read: it uses ${UNKNOWN_FUNCTION}`,
      );
      const one = await problem(await get(`${dataset(id)}/channel?channel=Calc`), 415);
      expect(one.errors).toEqual({ channel: [`cannot be read: Calc uses ${UNKNOWN_FUNCTION}, which this service does not decode`] });
      expect(one.detail).toBe(`channel Calc cannot be read: it uses ${UNKNOWN_FUNCTION}`);
      // The readable one reads.
      const speed = await json(post(`${dataset(id)}/channels`, { channels: ['Speed'], mode: 0 }));
      expect(speed.channels[0].samples).toEqual([10, 11, 12, 13]);
    });

    test('when a channel\'s unit is longer than a channel record carries, then JSON and binary reads both refuse it with the same 422', async () => {
      const id = await started.attached.entity();
      const unit = 'u'.repeat(70_000);
      await started.attached.attach(id, 'DataFile', 'long-unit.csv', new TextEncoder().encode(`Time,Speed [${unit}],Gear\n0,100,1\n0.1,110,2\n0.2,120,3\n`));
      const expected = {
        detail: 'The data file could not be read: channels[1] Speed has a unit of 70000 bytes (UTF-8), more than the 65535 a channel record carries',
        errors: { 'channels[1]': ['cannot be read: the unit of Speed is 70000 bytes (UTF-8), more than the 65535 a channel record carries'] },
      };
      const body = { channels: ['Gear', 'Speed'], mode: 0 };
      expect(await problem(await post(`${dataset(id)}/channels`, body), 422)).toMatchObject(expected);
      expect(await problem(await post(`${dataset(id)}/channels`, body, { Accept: 'application/x-service-channels' }), 422)).toMatchObject(expected);
      for (const accept of ['application/json', 'application/octet-stream']) {
        expect((await problem(await get(`${dataset(id)}/channel?channel=Speed`, { Accept: accept }), 422)).errors).toEqual({ channel: ['cannot be read: the unit of Speed is 70000 bytes (UTF-8), more than the 65535 a channel record carries'] });
      }
      // The file's other channels read.
      expect((await json(get(`${dataset(id)}/channel?channel=Gear`))).samples).toEqual([1, 2, 3]);
    });

    test('when the .ld is damaged, then 422 with the reason', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'cut.ld', sample1.slice(0, 3000));
      const body = await problem(await get(`${dataset(id)}/metadata`), 422);
      expect(body.detail).toMatch(/^cut\.ld: The data file could not be read: .+/);
    });
  });
});

/** A sorted MDF 4 group of 4 records at 10 Hz: a float32 Speed beside three channels the readers list but cannot decode. */
const UNKNOWN_FUNCTION = 'algebraic conversion "frobnicate(X)": unknown function frobnicate (at character 0)';

function mdfWithUnreadableChannels(): Uint8Array {
  const records = new Uint8Array(4 * 20);
  const view = new DataView(records.buffer);
  for (let i = 0; i < 4; i++) {
    view.setFloat64(i * 20, i / 10, true);
    view.setFloat32(i * 20 + 8, 10 + i, true);
    view.setInt16(i * 20 + 16, i, true);
  }
  return buildMdf4File({
    groups: [
      {
        dataBytes: 20,
        cycleCount: 4,
        records,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          { name: 'Speed', unit: 'km/h', dataType: 4, bitCount: 32, byteOffset: 8 },
          { name: 'Comment', dataType: 11, bitCount: 32, byteOffset: 12 },
          { name: 'Payload', dataType: 15, bitCount: 64, byteOffset: 12 },
          { name: 'Calc', unit: 'bar', dataType: 2, bitCount: 16, byteOffset: 16, conversion: { type: 3, values: [], texts: ['frobnicate(X)'] } },
        ],
      },
    ],
  });
}

/** The paths of the fields of `value` that `schema` does not declare, at any depth (objects, arrays, optional and nullable). */
function undeclared(schema: z.ZodType, value: unknown, at = ''): string[] {
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType } } })._zod.def;
  if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) return value == null ? [] : undeclared(def.innerType, value, at);
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.flatMap((v, i) => undeclared(def.element as z.ZodType, v, `${at}[${i}]`));
  if (def.type === 'object' && def.shape && value && typeof value === 'object') {
    const shape = def.shape;
    return Object.entries(value).flatMap(([k, v]) => (k in shape ? undeclared(shape[k] as z.ZodType, v, `${at}.${k}`) : [`${at}.${k}`]));
  }
  return [];
}
