import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { requestContext } from '../src';

describe('requestContext (X-Request-Id)', () => {
  const app = express();
  app.use(requestContext(pino({ level: 'silent' })));
  app.get('/', (req, res) => res.json({ requestId: req.requestId }));

  test.each([
    ['trace-me-123', 'trace-me-123'],
    ['Root=1-5759e988-bd862e3fe1be46a994272793', 'Root=1-5759e988-bd862e3fe1be46a994272793'],
    ['feed/car7/000123', 'feed/car7/000123'],
    ['has space', 'has space'],
    ['1,024 characters', 'x'.repeat(1024)],
  ])(
    'when the request carries %s, then the answer and the request echo it as sent',
    async (_what, id) => {
      const res = await request(app).get('/').set('X-Request-Id', id);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.body).toEqual({ requestId: id });
    },
  );

  test.each([['none', undefined], ['one too long', 'x'.repeat(1025)], ['a tab in it', 'a\tb'], ['a byte outside ASCII', 'caf\u00e9']])('when the request id is %s, then a fresh one is generated', async (_what, id) => {
    const req = request(app).get('/');
    const res = await (id === undefined ? req : req.set('X-Request-Id', id));
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({ requestId: res.headers['x-request-id'] });
  });
});
