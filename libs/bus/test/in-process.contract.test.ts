import { createLogger } from '@pitwall/service-kit';
import { InProcessBroker, InProcessBus, MAX_DEAD_LETTERS } from '../src';
import { busContract } from '../src/testing';

const broker = new InProcessBroker();
const logger = createLogger('bus-test');

busContract('in-process', () => new InProcessBus({ broker, prefix: 'test.', logger }));

describe('the in-process broker: dead letters', () => {
  test('when more events are given up than it keeps, then it keeps the last MAX_DEAD_LETTERS, oldest first', async () => {
    const own = new InProcessBroker();
    const bus = new InProcessBus({ broker: own, prefix: 'dlq-test.', logger, maxDeliveries: 1 });
    let seen = 0;
    const all = MAX_DEAD_LETTERS + 5;
    await bus.subscribe('things', 'poison', ['thing.#'], async () => {
      seen++;
      throw new Error('never handled');
    });
    for (let i = 0; i < all; i++) await bus.publish('things', 'thing.made', { i });
    for (let tries = 0; tries < 500 && own.deadLettered().length < MAX_DEAD_LETTERS; tries++) await new Promise((r) => setTimeout(r, 10));
    for (let tries = 0; tries < 500 && seen < all; tries++) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toBe(all);
    const kept = own.deadLettered();
    expect(kept).toHaveLength(MAX_DEAD_LETTERS);
    expect(kept[0]?.payload).toEqual({ i: 5 });
    expect(kept[MAX_DEAD_LETTERS - 1]?.payload).toEqual({ i: all - 1 });
    await bus.close();
  });
});
