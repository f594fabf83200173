import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// wire.md §3: a run sheet's (or a session car data's) car must be entered in the session's event. A session copied with
// CopyAll into another event keeps its children's cars: each must be entered there too.
const database = entityTestDatabase();
const json = (r: { json: Buffer }) => JSON.parse(r.json.toString('utf8')) as { Id: string };
const named = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

test('when a session is copied with CopyAll into an event where its run sheets\' car is not entered, then 400 naming the car and nothing is created; entered, the copy is made', async () => {
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: pino({ level: 'silent' }) });
  const store = new EntityStore(database.pool, outbox);
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const championship = json(await store.create(caller, 'Championships', {}, named('Series')));
  const [spa, monza] = [json(await store.create(caller, 'Events', { championshipId: championship.Id }, named('Spa'))), json(await store.create(caller, 'Events', { championshipId: championship.Id }, named('Monza')))];
  const car = json(await store.create(caller, 'Cars', {}, named('Car 7')));
  await store.create(caller, 'EventCars', { eventId: spa.Id, carId: car.Id }, { ParameterUpdates: [] });
  const session = json(await store.create(caller, 'Sessions', { eventId: spa.Id }, named('FP1')));
  await store.create(caller, 'RunSheets', { sessionId: session.Id, carId: car.Id }, named('Run 1'));
  const sessions = async () => Number((await database.pool.query(`SELECT count(*) AS n FROM entity.entities WHERE account_id = $1 AND type = 'Sessions'`, [caller.accountId])).rows[0].n);

  const copy = { CopyFromId: session.Id, CopyAll: true, ParameterUpdates: [{ Name: 'Name', Value: 'FP1 again' }] };
  await expect(store.create(caller, 'Sessions', { eventId: monza.Id }, copy)).rejects.toMatchObject({ status: 400, errors: { CopyAll: [`copies entities of cars not entered in the event: ${car.Id}`] } });
  expect(await sessions()).toBe(1);

  // In its own event, or once the car is entered in the other, the copy is made with its run sheet.
  await store.create(caller, 'Sessions', { eventId: spa.Id }, copy);
  await store.create(caller, 'EventCars', { eventId: monza.Id, carId: car.Id }, { ParameterUpdates: [] });
  const copied = json(await store.create(caller, 'Sessions', { eventId: monza.Id }, copy));
  const { rows } = await database.pool.query(`SELECT parent2_id::text AS car FROM entity.entities WHERE parent_id = $1 AND type = 'RunSheets'`, [copied.Id]);
  expect(rows).toEqual([{ car: car.Id }]);
});
