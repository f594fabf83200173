import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';
import { send } from '../support/gateway-harness';

describe('POST /Championships under BODY_LIMIT (gateway and entity-service in-process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-body-limit-'));
  let stack: InProcessStack;
  let base: string;
  let headers: Record<string, string>;
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    // A small limit, so that a body just over it is cheap to send.
    const running = await stack.start(gateway, { BODY_LIMIT: '2kb' });
    base = running.address;
    const demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const body = (name: string) => JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] });
  const names = async () => ((await (await fetch(`${base}/Championships`, { headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test('when the JSON body is over BODY_LIMIT, then it is a 413 problem giving the limit and nothing is created', async () => {
    const name = `Large ${'x'.repeat(3 * 1024)}`;
    const res = await send(base, 'POST', '/Championships', { body: body(name), headers });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, detail: expect.stringContaining('limit of 2048 bytes') });
    expect(await names()).not.toContain(name);
  });

  test('when the JSON body is under BODY_LIMIT, then it is created', async () => {
    const name = `Small ${'x'.repeat(1024)}`;
    const res = await send(base, 'POST', '/Championships', { body: body(name), headers });
    expect(res.status).toBe(201);
    expect(await names()).toContain(name);
  });
});

describe('POST /Championships with a Content-Encoding its bytes are not in (gateway and entity-service in-process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-body-encoding-'));
  let stack: InProcessStack;
  let base: string;
  let headers: Record<string, string>;
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    const running = await stack.start(gateway);
    base = running.address;
    const demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async () => ((await (await fetch(`${base}/Championships`, { headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test.each(['gzip', 'deflate', 'br', 'zstd'])('when a body sent as %s is plain JSON, then a 400 names Content-Encoding and nothing is created', async (encoding) => {
    const name = `Not ${encoding} ${Date.now()}`;
    const res = await send(base, 'POST', '/Championships', { body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }), headers: { ...headers, 'Content-Encoding': encoding } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = JSON.parse(res.body);
    expect(problem.detail).toMatch(new RegExp(`^The request body is not valid ${encoding} \\(Content-Encoding: ${encoding}\\): .+`));
    expect(problem.errors).toEqual({ 'Content-Encoding': [expect.stringContaining(`is ${encoding}, and the body does not decompress`)] });
    expect(await names()).not.toContain(name);
  });
});
