import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox, type PublishMessage } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// ENTITY_COPY_MAX_ENTITIES: a CopyAll copies at most so many descendants; past it the create is a 413 that leaves nothing.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();
const MAX = 5;

function storeRecording(): { store: EntityStore; published: EntityChangedEvent[]; settled: () => Promise<void> } {
  const published: EntityChangedEvent[] = [];
  const publish: PublishMessage<EntityChangedEvent> = async (_key, event) => void published.push(event);
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish, logger: silent });
  return { store: new EntityStore(database.pool, outbox, undefined, undefined, { maxCopyEntities: MAX }), published, settled: () => outbox.settled() };
}

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });
const named = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });
const json = (r: { json: Buffer }) => JSON.parse(r.json.toString('utf8')) as { Id: string };

/** A run sheet whose laps have the given numbers of sectors (a lap and its sectors are its descendants). */
async function runSheetWith(store: EntityStore, caller: CallerContext, sectorsPerLap: number[]): Promise<{ sessionId: string; carId: string; runSheetId: string }> {
  const championship = json(await store.create(caller, 'Championships', {}, named('Series')));
  const event = json(await store.create(caller, 'Events', { championshipId: championship.Id }, named('Spa')));
  const car = json(await store.create(caller, 'Cars', {}, named('Car 7')));
  await store.create(caller, 'EventCars', { eventId: event.Id, carId: car.Id }, { ParameterUpdates: [] });
  const session = json(await store.create(caller, 'Sessions', { eventId: event.Id }, named('FP1')));
  const runSheet = json(await store.create(caller, 'RunSheets', { sessionId: session.Id, carId: car.Id }, named('Run 1')));
  for (const [i, sectors] of sectorsPerLap.entries()) {
    const lap = json(await store.create(caller, 'Laps', { runSheetId: runSheet.Id }, named(`Lap ${i + 1}`)));
    for (let s = 0; s < sectors; s++) await store.create(caller, 'LapSectors', { lapId: lap.Id }, named(`S${s + 1}`));
  }
  return { sessionId: session.Id, carId: car.Id, runSheetId: runSheet.Id };
}

const countOf = async (accountId: string, type: string) =>
  (await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM entity.entities WHERE account_id = $1 AND type = $2`, [accountId, type])).rows[0]?.n;

describe('CopyAll within ENTITY_COPY_MAX_ENTITIES', () => {
  test('when the source has exactly the bound of descendants, then all are copied', async () => {
    const { store, settled } = storeRecording();
    const caller = admin();
    const run = await runSheetWith(store, caller, [2, 1]); // 2 laps + 3 sectors = 5
    await store.create(caller, 'RunSheets', { sessionId: run.sessionId, carId: run.carId }, { CopyFromId: run.runSheetId, CopyAll: true, ParameterUpdates: [] });
    await settled();
    expect([await countOf(caller.accountId, 'RunSheets'), await countOf(caller.accountId, 'Laps'), await countOf(caller.accountId, 'LapSectors')]).toEqual([2, 4, 6]);
  });

  test('when the source has one descendant more, then the create is a 413 naming ENTITY_COPY_MAX_ENTITIES, and nothing is created or published', async () => {
    const { store, published, settled } = storeRecording();
    const caller = admin();
    const run = await runSheetWith(store, caller, [2, 2]); // 2 laps + 4 sectors = 6
    await settled();
    published.length = 0;
    const refused = await store.create(caller, 'RunSheets', { sessionId: run.sessionId, carId: run.carId }, { CopyFromId: run.runSheetId, CopyAll: true, ParameterUpdates: [] }).catch((err: unknown) => err);
    await settled();
    expect(refused).toMatchObject({ status: 413, message: expect.stringContaining('ENTITY_COPY_MAX_ENTITIES is 5') });
    expect([await countOf(caller.accountId, 'RunSheets'), await countOf(caller.accountId, 'Laps'), await countOf(caller.accountId, 'LapSectors')]).toEqual([1, 2, 4]);
    expect(published).toEqual([]);
    // Without CopyAll the same source's parameters are copied, and only the entity is created.
    await store.create(caller, 'RunSheets', { sessionId: run.sessionId, carId: run.carId }, { CopyFromId: run.runSheetId, ParameterUpdates: [] });
    expect(await countOf(caller.accountId, 'RunSheets')).toBe(2);
  });
});
