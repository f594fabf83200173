import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// An include path that loops back through a reference (Events.Series.Events.Series...) costs one query per level, but
// its JSON writes the referenced entity again at every place it is included: with 10 events, each level of
// Events.Series multiplies the answer by 10. ENTITY_READ_MAX_ENTITIES bounds what one answer writes, before it is written.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();

type Json = { Id: string; Parameters: Record<string, unknown> };

async function championshipWithLoop(maxReadEntities: number, maxReadBytes?: number) {
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent });
  const store = new EntityStore(database.pool, outbox, undefined, undefined, { maxReadEntities, ...(maxReadBytes ? { maxReadBytes } : {}) });
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const create = async (type: string, parentIds: Record<string, string>, parameters: Record<string, string> = {}) =>
    (JSON.parse((await store.create(caller, type, parentIds, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) })).json.toString('utf8')) as Json).Id;
  await create('ParameterDefinitions', {}, { Name: 'SeriesId', EntityType: 'Events', ParameterType: 'Reference', ReferencedEntityType: 'Championships' });
  const championshipId = await create('Championships', {}, { Name: 'Loop' });
  for (let i = 0; i < 10; i++) await create('Events', { championshipId }, { Name: `Round ${i + 1}`, SeriesId: championshipId });
  return { store, caller, championshipId };
}

const loop = (levels: number) => ['Events', ...Array.from({ length: levels }, () => 'Series.Events')].join('.') + '.Name';

describe('a read whose include path loops through a reference', () => {
  test('when it would write more entities than ENTITY_READ_MAX_ENTITIES, then 413 naming it and the count, and nothing is written', async () => {
    const { store, caller, championshipId } = await championshipWithLoop(1_000);
    // The championship, 10 events, each with the championship again and its 10 events, each with...: 1 + 10 + 10 × (1 + 10) + ... = 1 + 10 + 110 + 1,100 + 11,000.
    const refusal = await store.get(caller, 'Championships', championshipId, [loop(3)]).then(
      () => undefined,
      (err: unknown) => err as { status: number; message: string },
    );
    expect(refusal?.status).toBe(413);
    expect(refusal?.message).toBe('This read would write 12221 entities (references are written again wherever they are included), more than one answer may hold (ENTITY_READ_MAX_ENTITIES is 1000): include fewer levels, or read the parts separately');
    // Twelve levels would be 10^13 copies: refused the same way, counted without being built.
    await expect(store.get(caller, 'Championships', championshipId, [loop(12)])).rejects.toMatchObject({ status: 413 });
    // The list and the search of the same shape are bounded too.
    await expect(store.list(caller, 'Championships', {}, [loop(3)])).rejects.toMatchObject({ status: 413 });
  });

  test('when its answer would be more bytes than ENTITY_READ_MAX_BYTES (few entities, each written many times), then 413 naming it; a smaller answer is whole', async () => {
    const { store, caller, championshipId } = await championshipWithLoop(1_000_000, 50_000);
    // 1,221 entities of about 100 bytes each: past 50,000 bytes, though far within the entity bound.
    const refusal = await store.get(caller, 'Championships', championshipId, [loop(2)]).then(
      () => undefined,
      (err: unknown) => err as { status: number; message: string },
    );
    expect(refusal?.status).toBe(413);
    expect(refusal?.message).toMatch(/^This read's answer would be (at least )?\d+ bytes, more than one answer may hold \(ENTITY_READ_MAX_BYTES is 50000 bytes\)/);
    await expect(store.list(caller, 'Championships', {}, [loop(2)])).rejects.toMatchObject({ status: 413 });
    const within = await store.get(caller, 'Championships', championshipId, [loop(1)]);
    expect(within.json.length).toBeLessThanOrEqual(50_000);
  });

  test('when its include paths part near the root into more than MAX_INCLUDE_NODES collections and references, then 400 naming it before any is read', async () => {
    const { store, caller, championshipId } = await championshipWithLoop(1_000_000);
    // Each path chooses Events.Series or Events.Other by the bits of its number, then goes on: 200 paths of 480
    // characters, some 10,000 levels, each a query of its own (the entity count is reached only as they are read).
    await store.create(caller, 'ParameterDefinitions', {}, { ParameterUpdates: Object.entries({ Name: 'OtherId', EntityType: 'Events', ParameterType: 'Reference', ReferencedEntityType: 'Championships' }).map(([Name, Value]) => ({ Name, Value })) });
    const paths = Array.from({ length: 200 }, (_, i) => Array.from({ length: 32 }, (_, bit) => `Events.${(i >> bit) & 1 ? 'Other' : 'Series'}`).join('.') + '.Name');
    const refusal = await store.get(caller, 'Championships', championshipId, paths).then(
      () => undefined,
      (err: unknown) => err as { status: number; message: string; errors?: Record<string, string[]> },
    );
    expect(refusal?.status).toBe(400);
    expect(refusal?.errors).toEqual({ parametersToInclude: ['must name at most 1000 collections and references together (MAX_INCLUDE_NODES: each is read by a query of its own)'] });
  });

  test('when it stays within the bound, then it is answered in full, every copy of the reference written', async () => {
    const { store, caller, championshipId } = await championshipWithLoop(1_000);
    const reply = JSON.parse((await store.get(caller, 'Championships', championshipId, [loop(1)])).json.toString('utf8')) as Json & { Events: (Json & { Parameters: { Series: Json & { Events: Json[] } } })[] };
    // 1 + 10 + 10 × (1 + 10) = 121 entities written.
    expect(reply.Events).toHaveLength(10);
    expect(reply.Events.every((e) => e.Parameters.Series.Id === championshipId && e.Parameters.Series.Events.length === 10)).toBe(true);
  });
});
