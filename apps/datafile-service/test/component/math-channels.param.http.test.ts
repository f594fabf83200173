import { tableFromIPC } from 'apache-arrow';
import { REPLY_ANSWER_HELD, REPLY_ANSWER_TAG, type EncodedJson } from '@pitwall/bus';
import { fixture } from '../support/fixtures';
import { busReplies, defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * param("Name") in math channels (docs/math-channels.md): a constant of the data file's owner, looked up on its entity,
 * the Setup it names, then its Car. Through the gateway with its held answers on (answers by claim, as in
 * data-file-access.held-answers) and the datafile-service's result cache on: a changed parameter must be what the very
 * next read answers, never an answer kept from the former value.
 */
describe('param() in math channels: the constants of a file\'s run sheet, setup and car, read anew whenever they change', () => {
  const started = useDatafileStack('datafile-param-', { URL_SIGNING_SECRET: 'datafile-param-test-secret', CLAIM_SECRET: 'datafile-param-shared-secret', CLAIM_IN_PROCESS: 'false' }, { datafileEnv: { CLAIM_INLINE_MAX_BYTES: '4096' } });
  const sample1 = fixture('Sample1.ld');
  let runSheet: string;
  let car: string;
  let groundSpeed: (number | null)[];

  const headers = (extra: Record<string, string> = {}) => ({ ...started.headers, ...extra });
  const send = (method: string, path: string, body: unknown) => fetch(`${started.base}${path}`, { method, headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(body) });
  const dataset = (id = runSheet) => `/RunSheets/${id}/DataFileAccess/DataFile`;
  const channel = (name: string, id = runSheet) => fetch(`${started.base}${dataset(id)}/channel?channel=${encodeURIComponent(name)}`, { headers: headers() });
  /** Sets one parameter of an entity (`/Cars/<id>`), as a user does: a PUT whose 2xx means it is written. */
  const set = async (path: string, Name: string, Value: string | null) => {
    const r = await send('PUT', path, { ParameterUpdates: [{ Name, Value }] });
    if (r.status >= 300) throw new Error(`PUT ${path}: ${r.status} ${await r.text()}`);
  };
  const created = async (path: string, Name: string, more: { Name: string; Value: string }[] = []): Promise<string> => {
    const r = await send('POST', path, { ParameterUpdates: [{ Name: 'Name', Value: Name }, ...more] });
    const body = (await r.json()) as Json;
    expect({ status: r.status, body }).toMatchObject({ status: 201 });
    return body.Id;
  };

  /** One read as the client got it (its samples) and the one bus reply the gateway had for it (held or not). */
  async function read(name: string, id = runSheet): Promise<{ samples: (number | null)[]; reply: EncodedJson }> {
    let samples!: (number | null)[];
    const replies = await busReplies(started.stack, async () => {
      const r = await channel(name, id);
      const body = (await r.json()) as Json;
      expect({ status: r.status, body: r.status === 200 ? undefined : body }).toEqual({ status: 200, body: undefined });
      samples = body.samples;
    });
    expect(replies).toHaveLength(1);
    return { samples, reply: replies[0] as EncodedJson };
  }

  /** Each sample of the logged Ground Speed over `ratio`, as the read gave it (null where it has a gap). */
  const over = (ratio: number) => groundSpeed.map((v) => (v === null ? null : expect.closeTo(v / ratio, 9)));

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    car = started.attached.ownersOf(runSheet).carId;
    for (const EntityType of ['Cars', 'Setups', 'RunSheets']) {
      await created('/ParameterDefinitions', 'Ratio', [{ Name: 'EntityType', Value: EntityType }, { Name: 'ParameterType', Value: 'Double' }]);
    }
    await created('/ParameterDefinitions', 'Enabled', [{ Name: 'EntityType', Value: 'Cars' }, { Name: 'ParameterType', Value: 'Boolean' }]);
    await defineMathChannel(started, { Name: 'Speed ratio', Expression: '"Ground Speed" / param("Ratio")', Unit: 'km/h' });
    await defineMathChannel(started, { Name: 'Speed ratio x2', Expression: '"Speed ratio" * 2', Unit: 'km/h' });
    await defineMathChannel(started, { Name: 'Speed if enabled', Expression: '"Ground Speed" * param("Enabled")', Unit: 'km/h' });
    groundSpeed = ((await (await channel('Ground Speed')).json()) as Json).samples;
    expect(groundSpeed.filter((v) => v !== null && v > 10).length).toBeGreaterThan(1000);
  }, 90_000);

  test('when the car, then the setup the run sheet names, then the run sheet hold the parameter, then the first of them wins, and every change is the very next read\'s answer, never a kept one', async () => {
    await set(`/Cars/${car}`, 'Ratio', '2');
    const byCar = await read('Speed ratio');
    expect(byCar.samples).toEqual(over(2));
    // The same read again: the gateway's held answer, confirmed by the service (so the caches are in play).
    const again = await read('Speed ratio');
    expect(again.reply.headers[REPLY_ANSWER_HELD]).toBe(byCar.reply.headers[REPLY_ANSWER_TAG]);
    expect(again.samples).toEqual(byCar.samples);

    // The car's value changes: the next read is evaluated with it (neither the held answer nor the service's kept one).
    await set(`/Cars/${car}`, 'Ratio', '4');
    const changed = await read('Speed ratio');
    expect(changed.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    expect(changed.samples).toEqual(over(4));
    // Through another definition too.
    expect((await read('Speed ratio x2')).samples).toEqual(groundSpeed.map((v) => (v === null ? null : expect.closeTo((v / 4) * 2, 9))));

    // A setup holding its own value, named by the run sheet: before the car.
    const { eventId } = started.attached.ownersOf(runSheet);
    const setup = await created(`/Setups?eventId=${eventId}&carId=${car}`, 'Qualifying setup', [{ Name: 'Ratio', Value: '5' }]);
    await set(`/RunSheets/${runSheet}`, 'SetupId', setup);
    expect((await read('Speed ratio')).samples).toEqual(over(5));
    await set(`/Setups/${setup}`, 'Ratio', '8');
    expect((await read('Speed ratio')).samples).toEqual(over(8));

    // The run sheet's own value: before both.
    await set(`/RunSheets/${runSheet}`, 'Ratio', '10');
    expect((await read('Speed ratio')).samples).toEqual(over(10));
    // Removed again: the setup's is the answer again, not the run sheet's kept one.
    await set(`/RunSheets/${runSheet}`, 'Ratio', null);
    const back = await read('Speed ratio');
    expect(back.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    expect(back.samples).toEqual(over(8));
  }, 60_000);

  test('when a Boolean parameter is read, then it is 1 when true and 0 when false', async () => {
    await set(`/Cars/${car}`, 'Enabled', 'true');
    expect((await read('Speed if enabled')).samples).toEqual(over(1));
    await set(`/Cars/${car}`, 'Enabled', 'false');
    expect((await read('Speed if enabled')).samples).toEqual(groundSpeed.map((v) => (v === null ? null : 0)));
  }, 60_000);

  test('when a batch reads the channels as Arrow, then each column is evaluated with the current value, through another definition too', async () => {
    await set(`/Cars/${car}`, 'Ratio', '4');
    await set(`/RunSheets/${runSheet}`, 'SetupId', null);
    await set(`/RunSheets/${runSheet}`, 'Ratio', null);
    const columns = async () => {
      const r = await send('POST', `${dataset()}/channels`, { channels: ['Ground Speed', 'Speed ratio', 'Speed ratio x2'], mode: 0 });
      expect(r.status).toBe(200);
      return r;
    };
    const arrow = async () => {
      const r = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json', Accept: 'application/vnd.apache.arrow.stream' }), body: JSON.stringify({ channels: ['Ground Speed', 'Speed ratio', 'Speed ratio x2'], mode: 0 }) });
      expect(r.status).toBe(200);
      const table = tableFromIPC(new Uint8Array(await r.arrayBuffer()));
      expect(table.schema.fields.map((f) => f.name)).toEqual(['time', 'Ground Speed', 'Speed ratio', 'Speed ratio x2']);
      const column = (name: string) => table.batches.flatMap((b) => [...(b.getChild(name) ?? [])].map((v) => (v === null ? null : Number(v))));
      return { logged: column('Ground Speed'), ratio: column('Speed ratio'), doubled: column('Speed ratio x2') };
    };
    const at4 = await arrow();
    expect(at4.logged).toEqual(groundSpeed);
    expect(at4.ratio).toEqual(over(4));
    expect(at4.doubled).toEqual(groundSpeed.map((v) => (v === null ? null : expect.closeTo((v / 4) * 2, 9))));
    // The JSON batch alike, and a changed value is the next batch's in both bodies.
    const json = ((await (await columns()).json()) as Json).channels as { name: string; samples: (number | null)[] }[];
    expect(json.map((c) => c.name)).toEqual(['Ground Speed', 'Speed ratio', 'Speed ratio x2']);
    expect(json[1]?.samples).toEqual(over(4));
    await set(`/Cars/${car}`, 'Ratio', '5');
    expect((await arrow()).ratio).toEqual(over(5));
  }, 60_000);

  test('when lap statistics read the channel, then its figures are those of the current value', async () => {
    await set(`/Cars/${car}`, 'Ratio', '4');
    await set(`/RunSheets/${runSheet}`, 'SetupId', null);
    const stats = async () => {
      const r = await send('POST', `${dataset()}/lapstats`, { channels: ['Ground Speed', 'Speed ratio'] });
      const body = (await r.json()) as Json;
      expect({ status: r.status, body: r.status === 200 ? undefined : body }).toEqual({ status: 200, body: undefined });
      return body.laps[1].channels as { max: number }[];
    };
    const [logged, ratio] = await stats();
    expect(ratio?.max).toBeCloseTo((logged?.max as number) / 4, 9);
    await set(`/Cars/${car}`, 'Ratio', '2');
    expect((await stats())[1]?.max).toBeCloseTo((logged?.max as number) / 2, 9);
  }, 60_000);

  test('when no entity of the file\'s chain holds the parameter, then its read is a 422 naming the parameter and the entities looked at, and the metadata does not list it', async () => {
    const other = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    const otherCar = started.attached.ownersOf(other).carId;
    await set(`/RunSheets/${other}`, 'Name', 'Run 12-3');
    await set(`/Cars/${otherCar}`, 'Name', 'Demo');
    const r = await channel('Speed ratio', other);
    const body = (await r.json()) as Json;
    const reason = `math channel Speed ratio reads param("Ratio"), which none of RunSheets ${other} ("Run 12-3"), Cars ${otherCar} ("Demo") holds as a number (a Double, Integer or Boolean parameter)`;
    expect({ status: r.status, errors: body.errors, detail: body.detail }).toEqual({ status: 422, errors: { channel: [reason] }, detail: `The data file could not be read: RunSheets ${other} dataset 'DataFile': ${reason}` });
    const listed = async (id: string) => (((await (await fetch(`${started.base}${dataset(id)}/metadata`, { headers: headers() })).json()) as Json).channels as { name: string }[]).map((c) => c.name);
    expect(await listed(other)).not.toContain('Speed ratio');
    expect(await listed(runSheet)).toContain('Speed ratio');
    // Held on its car: listed and read.
    await set(`/Cars/${otherCar}`, 'Ratio', '3');
    expect(await listed(other)).toContain('Speed ratio');
    expect((await read('Speed ratio', other)).samples).toEqual(over(3));
  }, 60_000);

  test('when the run sheet names a Setup of another car, then that setup\'s value is never used: the run\'s own car\'s is, and with none the 422 says the setup is of another car', async () => {
    const run = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    const { eventId, carId: demo } = started.attached.ownersOf(run);
    await set(`/RunSheets/${run}`, 'Name', 'Run 88-1');
    // GT3 #88, entered in the same event, with a setup of its own whose ratio is 18.
    const gt3 = await created('/Cars', 'GT3 #88');
    await created(`/EventCars?eventId=${eventId}&carId=${gt3}`, 'GT3 #88 entry');
    const theirs = await created(`/Setups?eventId=${eventId}&carId=${gt3}`, '88 quali', [{ Name: 'Ratio', Value: '18' }]);
    // The API takes the reference (it checks that the setup is the account's, not whose car it is).
    await set(`/RunSheets/${run}`, 'SetupId', theirs);
    const r = await channel('Speed ratio', run);
    const body = (await r.json()) as Json;
    const demoName = ((await (await fetch(`${started.base}/Cars/${demo}`, { headers: headers() })).json()) as Json).Parameters.Name;
    const reason = `math channel Speed ratio reads param("Ratio"), which none of RunSheets ${run} ("Run 88-1"), Cars ${demo} (${JSON.stringify(demoName)}) holds as a number (a Double, Integer or Boolean parameter); the Setup ${theirs} ("88 quali") that RunSheets ${run} ("Run 88-1") names as its SetupId is of another car (Cars ${gt3}), so its values are not used`;
    expect({ status: r.status, errors: body.errors }).toEqual({ status: 422, errors: { channel: [reason] } });
    // The run's own car holding it: its value, never GT3 #88's setup's.
    await set(`/Cars/${demo}`, 'Ratio', '3');
    const read3 = await read('Speed ratio', run);
    expect(read3.samples).toEqual(over(3));
  }, 60_000);

  test('when a math channel reads a parameter, then the JSON record, the Arrow field and the metadata entry say which value it used and from which entity, and the same value taken from another entity is a new answer', async () => {
    await set(`/Cars/${car}`, 'Ratio', '4');
    await set(`/Cars/${car}`, 'Enabled', 'true');
    await set(`/RunSheets/${runSheet}`, 'SetupId', null);
    await set(`/RunSheets/${runSheet}`, 'Ratio', null);
    const fromCar = [{ name: 'Ratio', value: 4, from: `Cars ${car}` }];
    const record = async (name: string) => {
      const r = await channel(name);
      expect(r.status).toBe(200);
      return (await r.json()) as Json;
    };
    expect((await record('Speed ratio')).parameters).toEqual(fromCar);
    // Through another definition too; a logged channel's record has none.
    expect((await record('Speed ratio x2')).parameters).toEqual(fromCar);
    expect(await record('Ground Speed')).not.toHaveProperty('parameters');
    // A batch's records alike, each its own.
    const batch = await send('POST', `${dataset()}/channels`, { channels: ['Ground Speed', 'Speed ratio', 'Speed if enabled'], mode: 0 });
    const records = ((await batch.json()) as Json).channels as Json[];
    expect(records.map((c) => c.parameters)).toEqual([undefined, fromCar, [{ name: 'Enabled', value: 1, from: `Cars ${car}` }]]);
    // The Arrow field's metadata: the same list, as JSON.
    const arrow = await fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json', Accept: 'application/vnd.apache.arrow.stream' }), body: JSON.stringify({ channels: ['Ground Speed', 'Speed ratio'], mode: 0 }) });
    const fields = tableFromIPC(new Uint8Array(await arrow.arrayBuffer())).schema.fields;
    expect(JSON.parse(fields.find((f) => f.name === 'Speed ratio')?.metadata.get('parameters') ?? 'null')).toEqual(fromCar);
    expect(fields.find((f) => f.name === 'Ground Speed')?.metadata.has('parameters')).toBe(false);
    // The metadata's catalogue entry: what a read of it takes now.
    const catalogue = async () => ((await (await fetch(`${started.base}${dataset()}/metadata`, { headers: headers() })).json()) as Json).channels as Json[];
    const entry = (entries: Json[], name: string) => entries.find((c) => c.name === name);
    expect(entry(await catalogue(), 'Speed ratio').parameters).toEqual(fromCar);
    expect(entry(await catalogue(), 'Ground Speed')).not.toHaveProperty('parameters');

    // A setup of the run's car named by the run sheet, holding the same value: the values are the same, where they
    // come from is not, and the answer says so (not the one kept or held for the car's).
    const { eventId } = started.attached.ownersOf(runSheet);
    const setup = await created(`/Setups?eventId=${eventId}&carId=${car}`, 'Same ratio', [{ Name: 'Ratio', Value: '4' }]);
    await set(`/RunSheets/${runSheet}`, 'SetupId', setup);
    const moved = await read('Speed ratio');
    expect(moved.samples).toEqual(over(4));
    expect(moved.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    const fromSetup = [{ name: 'Ratio', value: 4, from: `Setups ${setup}` }];
    expect((await record('Speed ratio')).parameters).toEqual(fromSetup);
    expect(entry(await catalogue(), 'Speed ratio').parameters).toEqual(fromSetup);
    await set(`/RunSheets/${runSheet}`, 'SetupId', null);

    // A ratio of 0 as the divisor: a channel of gaps (as docs/math-channels.md says), whose record shows the cause.
    await set(`/Cars/${car}`, 'Ratio', '0');
    const zero = await record('Speed ratio');
    expect(zero.samples.every((v: number | null) => v === null)).toBe(true);
    expect(zero.parameters).toEqual([{ name: 'Ratio', value: 0, from: `Cars ${car}` }]);
  }, 60_000);

  test('when a channel reads several parameters the file\'s chain lacks, then its 422 names each of them', async () => {
    await defineMathChannel(started, { Name: 'Steer wheel', Expression: '"Ground Speed" / param("SteeringRatio") * param("Ratio") + param("RackTravel")', Unit: 'deg' });
    await set(`/Cars/${car}`, 'Ratio', '4');
    const r = await channel('Steer wheel');
    const body = (await r.json()) as Json;
    expect(r.status).toBe(422);
    expect(body.errors.channel).toEqual([expect.stringMatching(/^math channel Steer wheel reads param\("SteeringRatio"\) and param\("RackTravel"\), which none of RunSheets /)]);
  }, 60_000);

  test('when a definition gives param anything but a parameter\'s name in quotes, then the write is a 400 naming the character', async () => {
    const r = await send('POST', '/MathChannels', { ParameterUpdates: [{ Name: 'Name', Value: 'Bad param' }, { Name: 'Expression', Value: '"Ground Speed" / param(Throttle)' }] });
    expect(r.status).toBe(400);
    expect(((await r.json()) as Json).errors).toEqual({ Expression: ['at character 23: param\'s argument must be a parameter\'s name in quotes, as param("Ratio") (not a channel, a number or an expression)'] });
  });
});
