import type { BusEvent } from '@pitwall/bus';
import { AppError, createLogger } from '@pitwall/service-kit';
import { holdWhileUnavailable, isUnavailable } from '../../src/hold-while-unavailable';

const logger = createLogger('hold-test', 'silent');
const event: BusEvent = { exchange: 'simulation.jobs', routingKey: 'job.trigger', payload: { jobId: 'j1' }, headers: {}, redelivered: false };
/** node-postgres' words when the server ends the connection under a statement. */
const connectionTerminated = () => new Error('Connection terminated unexpectedly');

describe('an event handler that keeps its event while a dependency is unavailable', () => {
  test('when the handler fails with 503s, a lost database connection and a 504 before it succeeds, then it is run again each time and the event is handled, not handed back', async () => {
    const failures: unknown[] = [AppError.unavailable('The entity service has no running instance'), connectionTerminated(), new AppError(504, 'outcome unknown')];
    let runs = 0;
    const handler = holdWhileUnavailable(
      async () => {
        runs++;
        const failure = failures.shift();
        if (failure) throw failure;
      },
      { logger, queue: 'simulation.jobs', signal: new AbortController().signal, firstDelayMs: 20 },
    );
    await expect(handler(event)).resolves.toBeUndefined();
    expect(runs).toBe(4);
  });

  test('when the handler fails otherwise (a bug, a refusal), then that failure is thrown at once, to be redelivered up to the limit', async () => {
    for (const failure of [new TypeError('x is undefined'), new AppError(422, 'bad job'), new AppError(500, 'An unexpected error occurred')]) {
      let runs = 0;
      const handler = holdWhileUnavailable(
        async () => {
          runs++;
          throw failure;
        },
        { logger, queue: 'q', signal: new AbortController().signal, firstDelayMs: 20 },
      );
      await expect(handler(event)).rejects.toBe(failure);
      expect(runs).toBe(1);
    }
  });

  test('when the service stops while the event is held, then the last failure is thrown at once (the event goes back to its queue)', async () => {
    const stopping = new AbortController();
    const unavailable = AppError.unavailable('The database is busy');
    let runs = 0;
    const handler = holdWhileUnavailable(
      async () => {
        runs++;
        throw unavailable;
      },
      { logger, queue: 'q', signal: stopping.signal, firstDelayMs: 60_000 },
    );
    const held = handler(event);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Its next run is a minute away, past the test's timeout: only the stop can end it.
    stopping.abort();
    await expect(held).rejects.toBe(unavailable);
    expect(runs).toBe(1);
  });

  test('when the delivery held is lost (its channel closed: the broker gives the event again), then this hold ends at once with the last failure, while the service runs on', async () => {
    const stopping = new AbortController();
    const lost = new AbortController();
    const unavailable = AppError.unavailable('The entity service has no running instance');
    let runs = 0;
    const handler = holdWhileUnavailable(
      async () => {
        runs++;
        throw unavailable;
      },
      { logger, queue: 'q', signal: stopping.signal, firstDelayMs: 60_000 },
    );
    const held = handler({ ...event, signal: lost.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    lost.abort();
    await expect(held).rejects.toBe(unavailable);
    expect([runs, stopping.signal.aborted]).toEqual([1, false]);
    // A delivery already lost when its handler fails is not held at all.
    await expect(handler({ ...event, signal: lost.signal })).rejects.toBe(unavailable);
    expect(runs).toBe(2);
  });

  test('isUnavailable: 503 and 504 and a lost database connection are; 4xx, 500 and unknown errors are not', () => {
    expect([AppError.unavailable('x'), new AppError(504, 'x'), connectionTerminated(), Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })].map(isUnavailable)).toEqual([true, true, true, true]);
    expect([new AppError(400, 'x'), new AppError(409, 'x'), new AppError(500, 'x'), new Error('boom'), 'text'].map(isUnavailable)).toEqual([false, false, false, false, false]);
  });
});
