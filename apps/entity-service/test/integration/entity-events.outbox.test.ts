import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createOutbox, type Outbox, type OutboxTiming, type PublishMessage } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';

const silent = pino({ level: 'silent' });
let db: TestDatabase;
let pool: pg.Pool;
const outboxes: Outbox<EntityChangedEvent>[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'entity-service-test', logger: silent });
  await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });
});
afterEach(async () => {
  for (const o of outboxes.splice(0)) await o.stop();
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

interface Published {
  routingKey: string;
  event: EntityChangedEvent;
  headers: Record<string, string>;
}

/** A broker stand-in: records what it confirms; while `down`, refuses like an unreachable one. */
function broker() {
  const published: Published[] = [];
  const state = { down: false };
  const publish: PublishMessage<EntityChangedEvent> = async (routingKey, event, headers) => {
    if (state.down) throw new Error('broker unreachable');
    published.push({ routingKey, event, headers });
  };
  return { published, state, publish, of: (accountId: string) => published.filter((p) => p.event.accountId === accountId) };
}

/** The entity-service's outbox: the messaging lib's, on the entity schema. */
function outbox(publish: PublishMessage<EntityChangedEvent>, options: OutboxTiming = {}): Outbox<EntityChangedEvent> {
  const o = createOutbox({ pool, schema: ENTITY_SCHEMA, publish, logger: silent, ...options });
  outboxes.push(o);
  return o;
}

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });
const named = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });
/** Waits for the publications the writes detached (a write answers at its commit, before them). */
const settled = () => Promise.all(outboxes.map((o) => o.settled()));
const pending = async (accountId: string) =>
  Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM entity.outbox WHERE payload->>'accountId' = $1`, [accountId])).rows[0]?.n);

describe('entity events through the outbox', () => {
  test('when a write commits, then it answers before its events are confirmed, and stop waits for their publication', async () => {
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const b = broker();
    const o = outbox(async (key, event, headers) => {
      await confirmed;
      await b.publish(key, event, headers);
    });
    const store = new EntityStore(pool, o);
    const caller = admin();

    const created = JSON.parse((await store.create(caller, 'Championships', {}, named('Series'))).json.toString('utf8'));
    let stopped = false;
    const stopping = o.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));

    expect(created.Id).toEqual(expect.any(String));
    expect(b.of(caller.accountId)).toEqual([]);
    expect(await pending(caller.accountId)).toBe(1);
    expect(stopped).toBe(false);
    confirm();
    await stopping;
    expect(b.of(caller.accountId).map((p) => p.routingKey)).toEqual(['entity.Championship.created']);
    expect(await pending(caller.accountId)).toBe(0);
  });

  test('when a write commits, then its events are published with the request id, and none are left', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish), undefined, () => ({ requestId: 'req-77' }));
    const caller = admin();

    const created = JSON.parse((await store.create(caller, 'Championships', {}, named('Series'))).json.toString('utf8'));
    await settled();

    expect(b.of(caller.accountId)).toEqual([
      { routingKey: 'entity.Championship.created', event: expect.objectContaining({ action: 'created', entityId: created.Id, changedParameters: ['Name'] }), headers: { requestId: 'req-77', messageId: expect.stringMatching(/^[0-9a-f-]{36}$/) } },
    ]);
    expect(await pending(caller.accountId)).toBe(0);
  });

  test('when an update changes nothing (no update, the same values in any order), then the entity keeps its modification time, a guarded update with it still goes, and no event is sent; a real change moves it', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish));
    const caller = admin();
    const created = JSON.parse((await store.create(caller, 'Drivers', {}, { ParameterUpdates: [{ Name: 'Name', Value: 'Ann' }, { Name: 'ShortName', Value: 'ANN' }] })).json.toString('utf8'));
    await settled();
    const modifiedAt = async () => (await store.get(caller, 'Drivers', created.Id)).lastModifiedTime;
    const first = await modifiedAt();
    b.published.length = 0;

    for (const body of [{}, { ParameterUpdates: [] }, named('Ann'), { ParameterUpdates: [{ Name: 'ShortName', Value: 'ANN' }, { Name: 'Name', Value: 'Ann' }] }]) {
      const answer = await store.update(caller, 'Drivers', created.Id, body);
      expect(answer.lastModifiedTime).toBe(first);
      expect(JSON.parse(answer.json.toString('utf8')).Parameters).toMatchObject({ Name: 'Ann', ShortName: 'ANN' });
    }
    await settled();
    expect(await modifiedAt()).toBe(first);
    expect(b.of(caller.accountId)).toEqual([]);

    const changed = await store.update(caller, 'Drivers', created.Id, { LastModifiedTimeMaxAllowedValue: first, ParameterUpdates: [{ Name: 'Name', Value: 'Anna' }] });
    await settled();
    expect(Date.parse(changed.lastModifiedTime as string)).toBeGreaterThan(Date.parse(first as string));
    expect(b.of(caller.accountId).map((p) => [p.routingKey, p.event.changedParameters])).toEqual([['entity.Driver.updated', ['Name']]]);
  });

  test('when a write is rejected, then nothing is published and nothing is left to publish', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish));
    const caller = admin();

    const error = await store.create(caller, 'Events', { championshipId: randomUUID() }, named('Monza')).catch((err: unknown) => err);
    await settled();

    expect(error).toMatchObject({ status: 404 });
    expect(b.of(caller.accountId)).toEqual([]);
    expect(await pending(caller.accountId)).toBe(0);
  });

  test('when the broker is down at the commit, then the write still answers and its events go out once it is back', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish, { retryIntervalMs: 50, staleAfterMs: 0 }));
    const caller = admin();
    b.state.down = true;

    const created = JSON.parse((await store.create(caller, 'Cars', {}, named('Car 7'))).json.toString('utf8'));
    await store.update(caller, 'Cars', created.Id, named('Car 7B'));
    await settled();
    expect(b.of(caller.accountId)).toEqual([]);
    expect(await pending(caller.accountId)).toBe(2);

    b.state.down = false;
    outboxes[0]?.start();
    for (const until = Date.now() + 5000; (b.of(caller.accountId).length < 2 || (await pending(caller.accountId)) > 0) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));

    expect(b.of(caller.accountId).map((p) => p.routingKey)).toEqual(['entity.Car.created', 'entity.Car.updated']);
    expect(await pending(caller.accountId)).toBe(0);
  });

  test('when an instance stopped between commit and publish, then another instance publishes what it left', async () => {
    const dead = broker();
    dead.state.down = true;
    const caller = admin();
    await new EntityStore(pool, outbox(dead.publish)).create(caller, 'Drivers', {}, named('A. Driver'));
    await outboxes[0]?.stop();

    const b = broker();
    outbox(b.publish, { staleAfterMs: 0 }).start();
    for (const until = Date.now() + 5000; (b.of(caller.accountId).length < 1 || (await pending(caller.accountId)) > 0) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));

    expect(b.of(caller.accountId).map((p) => p.routingKey)).toEqual(['entity.Driver.created']);
    expect(await pending(caller.accountId)).toBe(0);
  });

  test('when a write makes many events, then they are published in the order it made them', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish));
    const caller = admin();
    const json = (r: { json: Buffer }) => JSON.parse(r.json.toString('utf8'));
    const championship = json(await store.create(caller, 'Championships', {}, named('Series')));
    for (const round of ['Monza', 'Spa', 'Imola']) {
      const event = json(await store.create(caller, 'Events', { championshipId: championship.Id }, named(round)));
      await store.create(caller, 'Sessions', { eventId: event.Id }, named('FP1'));
    }
    await settled();
    const before = b.of(caller.accountId).length;
    await store.create(caller, 'Championships', {}, { CopyFromId: championship.Id, CopyAll: true, ParameterUpdates: [] });
    await settled();

    // The copy first, then its events, then their sessions: parents always before their children.
    expect(b.of(caller.accountId).slice(before).map((p) => p.routingKey)).toEqual([
      'entity.Championship.created',
      ...Array(3).fill('entity.Event.created'),
      ...Array(3).fill('entity.Session.created'),
    ]);
  });

  test('when a referenced entity is deleted, then the entities whose references it clears publish updated events naming them', async () => {
    const b = broker();
    const store = new EntityStore(pool, outbox(b.publish));
    const caller = admin();
    const json = (r: { json: Buffer }) => JSON.parse(r.json.toString('utf8'));
    const championship = json(await store.create(caller, 'Championships', {}, named('Series')));
    const event = json(await store.create(caller, 'Events', { championshipId: championship.Id }, named('Monza')));
    const car = json(await store.create(caller, 'Cars', {}, named('Car 7')));
    await store.create(caller, 'EventCars', { eventId: event.Id, carId: car.Id }, { ParameterUpdates: [] });
    const session = json(await store.create(caller, 'Sessions', { eventId: event.Id }, named('FP1')));
    const driver = json(await store.create(caller, 'Drivers', {}, named('A. Driver')));
    const runSheet = json(await store.create(caller, 'RunSheets', { sessionId: session.Id, carId: car.Id }, { ParameterUpdates: [{ Name: 'DriverId', Value: driver.Id }] }));
    await settled();
    const before = b.of(caller.accountId).length;

    await store.delete(caller, 'Drivers', driver.Id);
    await settled();

    expect(b.of(caller.accountId).slice(before).map((p) => [p.routingKey, p.event.entityId, p.event.changedParameters])).toEqual([
      ['entity.Driver.deleted', driver.Id, []],
      ['entity.RunSheet.updated', runSheet.Id, ['DriverId']],
    ]);
  });
  // How the outbox itself retries (two instances at once, fresh rows left to their writer): libs/messaging/test.
});
