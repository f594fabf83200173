import { randomUUID } from 'node:crypto';
import { AppError, FieldRefusals } from '@pitwall/service-kit';
import type { OutboxMessage } from '@pitwall/messaging';
import {
  TIMING_EVENTS,
  TIMING_INDEX_MAX,
  requireEntityType,
  type CallerContext,
  type EntityChangedEvent,
  type EntityJson,
  type EntityTypeDef,
  type TimingEvent,
  type TimingLapUpdated,
  type TimingLevel,
  type TimingUpdate,
} from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository } from '../../data-access/entity-repository';
import type { EntityRow } from '../../data-access/entity-row';
import { timingRowRepository as timingRows, type TimingAdoption } from '../../data-access/timing-row-repository';
import { changedNames, entityChanged } from '../entity-events';
import { assertWriter } from '../entity-type';
import { applyUpdates, checkReferences } from '../parameter-updates';
import { tryConvertUpdates, type ConvertedUpdate, type ParameterValue } from '../parameters';
import { loadParameterSets } from '../parameter-sets';
import { parseProjection, type ParameterSets } from '../projection';
import type { RenderedReply } from '../read-cache';
import { entityReply, renderRows } from '../read-model';
import { nextModifiedTime, write, type StoreContext } from '../store-context';

const RUN_SHEETS = requireEntityType('RunSheets');
const LAPS = requireEntityType('Laps');
const LAP_SECTORS = requireEntityType('LapSectors');
const LAP_SPEED_TRAPS = requireEntityType('LapSpeedTraps');
type Level = 'run' | 'lap' | 'sector' | 'speedTrap';
const LEVELS: Record<TimingLevel, Level> = { RunSheets: 'run', Laps: 'lap', LapSectors: 'sector', LapSpeedTraps: 'speedTrap' };

/** The entities an update names, checked to belong together. */
interface Resolved {
  session: EntityRow;
  sectorDefinition?: EntityRow;
  speedTrapDefinition?: EntityRow;
}

/** One level written by the update: its row after the write and what happened to it. */
interface Written {
  row: EntityRow;
  inserted: boolean;
  changed: string[];
}

/**
 * One timing update (docs/timing.md): resolves the five ids, then finds or creates the run at `runIndex`, the lap at
 * `stintLapNumber`, the sector or speed trap of that lap, applies `properties` to the addressed level and the run's
 * fields to the run, and applies the pit-in rule, all in one transaction. Every level is an upsert on its timing key
 * (database uniqueness), and the updates of one car are serialised, so a repeated delivery changes nothing and two
 * racing pit-ins create one next run. Its entity events and timing events go out through the outbox.
 */
export async function applyTimingUpdate(ctx: StoreContext, caller: CallerContext, typeName: TimingLevel, body: TimingUpdate): Promise<RenderedReply> {
  checkCaller(caller, body);
  return write(ctx, caller.accountId, (q) => timingWrite(q, caller, typeName, body));
}

/** The caller must write in the account the body names. */
export function checkCaller(caller: CallerContext, body: TimingUpdate): void {
  assertWriter(caller);
  const accountId = body.accountId.toLowerCase();
  if (accountId !== caller.accountId)
    throw AppError.badRequest(`accountId ${accountId} is not the account of the AccountId header (${caller.accountId})`, { accountId: ['must be the account of the AccountId header'] });
}

/**
 * Where an update finds and writes its rows: the database in the caller's transaction (`databaseTimingRows`), or a
 * batch's rows read beforehand and written together after (timing-bulk.ts).
 */
export interface TimingRows {
  /** For the reads other than these three (references, rendering): the transaction, or one that refuses them. */
  q: Queryable;
  findTimingRows(accountId: string, ids: string[], eventId: string, carId: string): Promise<{ rows: EntityRow[]; carEntered: boolean }>;
  /** The row at the timing key; else the entity without one that `adopt` names, given the key; else `row`, created. */
  upsertByTimingKey(row: EntityRow, timingKey: string, adopt: TimingAdoption): Promise<{ row: EntityRow; inserted: boolean }>;
  updateParameters(id: string, parameters: Record<string, ParameterValue>, modifiedAt: Date): Promise<void>;
}

export function databaseTimingRows(q: Queryable): TimingRows {
  return {
    q,
    findTimingRows: (accountId, ids, eventId, carId) => timingRows.findTimingRows(q, accountId, ids, eventId, carId),
    upsertByTimingKey: (row, timingKey, adopt) => timingRows.upsertByTimingKey(q, row, timingKey, adopt),
    updateParameters: (id, parameters, modifiedAt) => entityRepository.updateParameters(q, id, parameters, modifiedAt),
  };
}

export interface TimingWriteOptions {
  /** The account's parameter sets when the caller already loaded them in this transaction (a batch). */
  sets?: ParameterSets;
  /** The caller already holds this car's timing lock in this transaction (a batch locks all its cars first). */
  carLocked?: boolean;
  /** Where the rows are read and written; default: the database, in `q`. */
  rows?: TimingRows;
}

export interface TimingWritten {
  result: RenderedReply;
  events: EntityChangedEvent[];
  messages: OutboxMessage<TimingEvent>[];
  scopes: string[];
}

/** What one update writes, in the caller's transaction `q`: the levels, their events and the scopes (runs) it touched. */
export async function timingWrite(q: Queryable, caller: CallerContext, typeName: TimingLevel, body: TimingUpdate, options: TimingWriteOptions = {}): Promise<TimingWritten> {
  const level = LEVELS[typeName];
  const ids = normalisedIds(body);
  const store = options.rows ?? databaseTimingRows(q);
  const sets = options.sets ?? (await loadParameterSets(q, caller.accountId));
  // Everything wrong with the update is collected, so one 400 names it all: the ids, then the properties.
  const refusals = new FieldRefusals();
  const resolved = await resolve(store, caller.accountId, level, body, ids, refusals);
  const addressed = level === 'run' ? RUN_SHEETS : level === 'lap' ? LAPS : level === 'sector' ? LAP_SECTORS : LAP_SPEED_TRAPS;
  // Error paths as the body spells them: properties[i].name / .value.
  const { converted, errors } = tryConvertUpdates(sets(addressed), body.properties?.map((p) => ({ Name: p.name, Value: p.value })), 'properties', { name: 'name', value: 'value' });
  refusals.refuseEach(errors);
  const propertyUpdates = converted.map((u) => ({ ...u, path: `properties[${u.index}].value` }));
  refuseAddressChange(level, propertyUpdates, refusals);
  if (level === 'run') refuseFieldClash(body, propertyUpdates, refusals);
  // A run past the largest runIndex could never be addressed: refused, as its update would be.
  if (body.shouldCreateNextRun && body.runIndex + 1 > TIMING_INDEX_MAX)
    refusals.refuse(
      'shouldCreateNextRun',
      `creates run runIndex + 1, which must be at most ${TIMING_INDEX_MAX}`,
      `shouldCreateNextRun at runIndex ${body.runIndex} would create run ${body.runIndex + 1}, past the largest runIndex (${TIMING_INDEX_MAX})`,
    );
  await checkReferences(store.q, caller.accountId, propertyUpdates, 'properties').catch((error: unknown) => refusals.take(error, 'reasons'));
  refusals.throwIfAny();

  if (!options.carLocked) await timingRows.lockTimingCar(q, caller.accountId, ids.sessionId, ids.carId);
  const now = new Date();
  const events: EntityChangedEvent[] = [];
  const messages: OutboxMessage<TimingEvent>[] = [];
  const base = { accountId: caller.accountId, championshipId: ids.championshipId, eventId: ids.eventId, sessionId: ids.sessionId, carId: ids.carId };
  const occurredAt = now.toISOString();

  // The run: its own fields whichever level is addressed (driverId), the pit fields on /Runs.
  const runUpdates: ConvertedUpdate[] = [];
  const runSet = sets(RUN_SHEETS);
  const set = (name: string, value: ParameterValue | undefined) => {
    if (value === undefined || value === null) return;
    runUpdates.push({ def: runSet.get(name) as ConvertedUpdate['def'], value, index: 0 });
  };
  for (const [field, name] of RUN_FIELDS) set(name, field === 'driverId' ? ids.driverId : body[field]);
  if (level === 'run') runUpdates.push(...propertyUpdates);

  const run = await writeLevel(store, RUN_SHEETS, { parent_id: ids.sessionId, parent2_id: ids.carId }, `${ids.carId}:${body.runIndex}`, { ordinal: body.runIndex }, body.runIndex, { Name: `Run ${body.runIndex + 1}` }, runUpdates, caller.accountId, now);
  const runBase = { ...base, runId: run.row.id, runIndex: body.runIndex, occurredAt };
  if (run.inserted) {
    events.push(entityChanged('created', run.row, RUN_SHEETS, Object.keys(run.row.parameters)));
    messages.push({ routingKey: TIMING_EVENTS.runCreated, payload: { ...runBase, createdByPitIn: false } });
  } else if (run.changed.length) {
    events.push(entityChanged('updated', run.row, RUN_SHEETS, run.changed));
  }
  if (!run.inserted && run.changed.length) messages.push({ routingKey: TIMING_EVENTS.runUpdated, payload: { ...runBase, changedParameters: run.changed } });

  // Everything this update writes lies under its run (and the next one, by the pit-in rule): cached reads of other runs stay.
  const scopes = [run.row.id];
  if (body.shouldCreateNextRun) {
    const pitIn = run.row.parameters['PitInTime'] ?? run.row.parameters['PitInSessionTime'];
    if (pitIn === undefined || pitIn === null)
      throw AppError.badRequest('shouldCreateNextRun applies to a pit in: give pitInTime or pitInSessionTime (now or earlier) for this run', {
        shouldCreateNextRun: ['needs a pit in (pitInTime or pitInSessionTime) on the run'],
      });
    const nextIndex = body.runIndex + 1;
    const next = await writeLevel(store, RUN_SHEETS, { parent_id: ids.sessionId, parent2_id: ids.carId }, `${ids.carId}:${nextIndex}`, { ordinal: nextIndex }, nextIndex, { Name: `Run ${nextIndex + 1}` }, [], caller.accountId, now);
    scopes.push(next.row.id);
    if (next.inserted) {
      events.push(entityChanged('created', next.row, RUN_SHEETS, Object.keys(next.row.parameters)));
      messages.push({ routingKey: TIMING_EVENTS.runCreated, payload: { ...base, runId: next.row.id, runIndex: nextIndex, occurredAt, createdByPitIn: true } });
    }
  }

  let target = run;
  if (level !== 'run') {
    const n = body.stintLapNumber as number;
    const lap = await writeLevel(store, LAPS, { parent_id: run.row.id, parent2_id: null }, String(n), { parameter: ADDRESS_PARAMETER.lap.name, value: n }, n, { Name: n === 0 ? 'Out Lap' : `Lap ${n}`, [ADDRESS_PARAMETER.lap.name]: n }, level === 'lap' ? propertyUpdates : [], caller.accountId, now);
    const lapEvent = (part: TimingLapUpdated['part'], w: Written, definition?: EntityRow): OutboxMessage<TimingEvent> => ({
      routingKey: TIMING_EVENTS.lapUpdated,
      payload: {
        ...runBase,
        lapId: lap.row.id,
        stintLapNumber: n,
        part,
        ...(part === 'lap' ? {} : { partId: w.row.id, definitionId: definition?.id }),
        created: w.inserted,
        changedParameters: w.inserted ? Object.keys(w.row.parameters) : w.changed,
      },
    });
    record(events, LAPS, lap);
    if (lap.inserted || lap.changed.length) messages.push(lapEvent('lap', lap));
    target = lap;
    const definition = level === 'sector' ? resolved.sectorDefinition : level === 'speedTrap' ? resolved.speedTrapDefinition : undefined;
    if (definition) {
      const type = level === 'sector' ? LAP_SECTORS : LAP_SPEED_TRAPS;
      const reference = ADDRESS_PARAMETER[level as 'sector' | 'speedTrap'].name;
      const initial = { Name: typeof definition.parameters['Name'] === 'string' ? definition.parameters['Name'] : type.name, [reference]: definition.id };
      const part = await writeLevel(store, type, { parent_id: lap.row.id, parent2_id: null }, definition.id, { parameter: reference, value: definition.id }, definition.position, initial, propertyUpdates, caller.accountId, now);
      record(events, type, part);
      if (part.inserted || part.changed.length) messages.push(lapEvent(level as 'sector' | 'speedTrap', part, definition));
      target = part;
    }
  }

  const [entity] = await renderRows(store.q, caller.accountId, [target.row], parseProjection(addressed, undefined, sets as ParameterSets), sets);
  return { result: entityReply(entity as EntityJson, target.row.modified_at), events, messages, scopes };
}

/**
 * The parameter that says where a lap, sector or speed trap is (the stint lap number, the definition): set from the
 * update's own field, and what an entity created before the feed is taken over by. Set through `properties`, it would
 * move the entity away from the index that addresses it (a second lap with one stint lap number, a sector on a
 * definition outside the session's TrackConfiguration). Entity migration 101's trigger names the same three parameters
 * (a migration's SQL never changes, so it spells them out): a write by another path that changes one drops the key.
 */
const ADDRESS_PARAMETER: Record<Exclude<Level, 'run'>, { name: string; field: string }> = {
  lap: { name: 'StintLapNumber', field: 'stintLapNumber' },
  sector: { name: 'TrackSectorDefinitionId', field: 'sectorId' },
  speedTrap: { name: 'TrackSpeedTrapDefinitionId', field: 'speedTrapId' },
};

function refuseAddressChange(level: Level, updates: readonly ConvertedUpdate[], refusals: FieldRefusals): void {
  if (level === 'run') return;
  const address = ADDRESS_PARAMETER[level];
  const update = updates.find((u) => u.def.name === address.name);
  if (!update) return;
  refusals.refuse(`properties[${update.index}].name`, `${address.name} is where this update points: it comes from ${address.field}`, `${address.name} is set from ${address.field}, not through properties`);
}

/**
 * The run parameters an update's own fields set (the driver whichever level is addressed, the pit fields on /Runs).
 * Given both ways, by the field and in `properties`, one value would silently win over the other: a 400.
 */
const RUN_FIELDS = [
  ['driverId', 'DriverId'],
  ['pitInTime', 'PitInTime'],
  ['pitOutTime', 'PitOutTime'],
  ['pitInSessionTime', 'PitInSessionTime'],
  ['pitOutSessionTime', 'PitOutSessionTime'],
] as const;

function refuseFieldClash(body: TimingUpdate, updates: readonly ConvertedUpdate[], refusals: FieldRefusals): void {
  for (const [field, name] of RUN_FIELDS) {
    if ((body[field] ?? null) === null) continue;
    const update = updates.find((u) => u.def.name === name);
    if (update) refusals.refuse(`properties[${update.index}].name`, `${name} is also set by ${field}: give it once`, `${name} is given twice, by ${field} and by properties[${update.index}]`);
  }
}

/** A created level is a `created` entity event, a changed one an `updated` event. */
function record(events: EntityChangedEvent[], type: EntityTypeDef, w: Written): void {
  if (w.inserted) events.push(entityChanged('created', w.row, type, Object.keys(w.row.parameters)));
  else if (w.changed.length) events.push(entityChanged('updated', w.row, type, w.changed));
}

/**
 * Finds the entity at `timingKey` under `parents`, or takes over the one `adopt` names (created by the standard POSTs,
 * without a timing key), or creates one (starting with `initial` and the updates); then applies `updates` to it.
 * Nothing is written when they change nothing (a repeated delivery).
 */
async function writeLevel(
  store: TimingRows,
  type: EntityTypeDef,
  parents: { parent_id: string; parent2_id: string | null },
  timingKey: string,
  adopt: TimingAdoption,
  position: number,
  initial: Record<string, ParameterValue>,
  updates: ConvertedUpdate[],
  accountId: string,
  now: Date,
): Promise<Written> {
  const parameters = { ...initial };
  applyUpdates(parameters, updates);
  const fresh: EntityRow = { id: randomUUID(), account_id: accountId, type: type.plural, ...parents, position, parameters, created_at: now, modified_at: now };
  const { row, inserted } = await store.upsertByTimingKey(fresh, timingKey, adopt);
  if (inserted) return { row, inserted, changed: Object.keys(row.parameters) };
  const after = { ...row.parameters };
  applyUpdates(after, updates);
  const changed = changedNames(row.parameters, after);
  if (changed.length === 0) return { row, inserted, changed };
  const modifiedAt = nextModifiedTime(row.modified_at);
  await store.updateParameters(row.id, after, modifiedAt);
  return { row: { ...row, parameters: after, modified_at: modifiedAt }, inserted, changed };
}

/** The body's ids, lower-cased (GUIDs compare case-insensitively). */
function normalisedIds(body: TimingUpdate) {
  return {
    accountId: body.accountId.toLowerCase(),
    championshipId: body.championshipId.toLowerCase(),
    eventId: body.eventId.toLowerCase(),
    sessionId: body.sessionId.toLowerCase(),
    carId: body.carId.toLowerCase(),
    driverId: body.driverId?.toLowerCase() ?? null,
    sectorId: body.sectorId?.toLowerCase(),
    speedTrapId: body.speedTrapId?.toLowerCase(),
  };
}

/**
 * The ids must name entities of the caller's account that belong together: the event in the championship, the
 * session in the event, the car entered in the event, the driver a Driver, the sector or speed trap a definition of
 * the session's TrackConfiguration. Anything else is a 400 naming the field and the reason.
 */
async function resolve(store: TimingRows, accountId: string, level: Level, body: TimingUpdate, ids: ReturnType<typeof normalisedIds>, refusals: FieldRefusals): Promise<Resolved> {
  const refuse = (field: string, reason: string, sentence: string): undefined => refusals.refuse(field, reason, sentence);
  if (level !== 'run' && body.stintLapNumber === undefined) refuse('stintLapNumber', 'is required', 'stintLapNumber is required');
  if (level === 'sector' && !ids.sectorId) refuse('sectorId', 'is required', 'sectorId is required');
  if (level === 'speedTrap' && !ids.speedTrapId) refuse('speedTrapId', 'is required', 'speedTrapId is required');
  const wanted = [ids.championshipId, ids.eventId, ids.sessionId, ids.carId, ids.driverId, level === 'sector' ? ids.sectorId : undefined, level === 'speedTrap' ? ids.speedTrapId : undefined];
  const found = await store.findTimingRows(accountId, wanted.filter((id): id is string => !!id), ids.eventId, ids.carId);
  const rows = new Map(found.rows.map((r) => [r.id, r]));
  const expect = (field: string, id: string, type: string): EntityRow | undefined => {
    const row = rows.get(id);
    if (!row || row.type !== type) {
      const reason = `${requireEntityType(type).name} ${id} was not found in the account`;
      return refuse(field, reason, reason);
    }
    return row;
  };
  const championship = expect('championshipId', ids.championshipId, 'Championships');
  const event = expect('eventId', ids.eventId, 'Events');
  const session = expect('sessionId', ids.sessionId, 'Sessions');
  const car = expect('carId', ids.carId, 'Cars');
  if (ids.driverId) expect('driverId', ids.driverId, 'Drivers');
  if (championship && event && event.parent_id !== championship.id) {
    const reason = `Event ${event.id} is not an event of championship ${championship.id}`;
    refuse('eventId', reason, reason);
  }
  if (event && session && session.parent_id !== event.id) {
    const reason = `Session ${session.id} is not a session of event ${event.id}`;
    refuse('sessionId', reason, reason);
  }
  if (event && car && !found.carEntered) refuse('carId', 'the car is not entered in the event', `Car ${car.id} is not entered in event ${event.id}: add an EventCar first`);
  const definitionOf = (field: 'sectorId' | 'speedTrapId', id: string | undefined, type: string): EntityRow | undefined => {
    if (!id || !session) return undefined;
    const configuration = session.parameters['TrackConfigurationId'];
    const name = requireEntityType(type).name;
    if (typeof configuration !== 'string')
      return refuse(field, 'the session has no TrackConfiguration', `Session ${session.id} has no TrackConfiguration, so it has no ${field === 'sectorId' ? 'sectors' : 'speed traps'}`);
    const row = rows.get(id);
    if (!row || row.type !== type || row.parent_id !== configuration)
      return refuse(field, `is not a ${name} of the session's TrackConfiguration`, `${field} ${id} is not a ${name} of the session's TrackConfiguration ${configuration}`);
    return row;
  };
  const sectorDefinition = level === 'sector' ? definitionOf('sectorId', ids.sectorId, 'TrackSectorDefinitions') : undefined;
  const speedTrapDefinition = level === 'speedTrap' ? definitionOf('speedTrapId', ids.speedTrapId, 'TrackSpeedTrapDefinitions') : undefined;
  const resolved: Resolved = { session: session as EntityRow };
  if (sectorDefinition) resolved.sectorDefinition = sectorDefinition;
  if (speedTrapDefinition) resolved.speedTrapDefinition = speedTrapDefinition;
  return resolved;
}

