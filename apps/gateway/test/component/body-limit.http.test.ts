import { useEntityStack } from '../support/entity-stack';
import { send } from '../support/gateway-harness';

describe('POST /Championships under BODY_LIMIT (gateway and entity-service in-process)', () => {
  // A small limit, so that a body just over it is cheap to send.
  const env = useEntityStack({ BODY_LIMIT: '2kb' });

  const body = (name: string) => JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] });
  const names = async () => ((await (await fetch(`${env.base}/Championships`, { headers: env.headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test('when the JSON body is over BODY_LIMIT, then it is a 413 problem giving the limit and nothing is created', async () => {
    const name = `Large ${'x'.repeat(3 * 1024)}`;
    const res = await send(env.base, 'POST', '/Championships', { body: body(name), headers: env.headers });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, detail: expect.stringContaining('limit of 2048 bytes') });
    expect(await names()).not.toContain(name);
  });

  test('when the JSON body is under BODY_LIMIT, then it is created', async () => {
    const name = `Small ${'x'.repeat(1024)}`;
    const res = await send(env.base, 'POST', '/Championships', { body: body(name), headers: env.headers });
    expect(res.status).toBe(201);
    expect(await names()).toContain(name);
  });
});

describe('POST /Championships with a Content-Encoding its bytes are not in (gateway and entity-service in-process)', () => {
  const env = useEntityStack();

  const names = async () => ((await (await fetch(`${env.base}/Championships`, { headers: env.headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test.each(['gzip', 'deflate', 'br', 'zstd'])('when a body sent as %s is plain JSON, then a 400 names Content-Encoding and nothing is created', async (encoding) => {
    const name = `Not ${encoding} ${Date.now()}`;
    const res = await send(env.base, 'POST', '/Championships', { body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }), headers: { ...env.headers, 'Content-Encoding': encoding } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = JSON.parse(res.body);
    expect(problem.detail).toMatch(new RegExp(`^The request body is not valid ${encoding} \\(Content-Encoding: ${encoding}\\): .+`));
    expect(problem.errors).toEqual({ 'Content-Encoding': [expect.stringContaining(`is ${encoding}, and the body does not decompress`)] });
    expect(await names()).not.toContain(name);
  });
});

describe('POST /Championships with a Content-Encoding or charset the gateway does not read (gateway and entity-service in-process)', () => {
  const env = useEntityStack();

  const names = async () => ((await (await fetch(`${env.base}/Championships`, { headers: env.headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test.each([
    [
      'Content-Encoding: compress',
      { 'Content-Encoding': 'compress' },
      "The request body's Content-Encoding compress is not supported: send it as gzip, deflate, br, zstd, or none (identity)",
      { 'Content-Encoding': ['is compress; the body may be gzip, deflate, br, zstd, or none (identity)'] },
    ],
    [
      'Content-Type: application/json; charset=latin1',
      { 'Content-Type': 'application/json; charset=latin1' },
      "The request body's charset latin1 is not supported: send JSON in UTF-8 (Content-Type: application/json, or charset=utf-8)",
      { 'Content-Type': ['charset latin1 is not supported; JSON is UTF-8'] },
    ],
  ])('when a JSON body comes with %s, then it is a 415 problem saying what to send instead, and nothing is created', async (_what, headers, detail, errors) => {
    const name = `Unread ${Date.now()} ${Math.random()}`;
    const res = await send(env.base, 'POST', '/Championships', { body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }), headers: { ...env.headers, ...headers } });
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 415, detail, errors });
    expect(await names()).not.toContain(name);
  });
});

describe('POST /Championships whose JSON gives one name twice in an object (gateway and entity-service in-process)', () => {
  const env = useEntityStack();

  const names = async () => ((await (await fetch(`${env.base}/Championships`, { headers: env.headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test.each([
    ['the top object', (a: string, b: string) => `{"ParameterUpdates":[{"Name":"Name","Value":"${a}"}],"ParameterUpdates":[{"Name":"Name","Value":"${b}"}]}`, 'ParameterUpdates'],
    ['an item of a list', (a: string, b: string) => `{"ParameterUpdates":[{"Name":"Name","Value":"${a}","Value":"${b}"}]}`, 'Value'],
    ['an item, once escaped', (a: string, b: string) => `{"ParameterUpdates":[{"Name":"Name","Value":"${a}","\\u0056alue":"${b}"}]}`, 'Value'],
  ])('when %s gives a name twice, then it is a 400 naming it (the parser would keep the last value silently) and nothing is created', async (_where, json, twice) => {
    const [first, second] = [`First ${Date.now()}`, `Second ${Date.now()}`];
    const res = await send(env.base, 'POST', '/Championships', { body: json(first, second), headers: env.headers });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({
      status: 400,
      detail: `The request body gives the name "${twice}" twice in one object: the parser would keep the last value and silently drop the other; give it once`,
    });
    const stored = await names();
    expect(stored).not.toContain(first);
    expect(stored).not.toContain(second);
  });

  test('when the same name appears once in each of several objects, then the body is read as usual', async () => {
    const name = `Once each ${Date.now()}`;
    const res = await send(env.base, 'POST', '/Championships', { body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Description', Value: '"Name":"x","Name"' }] }), headers: env.headers });
    expect(res.status).toBe(201);
    expect(await names()).toContain(name);
  });
});
