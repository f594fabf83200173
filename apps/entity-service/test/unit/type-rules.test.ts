import { ENTITY_TYPES, requireEntityType, type EntityTypeDef, type ParameterDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import type { EntityRow } from '../../src/data-access/entity-row';
import { beforeWrite, rulesOf, TYPE_RULES } from '../../src/domain/type-rules';

/** Unit tests do no I/O: a rule that queries here fails the test. */
const noDatabase: Queryable = {
  query: async () => {
    throw new Error('no database in a unit test');
  },
};

const eventCarRow = (parameters: EntityRow['parameters']): EntityRow => ({
  id: 'ec-1',
  account_id: 'a-1',
  type: 'EventCars',
  parent_id: 'event-1',
  parent2_id: 'car-1',
  position: 0,
  parameters,
  created_at: new Date(0),
  modified_at: new Date(0),
});

describe('type rules declared on the registry', () => {
  test('when every registry type is looked up, then each rule it declares has an implementation', () => {
    for (const type of ENTITY_TYPES) expect(rulesOf(type)).toHaveLength(type.rules?.length ?? 0);
  });

  test('when EventCars, ParameterDefinitions, MathChannels and ViewerLayouts are looked up, then they get their own rule and nothing else', () => {
    expect(rulesOf(requireEntityType('EventCars'))).toEqual([TYPE_RULES.eventCarEntry]);
    expect(rulesOf(requireEntityType('ParameterDefinitions'))).toEqual([TYPE_RULES.parameterDefinition]);
    expect(rulesOf(requireEntityType('MathChannels'))).toEqual([TYPE_RULES.mathChannel]);
    expect(rulesOf(requireEntityType('ViewerLayouts'))).toEqual([TYPE_RULES.viewerLayout]);
  });

  test('when a type declares no rule, then none runs', () => {
    expect(rulesOf(requireEntityType('Cars'))).toEqual([]);
  });

  test('when a type declares a rule the service does not implement, then the lookup fails naming the type and the rule', () => {
    const type = { ...requireEntityType('EventCars'), plural: 'Pits' } as EntityTypeDef;

    expect(() => rulesOf(type, { parameterDefinition: TYPE_RULES.parameterDefinition })).toThrow('Pits declares the rule eventCarEntry, which the entity-service does not implement');
  });
});

describe('eventCarEntry before a write', () => {
  const type = requireEntityType('EventCars');
  const carId = type.parameters.find((p) => p.name === 'CarId');

  test('when an event car is updated, then its CarId is set to the entered car', async () => {
    const existing = eventCarRow({ Name: 'Car 7' });
    const parameters = { ...existing.parameters };

    await beforeWrite(noDatabase, 'a-1', { type, parameters, parents: { parent_id: 'event-1', parent2_id: 'car-1' }, updates: [], existing });

    expect(parameters).toEqual({ Name: 'Car 7', CarId: 'car-1' });
  });

  test('when an update names another car as CarId, then it is refused naming that ParameterUpdate', async () => {
    const existing = eventCarRow({ CarId: 'car-1' });
    const write = { type, parameters: { CarId: 'car-2' }, parents: { parent_id: 'event-1', parent2_id: 'car-1' }, updates: [{ def: carId as ParameterDef, value: 'car-2', index: 1 }], existing };

    await expect(beforeWrite(noDatabase, 'a-1', write)).rejects.toMatchObject({ status: 400, errors: { 'ParameterUpdates[1].Value': ['CarId is the entered car (carId) and cannot be changed'] } });
    // As an item of a collection update, the path is the item's.
    await expect(beforeWrite(noDatabase, 'a-1', { ...write, updatesPath: 'CollectionUpdateModels.Cars[2].ParameterUpdates' })).rejects.toMatchObject({ errors: { 'CollectionUpdateModels.Cars[2].ParameterUpdates[1].Value': ['CarId is the entered car (carId) and cannot be changed'] } });
  });
});
