import { fixture } from '../support/fixtures';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * MAX_MATH_PARAMS (docs/math-channels.md): the distinct parameters a math channel reads with param(), through the
 * definitions it reads, add up along a chain; the entity-service refuses a write past its bound (6 here), the
 * datafile-service a read past its own (4 here, lower, so that a channel stored within the first is past the second).
 */
describe('param() names read through chains of math channels: bounded on write and on read (MAX_MATH_PARAMS)', () => {
  const started = useDatafileStack('datafile-param-bounds-', { MAX_MATH_PARAMS: '6' }, { datafileEnv: { MAX_MATH_PARAMS: '4' } });
  let runSheet: string;

  const send = (method: string, path: string, body?: unknown) => fetch(`${started.base}${path}`, { method, headers: { ...started.headers, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const dataset = () => `/RunSheets/${runSheet}/DataFileAccess/DataFile`;
  const answer = async (r: Promise<Response>) => {
    const response = await r;
    return { status: response.status, body: (await response.json()) as Json };
  };
  const bound = (name: string, max: number) => `math channel ${name} reads more than ${max} distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is ${max})`;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld'));
    const { carId } = started.attached.ownersOf(runSheet);
    const names = ['P1', 'P2', 'P3', 'P4', 'P5'];
    for (const Name of names) {
      const r = await send('POST', '/ParameterDefinitions', { ParameterUpdates: [{ Name: 'Name', Value: Name }, { Name: 'EntityType', Value: 'Cars' }, { Name: 'ParameterType', Value: 'Double' }] });
      expect(r.status).toBe(201);
    }
    // Every parameter held on the car: what is refused below is refused for the bound alone.
    const held = await send('PUT', `/Cars/${carId}`, { ParameterUpdates: names.map((Name, i) => ({ Name, Value: String(i + 1) })) });
    expect(held.status).toBeLessThan(300);
    await defineMathChannel(started, { Name: 'A', Expression: '"Ground Speed" * (param("P1") + param("P2"))', Unit: 'km/h' });
    await defineMathChannel(started, { Name: 'B', Expression: 'A + param("P3") + param("P4")', Unit: 'km/h' });
    await defineMathChannel(started, { Name: 'C', Expression: 'B * param("P5")', Unit: 'km/h' });
    await defineMathChannel(started, { Name: 'E', Expression: '"Ground Speed" * param("P5")', Unit: 'km/h' });
  }, 90_000);

  test('when a definition would read more through the ones it reads than the entity-service\'s bound, then the write is a 400 naming MAX_MATH_PARAMS', async () => {
    const r = await answer(send('POST', '/MathChannels', { ParameterUpdates: [{ Name: 'Name', Value: 'D' }, { Name: 'Expression', Value: 'C + param("P6") + param("P7")' }, { Name: 'Unit', Value: 'km/h' }] }));
    expect(r).toMatchObject({ status: 400, body: { errors: { Expression: ['the math channel would read more than 6 distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is 6)'] } } });
  });

  test('when a channel reads more through a chain than the datafile-service\'s bound, then its read is a 422 naming MAX_MATH_PARAMS and the metadata leaves it out', async () => {
    const r = await answer(send('GET', `${dataset()}/channel?channel=C`));
    expect({ status: r.status, errors: r.body.errors, detail: r.body.detail }).toEqual({ status: 422, errors: { channel: [bound('C', 4)] }, detail: `The data file could not be read: RunSheets ${runSheet} dataset 'DataFile': ${bound('C', 4)}` });
    const metadata = await answer(send('GET', `${dataset()}/metadata`));
    const listed = (metadata.body.channels as { name: string; group?: string }[]).filter((c) => c.group === 'Math').map((c) => c.name);
    expect(listed).toEqual(['A', 'B', 'E']);
    expect((await answer(send('POST', `${dataset()}/channels`, { channels: ['B'], mode: 0 }))).status).toBe(200);
  });

  test('when the channels of one read need more together than the bound, then the read is a 422 naming MAX_MATH_PARAMS on channels (the read as a whole), naming the channel that brings them past it', async () => {
    const r = await answer(send('POST', `${dataset()}/channels`, { channels: ['Ground Speed', 'B', 'E'], mode: 0 }));
    const reason = 'the math channels of this read need more than 4 distinct parameters with param() together (MAX_MATH_PARAMS is 4): read E in a read of its own or with fewer channels';
    expect({ status: r.status, errors: r.body.errors }).toEqual({ status: 422, errors: { channels: [reason] } });
    expect((await answer(send('POST', `${dataset()}/channels`, { channels: ['E'], mode: 0 }))).status).toBe(200);
  });
});
