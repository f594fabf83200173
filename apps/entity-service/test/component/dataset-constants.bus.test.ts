import { randomUUID } from 'node:crypto';
import { ATTACHMENT_COMMANDS, ENTITY_COMMANDS, SERVICES, type CallerContext, type DatasetConstantsJson } from '@pitwall/contracts';
import type pg from 'pg';
import { testPool } from '@pitwall/db/testing';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

const editor = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'editor' });

/**
 * `entity.attachments.dataset-constants` (docs/math-channels.md): the entities a math channel's param("Name") is looked
 * up on for a dataset's entity, in order (the entity, the Setup it names, its Car), each with its numeric parameters.
 */
describe('entity.attachments.dataset-constants', () => {
  let stack: InProcessStack;
  let db: pg.Pool;
  const caller = editor();
  const ids: Record<string, string> = {};
  const create = async (type: string, parentIds: Record<string, string>, parameters: Record<string, string> = {}, who = caller) =>
    (await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: who, type, parentIds, body: { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) } })).Id;
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    db = testPool(stack.databaseUrl);
    for (const [EntityType, Name, ParameterType] of [['Cars', 'Ratio', 'Double'], ['Cars', 'Aero', 'Boolean'], ['Cars', 'Label', 'Text'], ['Setups', 'Ratio', 'Double'], ['RunSheets', 'StintCount', 'Integer'], ['SessionCarDatas', 'Ratio', 'Double']]) {
      await create('ParameterDefinitions', {}, { Name: Name as string, EntityType: EntityType as string, ParameterType: ParameterType as string });
    }
    const championshipId = await create('Championships', {});
    const eventId = await create('Events', { championshipId });
    const sessionId = await create('Sessions', { eventId });
    ids['car'] = await create('Cars', {}, { Name: 'Demo', Ratio: '4', Aero: 'true', Label: '12.5' });
    await create('EventCars', { eventId, carId: ids['car'] });
    ids['setup'] = await create('Setups', { eventId, carId: ids['car'] }, { Ratio: '5' });
    ids['runSheet'] = await create('RunSheets', { sessionId, carId: ids['car'] }, { Name: 'Run 1', SetupId: ids['setup'], StintCount: '12' });
    ids['event'] = eventId;
    ids['carData'] = await create('SessionCarDatas', { sessionId, carId: ids['car'] }, { Ratio: '6' });
    ids['session'] = sessionId;
  });
  afterAll(async () => {
    await db?.end();
    await stack.stop();
  });

  const every = ['Ratio', 'Aero', 'Label', 'StintCount'];
  const ask = (type: string, id: string, who = caller, names = every) => stack.bus.request<DatasetConstantsJson>(SERVICES.entity, ATTACHMENT_COMMANDS.datasetConstants, { caller: who, type, id, names });
  const car = () => ({ type: 'Cars', id: ids['car'], name: 'Demo', parameters: { Ratio: 4, Aero: 1 } });

  test('when a run sheet is asked for, then it, the Setup it names and its Car come in that order, each with its Name when it has one and its numbers (a Boolean as 1 or 0, Text left out)', async () => {
    expect(await ask('RunSheets', ids['runSheet'] as string)).toEqual({
      entities: [
        { type: 'RunSheets', id: ids['runSheet'], name: 'Run 1', parameters: { StintCount: 12 } },
        { type: 'Setups', id: ids['setup'], parameters: { Ratio: 5 } },
        car(),
      ],
    });
  });

  test('when a session car data or a setup is asked for, then it and its Car come (neither names a setup)', async () => {
    expect(await ask('SessionCarDatas', ids['carData'] as string)).toEqual({ entities: [{ type: 'SessionCarDatas', id: ids['carData'], parameters: { Ratio: 6 } }, car()] });
    expect(await ask('setups', ids['setup'] as string)).toEqual({ entities: [{ type: 'Setups', id: ids['setup'], parameters: { Ratio: 5 } }, car()] });
  });

  test('when names are given, then each entity answers only those of them it holds (whatever their case), however many it holds', async () => {
    expect(await ask('RunSheets', ids['runSheet'] as string, caller, ['ratio', 'AERO', 'Nope'])).toEqual({
      entities: [
        { type: 'RunSheets', id: ids['runSheet'], name: 'Run 1', parameters: {} },
        { type: 'Setups', id: ids['setup'], parameters: { Ratio: 5 } },
        { type: 'Cars', id: ids['car'], name: 'Demo', parameters: { Ratio: 4, Aero: 1 } },
      ],
    });
    expect(await ask('Cars', ids['car'] as string, caller, ['Aero'])).toEqual({ entities: [{ type: 'Cars', id: ids['car'], name: 'Demo', parameters: { Aero: 1 } }] });
  });

  test('when the run sheet names a Setup the account does not have, then it is named as not found, alike whether it never was or is another account\'s (nothing of that one is answered)', async () => {
    const other = editor();
    await create('ParameterDefinitions', {}, { Name: 'Ratio', EntityType: 'Setups', ParameterType: 'Double' }, other);
    const championshipId = await create('Championships', {}, {}, other);
    const eventId = await create('Events', { championshipId }, {}, other);
    const carId = await create('Cars', {}, {}, other);
    await create('EventCars', { eventId, carId }, {}, other);
    const theirs = await create('Setups', { eventId, carId }, { Ratio: '9' }, other);
    const answers = [];
    for (const setupId of [theirs, randomUUID()]) {
      // A reference is checked on write and cleared when what it names is deleted: a stored one naming a setup the
      // account does not have is what a delete racing the write (or a row from before the check) leaves.
      const runSheet = await create('RunSheets', { sessionId: ids['session'] as string, carId: ids['car'] as string });
      await db.query(`UPDATE entity.entities SET parameters = jsonb_set(parameters, '{SetupId}', to_jsonb($1::text)) WHERE id = $2`, [setupId, runSheet]);
      const answer = await ask('RunSheets', runSheet);
      expect(answer).toEqual({ entities: [{ type: 'RunSheets', id: runSheet, parameters: {} }, car()], missing: [{ type: 'Setups', id: setupId, namedBy: 'SetupId' }] });
      answers.push(JSON.stringify(answer).replaceAll(runSheet, '<runSheet>').replaceAll(setupId, '<setup>'));
    }
    expect(answers[0]).toBe(answers[1]);
  });

  test('when the run sheet names a Setup of another car of the account (a write the API accepts), then that setup is not looked at but named as of another car, its own car with it', async () => {
    // Another car of the account entered in the same event, with a setup of its own holding the parameter.
    const otherCar = await create('Cars', {}, { Name: 'GT3 #88' });
    await create('EventCars', { eventId: ids['event'] as string, carId: otherCar });
    const theirs = await create('Setups', { eventId: ids['event'] as string, carId: otherCar }, { Name: '88 quali', Ratio: '18' });
    // A reference is checked to name a setup of the account, not of the run sheet's car: the write is accepted.
    const runSheet = await create('RunSheets', { sessionId: ids['session'] as string, carId: ids['car'] as string }, { Name: 'Run 88-1', SetupId: theirs });
    expect(await ask('RunSheets', runSheet)).toEqual({
      entities: [{ type: 'RunSheets', id: runSheet, name: 'Run 88-1', parameters: {} }, car()],
      ofAnotherCar: [{ type: 'Setups', id: theirs, name: '88 quali', namedBy: 'SetupId', carId: otherCar }],
    });
    // Named again as a setup of its own car, it is looked at.
    await stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.update, { caller, type: 'RunSheets', id: runSheet, body: { ParameterUpdates: [{ Name: 'SetupId', Value: ids['setup'] as string }] } });
    expect((await ask('RunSheets', runSheet)).entities.map((e) => e.type)).toEqual(['RunSheets', 'Setups', 'Cars']);
  });

  test('when another account asks for the run sheet, then it is not found (nothing of its chain is answered)', async () => {
    await expect(ask('RunSheets', ids['runSheet'] as string, editor())).rejects.toMatchObject({ status: 404 });
  });
});
