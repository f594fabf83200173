import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox, type PublishMessage } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// A delete (or a collection update's Delete) sets to null every Reference parameter of the account that pointed at what
// it removed, built-in or custom, on any type; a value that only looks like the id (a Text) is left alone.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();

function storeRecording(options: { maxDeleteEntities?: number } = {}): { store: EntityStore; published: EntityChangedEvent[]; settled: () => Promise<void> } {
  const published: EntityChangedEvent[] = [];
  const publish: PublishMessage<EntityChangedEvent> = async (_key, event) => void published.push(event);
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish, logger: silent });
  return { store: new EntityStore(database.pool, outbox, undefined, undefined, options), published, settled: () => outbox.settled() };
}

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });
const updates = (values: Record<string, string>) => ({ ParameterUpdates: Object.entries(values).map(([Name, Value]) => ({ Name, Value })) });
const json = (r: { json: Buffer }) => JSON.parse(r.json.toString('utf8')) as { Id: string; Parameters: Record<string, unknown> };

/** A championship, event, session, car and run sheet of a fresh account. */
async function runSheetOf(store: EntityStore, caller: CallerContext): Promise<{ eventId: string; carId: string; runSheetId: string }> {
  const championship = json(await store.create(caller, 'Championships', {}, updates({ Name: 'Series' })));
  const event = json(await store.create(caller, 'Events', { championshipId: championship.Id }, updates({ Name: 'Monza' })));
  const car = json(await store.create(caller, 'Cars', {}, updates({ Name: 'Car 7' })));
  await store.create(caller, 'EventCars', { eventId: event.Id, carId: car.Id }, { ParameterUpdates: [] });
  const session = json(await store.create(caller, 'Sessions', { eventId: event.Id }, updates({ Name: 'FP1' })));
  const runSheet = json(await store.create(caller, 'RunSheets', { sessionId: session.Id, carId: car.Id }, updates({ Name: 'Run 1' })));
  return { eventId: event.Id, carId: car.Id, runSheetId: runSheet.Id };
}

const parametersOf = async (caller: CallerContext, store: EntityStore, type: string, id: string) => json(await store.get(caller, type, id)).Parameters;

describe('references to deleted entities', () => {
  test('when a tyre is deleted, then a custom Reference to it on laps (its type named in lower case) is cleared with an event, and a Text holding its id is kept', async () => {
    const { store, published, settled } = storeRecording();
    const caller = admin();
    await store.create(caller, 'ParameterDefinitions', {}, updates({ Name: 'FittedTyreId', EntityType: 'Laps', ParameterType: 'Reference', ReferencedEntityType: 'tyres' }));
    await store.create(caller, 'ParameterDefinitions', {}, updates({ Name: 'Note', EntityType: 'Laps', ParameterType: 'Text' }));
    const { runSheetId } = await runSheetOf(store, caller);
    const tyre = json(await store.create(caller, 'Tyres', {}, updates({ Name: 'Front left' })));
    const other = json(await store.create(caller, 'Tyres', {}, updates({ Name: 'Front right' })));
    const fitted = json(await store.create(caller, 'Laps', { runSheetId }, updates({ Name: 'Lap 1', FittedTyreId: tyre.Id, Note: tyre.Id })));
    const otherLap = json(await store.create(caller, 'Laps', { runSheetId }, updates({ Name: 'Lap 2', FittedTyreId: other.Id })));
    await settled();
    published.length = 0;

    await store.delete(caller, 'Tyres', tyre.Id);
    await settled();

    expect(await parametersOf(caller, store, 'Laps', fitted.Id)).toMatchObject({ FittedTyreId: null, Note: tyre.Id });
    expect((await parametersOf(caller, store, 'Laps', otherLap.Id))['FittedTyreId']).toBe(other.Id);
    expect(published.map((e) => [e.entityType, e.entityId, e.action, e.changedParameters])).toEqual([
      ['Tyre', tyre.Id, 'deleted', []],
      ['Lap', fitted.Id, 'updated', ['FittedTyreId']],
    ]);
  });

  test('when a run sheet is deleted, then references to its laps held by another run sheet are cleared, and a reference to a lap that stays is kept', async () => {
    const { store, settled } = storeRecording();
    const caller = admin();
    await store.create(caller, 'ParameterDefinitions', {}, updates({ Name: 'BaselineLapId', EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Laps' }));
    const first = await runSheetOf(store, caller);
    const second = await runSheetOf(store, caller);
    const goingLap = json(await store.create(caller, 'Laps', { runSheetId: first.runSheetId }, updates({ Name: 'Lap 1' })));
    const stayingLap = json(await store.create(caller, 'Laps', { runSheetId: second.runSheetId }, updates({ Name: 'Lap 1' })));
    await store.update(caller, 'RunSheets', second.runSheetId, updates({ BaselineLapId: goingLap.Id }));
    await store.update(caller, 'RunSheets', first.runSheetId, updates({ BaselineLapId: stayingLap.Id }));
    const third = await runSheetOf(store, caller);
    await store.update(caller, 'RunSheets', third.runSheetId, updates({ BaselineLapId: stayingLap.Id }));

    await store.delete(caller, 'RunSheets', first.runSheetId);
    await settled();

    expect((await parametersOf(caller, store, 'RunSheets', second.runSheetId))['BaselineLapId']).toBeNull();
    expect((await parametersOf(caller, store, 'RunSheets', third.runSheetId))['BaselineLapId']).toBe(stayingLap.Id);
  });

  test('when a collection update deletes a lap, then a custom Reference to one of its sectors on another type is cleared', async () => {
    const { store, published, settled } = storeRecording();
    const caller = admin();
    await store.create(caller, 'ParameterDefinitions', {}, updates({ Name: 'WorstSectorId', EntityType: 'Cars', ParameterType: 'Reference', ReferencedEntityType: 'LapSectors' }));
    const { runSheetId, carId } = await runSheetOf(store, caller);
    const lap = json(await store.create(caller, 'Laps', { runSheetId }, updates({ Name: 'Lap 1' })));
    const sector = json(await store.create(caller, 'LapSectors', { lapId: lap.Id }, updates({ Name: 'S1', SectorTime: '31.2' })));
    await store.update(caller, 'Cars', carId, updates({ WorstSectorId: sector.Id }));
    await settled();
    published.length = 0;

    await store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: [{ Id: lap.Id, Delete: true }] } });
    await settled();

    expect((await parametersOf(caller, store, 'Cars', carId))['WorstSectorId']).toBeNull();
    expect(published.filter((e) => e.entityType === 'Car').map((e) => e.changedParameters)).toEqual([['WorstSectorId']]);
  });

  test('when a driver of one account is deleted, then an entity of another account holding the same id as a reference is not touched', async () => {
    const { store, settled } = storeRecording();
    const owner = admin();
    const stranger = admin();
    const { runSheetId } = await runSheetOf(store, owner);
    const driver = json(await store.create(owner, 'Drivers', {}, updates({ Name: 'A. Driver' })));
    await store.update(owner, 'RunSheets', runSheetId, updates({ DriverId: driver.Id }));
    const theirs = await runSheetOf(store, stranger);
    // Written directly: an account's reference to another account's driver is refused by the API itself.
    await database.pool.query(`UPDATE entity.entities SET parameters = parameters || jsonb_build_object('DriverId', $2::text) WHERE id = $1`, [theirs.runSheetId, driver.Id]);

    await store.delete(owner, 'Drivers', driver.Id);
    await settled();

    expect((await parametersOf(owner, store, 'RunSheets', runSheetId))['DriverId']).toBeNull();
    const { rows } = await database.pool.query<{ d: string }>(`SELECT parameters->>'DriverId' AS d FROM entity.entities WHERE id = $1`, [theirs.runSheetId]);
    expect(rows[0]?.d).toBe(driver.Id);
  });
});

describe('deletes whose scope follows the data', () => {
  test('when a collection update deletes 7,500 laps with 157,500 entities below them (ENTITY_DELETE_MAX_ENTITIES raised to allow it), then it answers and they are gone (the scope is not spread onto the stack)', async () => {
    const { store, settled } = storeRecording({ maxDeleteEntities: 200_000 });
    const caller = admin();
    const { runSheetId } = await runSheetOf(store, caller);
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO entity.entities (id, account_id, type, parent_id, position, parameters, created_at, modified_at)
       SELECT gen_random_uuid(), $2, 'Laps', $1, n, jsonb_build_object('Name', 'Lap ' || n), now(), now() FROM generate_series(0, 7499) n RETURNING id::text`,
      [runSheetId, caller.accountId],
    );
    const lapIds = rows.map((r) => r.id);
    await database.pool.query(
      `INSERT INTO entity.entities (id, account_id, type, parent_id, position, parameters, created_at, modified_at)
       SELECT gen_random_uuid(), $2, 'LapSectors', l, s, jsonb_build_object('Name', 'S' || s), now(), now() FROM unnest($1::uuid[]) l, generate_series(0, 19) s`,
      [lapIds, caller.accountId],
    );

    await store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: lapIds.map((Id) => ({ Id, Delete: true })) } });
    await settled();

    const { rows: left } = await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM entity.entities WHERE account_id = $1 AND type IN ('Laps', 'LapSectors')`, [caller.accountId]);
    expect(left[0]?.n).toBe(0);
  }, 60_000);

  test('when a delete would remove more than ENTITY_DELETE_MAX_ENTITIES entities (the entity and everything below it, both parent links; a collection update\'s deletes), then it is a 413 naming it and nothing of the request is done; at the bound, it goes', async () => {
    const { store, published, settled } = storeRecording({ maxDeleteEntities: 5 });
    const caller = admin();
    const { eventId, runSheetId } = await runSheetOf(store, caller);
    const laps = [];
    for (const n of [1, 2, 3]) laps.push(json(await store.create(caller, 'Laps', { runSheetId }, updates({ Name: `Lap ${n}` }))));
    for (const lap of laps) await store.create(caller, 'LapSectors', { lapId: lap.Id }, updates({ Name: 'S1' }));
    await settled();
    published.length = 0;
    const count = async () => Number((await database.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.entities WHERE account_id = $1', [caller.accountId])).rows[0]?.n);
    const before = await count();

    // The run sheet, 3 laps and 3 sectors: 7.
    await expect(store.delete(caller, 'RunSheets', runSheetId)).rejects.toMatchObject({
      status: 413,
      message: `Deleting the RunSheet ${runSheetId} with everything below it would remove more than 5 entities in one request (ENTITY_DELETE_MAX_ENTITIES is 5): delete what is below first, in parts, or raise ENTITY_DELETE_MAX_ENTITIES together with BUS_TIMEOUT_MS. Nothing was deleted`,
    });
    // The event: its session, the run sheet below it and the event car (under the car too: the second parent link).
    await expect(store.delete(caller, 'Events', eventId)).rejects.toMatchObject({ status: 413 });
    // 3 laps with their sectors (6), with a rename in the same request: neither is done.
    await expect(
      store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: laps.map((l) => ({ Id: l.Id, Delete: true })) }, ParameterUpdates: [{ Name: 'Name', Value: 'Renamed' }] }),
    ).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/^Deleting 3 Laps items would remove more than 5 entities in one request \(ENTITY_DELETE_MAX_ENTITIES is 5\)/) });
    await settled();
    expect(await count()).toBe(before);
    expect(published).toEqual([]);
    expect(json(await store.get(caller, 'RunSheets', runSheetId)).Parameters['Name']).toBe('Run 1');

    // One lap (with its sector) first: then the run sheet, 2 laps and 2 sectors are 5, at the bound.
    await store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: [{ Id: (laps[2] as { Id: string }).Id, Delete: true }] } });
    await store.delete(caller, 'RunSheets', runSheetId);
    expect(await count()).toBe(before - 7);
  });
});
