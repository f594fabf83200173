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
