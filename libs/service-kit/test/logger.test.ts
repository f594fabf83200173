import { PassThrough } from 'node:stream';
import { createLogger, errorFields, holdInfoLogs, logFormat } from '../src/logger';

/** The lines a logger writes, as text. */
function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('logFormat (LOG_FORMAT)', () => {
  test('when it is unset, then a terminal gets pretty lines and anything else JSON', () => {
    expect(logFormat(undefined, true)).toBe('pretty');
    expect(logFormat(undefined, false)).toBe('json');
    expect(logFormat('', true)).toBe('pretty');
  });

  test('when it is set, then it wins over the terminal check', () => {
    expect(logFormat('json', true)).toBe('json');
    expect(logFormat('pretty', false)).toBe('pretty');
  });

  test('when it names no format, then the start fails naming the variable and the choices', () => {
    expect(() => logFormat('yaml', true)).toThrow(new Error('Invalid configuration:\n  LOG_FORMAT: must be one of json, pretty'));
  });
});

describe('createLogger', () => {
  test('when LOG_LEVEL names no level, then the start fails naming the variable and the choices, not the value', () => {
    expect(() => createLogger('gateway', 'verbose', 'json')).toThrow(new Error('Invalid configuration:\n  LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent'));
  });

  test('when the format is json, then each line is one JSON object with the app', () => {
    const out = capture();
    createLogger('gateway', 'info', 'json', out.stream).info({ path: '/health' }, 'request');
    expect(JSON.parse(out.text())).toMatchObject({ app: 'gateway', path: '/health', msg: 'request', level: 30 });
  });

  test('when the format is pretty, then the line is text with the level, the app and the message', () => {
    const out = capture();
    createLogger('gateway', 'info', 'pretty', out.stream).info({ path: '/health' }, 'request');
    expect(out.text()).toMatch(/INFO.*\(gateway\): request/);
    expect(out.text()).toContain('path: "/health"');
    expect(() => JSON.parse(out.text())).toThrow();
  });

  test("when every app of one process logs pretty to the same terminal, then they share one stream (no listener per app: Node's leak warning came at eleven) and each line names its app", () => {
    const one = capture();
    createLogger('alone', 'info', 'pretty', one.stream).info('started');
    const out = capture();
    const apps = Array.from({ length: 12 }, (_, i) => `app-${i}`);
    for (const app of apps) createLogger(app, 'info', 'pretty', out.stream).info('started');
    expect(out.stream.listenerCount('close')).toBe(one.stream.listenerCount('close'));
    for (const app of apps) expect(out.text()).toContain(`(${app}): started`);
  });

  test('when info lines are held, then only warnings and errors show until released', () => {
    const out = capture();
    const logger = createLogger('standalone', 'info', 'json', out.stream);
    const release = holdInfoLogs();
    logger.info('migration applied');
    logger.warn('slow');
    release();
    logger.info('after');
    expect(out.text().trim().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['slow', 'after']);
  });
});

describe('errorFields', () => {
  test('when an error carries a driver object (a pg error\'s client), then only its message and code are given', () => {
    const err = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', client: { secretKey: 123456, processID: 42 } });
    expect(errorFields(err)).toEqual({ reason: 'terminating connection due to administrator command', code: '57P01' });
  });

  test('when an AggregateError has no message of its own (a refused dual-stack connect), then the reason is its first error\'s', () => {
    const err = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], ''), { code: 'ECONNREFUSED' });
    expect(errorFields(err)).toEqual({ reason: 'connect ECONNREFUSED ::1:5432', code: 'ECONNREFUSED' });
  });

  test('when an error has neither a message nor inner errors, then the reason is its code, else its name', () => {
    expect(errorFields(Object.assign(new Error(''), { code: 'ECONNRESET' }))).toEqual({ reason: 'ECONNRESET', code: 'ECONNRESET' });
    expect(errorFields(new TypeError(''))).toEqual({ reason: 'TypeError' });
  });

  test('when what was thrown is not an Error, then it is the reason as text, without a code', () => {
    expect(errorFields('gone')).toEqual({ reason: 'gone' });
  });
});
