import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { markDependency, problemHandler, requestContext } from '@pitwall/service-kit';
import { InProcessBroker, InProcessBus } from '../src';

// A dependency's loss under a request (PostgreSQL refusing connections, say): the client is told to retry in words
// that name no internals; the log lines of the service that met it and of the caller that answered the client name
// the dependency and the cause in its own words, with the request id.
describe('a request answered with a server error because a dependency failed', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const broker = new InProcessBroker();
  const serving = new InProcessBus({ broker, prefix: 'cause.', logger });
  const calling = new InProcessBus({ broker, prefix: 'cause.', logger });
  const app = express();
  app.use(requestContext(logger));
  app.get('/thing', async (req) => {
    await calling.request('things', 'things.get', {}, { headers: { requestId: req.requestId } });
  });
  app.use(problemHandler(logger));

  beforeAll(async () => {
    await serving.serve('things', async () => {
      throw markDependency(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5432 }), 'PostgreSQL');
    });
  });
  afterAll(async () => {
    await calling.close();
    await serving.close();
  });

  test('when the service meets it, then the client gets a 503 naming neither, and both log lines name the dependency, the cause and the request id', async () => {
    const res = await request(app).get('/thing').set('X-Request-Id', 'cause-1');
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe('A connection the request needed was lost; the request was not completed, retry it');
    expect(res.text).not.toMatch(/ECONNREFUSED|5432|PostgreSQL|cause"/);
    const cause = { dependency: 'PostgreSQL', cause: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' };
    expect(lines.filter((l) => l['level'] === 40)).toEqual([
      expect.objectContaining({ msg: 'bus request answered with a server error', requestId: 'cause-1', status: 503, ...cause }),
      expect.objectContaining({ msg: 'request answered with a server error', requestId: 'cause-1', status: 503, ...cause }),
    ]);
  });
});
