import type { Bus } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import { DatasetConstants, heldValues, MAX_NAMES_LISTED, paramsNeeded, resolveConstants, valueOf, type ConstantsChain } from '../../src/domain/dataset-constants';

const runSheet = { type: 'RunSheets', id: '00000000-0000-4000-8000-0000000000aa', parameters: { Ratio: 2, Flag: 1 } };
const setup = { type: 'Setups', id: '00000000-0000-4000-8000-0000000000bb', parameters: { Ratio: 3, MotionRatio: 0.8 } };
const car = { type: 'Cars', id: '00000000-0000-4000-8000-0000000000cc', parameters: { Ratio: 4, MotionRatio: 0.7, Wheelbase: 3.6 } };
const chain: ConstantsChain = { entities: [runSheet, setup, car] };

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('param() values on a dataset\'s owner chain', () => {
  test('when several entities hold a parameter, then the first of the chain wins (the entity, then its setup, then its car), whatever the name\'s case', () => {
    const held = heldValues(chain);
    expect(valueOf(held, 'Ratio')).toEqual({ value: 2, from: `RunSheets ${runSheet.id}` });
    expect(valueOf(held, 'motionratio')).toEqual({ value: 0.8, from: `Setups ${setup.id}` });
    expect(valueOf(held, 'Wheelbase')).toEqual({ value: 3.6, from: `Cars ${car.id}` });
    expect(valueOf(held, 'Nope')).toBeUndefined();
    // One entry a name, whatever its case among the entities: the map holds what the chain holds, once.
    expect([...held].map(([name, { value }]) => [name, value])).toEqual([['ratio', 2], ['flag', 1], ['motionratio', 0.8], ['wheelbase', 3.6]]);
  });

  test('when the channels of a read are resolved, then each parameter they read has its value and the entity it was taken from, logged channels reading none', () => {
    const values = resolveConstants([{ name: 'Speed', params: new Set(['Ratio', 'Wheelbase']) }, undefined, { name: 'Roll', params: new Set(['MotionRatio', 'Ratio']) }], chain, () => 'channels', '');
    expect([...values]).toEqual([
      ['Ratio', { value: 2, from: `RunSheets ${runSheet.id}` }],
      ['Wheelbase', { value: 3.6, from: `Cars ${car.id}` }],
      ['MotionRatio', { value: 0.8, from: `Setups ${setup.id}` }],
    ]);
  });

  test('when a channel reads several parameters no entity holds, then its refusal names every one (the first MAX_NAMES_LISTED, then how many more) and the entities by their Names', () => {
    const named: ConstantsChain = { entities: [{ ...runSheet, name: 'Run 88-1' }, { ...car, name: 'Demo' }] };
    const looked = `none of RunSheets ${runSheet.id} ("Run 88-1"), Cars ${car.id} ("Demo") holds as a number (a Double, Integer or Boolean parameter)`;
    const two = refusalOf(() => resolveConstants([{ name: 'Steer', params: new Set(['SteeringRatio', 'Ratio', 'Rack']) }], named, () => 'channel', ''));
    expect(two.errors).toEqual({ channel: [`math channel Steer reads param("SteeringRatio") and param("Rack"), which ${looked}`] });
    const many = new Set(Array.from({ length: MAX_NAMES_LISTED + 3 }, (_, i) => `P${i}`));
    const listed = Array.from({ length: MAX_NAMES_LISTED }, (_, i) => `param("P${i}")`).join(', ');
    expect(refusalOf(() => resolveConstants([{ name: 'Sum', params: many }], named, () => 'channel', '')).errors).toEqual({ channel: [`math channel Sum reads ${listed} and 3 more, which ${looked}`] });
    // A long Name is cut.
    const long = refusalOf(() => resolveConstants([{ name: 'Steer', params: new Set(['Rack']) }], { entities: [{ ...car, name: 'x'.repeat(500) }] }, () => 'channel', ''));
    expect(long.message).toBe(`math channel Steer reads param("Rack"), which none of Cars ${car.id} ("${'x'.repeat(60)}…") holds as a number (a Double, Integer or Boolean parameter)`);
  });

  test('when no entity of the chain holds one, then it is a 422 on the field naming the channel, the parameter and every entity looked at', () => {
    const error = refusalOf(() => resolveConstants([undefined, { name: 'Steer', params: new Set(['Ratio', 'SteeringRatio']) }], chain, (i) => `channels[${i}]`, 'The data file could not be read: RunSheets x dataset \'DataFile\': '));
    const reason = `math channel Steer reads param("SteeringRatio"), which none of RunSheets ${runSheet.id}, Setups ${setup.id}, Cars ${car.id} holds as a number (a Double, Integer or Boolean parameter)`;
    expect(error.status).toBe(422);
    expect(error.errors).toEqual({ 'channels[1]': [reason] });
    expect(error.message).toBe(`The data file could not be read: RunSheets x dataset 'DataFile': ${reason}`);
  });

  test('when the Setup the dataset\'s entity names was not found, or no entity was looked at, then the refusal says so in words', () => {
    const missingId = '00000000-0000-4000-8000-0000000000dd';
    const withoutSetup: ConstantsChain = { entities: [runSheet, car], missing: [{ type: 'Setups', id: missingId, namedBy: 'SetupId' }] };
    expect(refusalOf(() => resolveConstants([{ name: 'Steer', params: new Set(['SteeringRatio']) }], withoutSetup, () => 'channel', '')).errors).toEqual({
      channel: [`math channel Steer reads param("SteeringRatio"), which none of RunSheets ${runSheet.id}, Cars ${car.id} holds as a number (a Double, Integer or Boolean parameter); the Setup ${missingId} that RunSheets ${runSheet.id} names as its SetupId was not found`],
    });
    expect(refusalOf(() => resolveConstants([{ name: 'Steer', params: new Set(['Ratio']) }], { entities: [] }, () => 'channel', '')).message).toBe('math channel Steer reads param("Ratio"), which no entity holds as a number (a Double, Integer or Boolean parameter)');
  });

  test('when the Setup the dataset\'s entity names is of another car, then the refusal says so, naming it and its car', () => {
    const theirs = '00000000-0000-4000-8000-0000000000ee';
    const theirCar = '00000000-0000-4000-8000-0000000000ff';
    const elsewhere: ConstantsChain = { entities: [{ ...runSheet, name: 'Run 88-1' }, car], ofAnotherCar: [{ type: 'Setups', id: theirs, name: '88 quali', namedBy: 'SetupId', carId: theirCar }] };
    expect(refusalOf(() => resolveConstants([{ name: 'Steer', params: new Set(['SteeringRatio']) }], elsewhere, () => 'channel', '')).errors).toEqual({
      channel: [`math channel Steer reads param("SteeringRatio"), which none of RunSheets ${runSheet.id} ("Run 88-1"), Cars ${car.id} holds as a number (a Double, Integer or Boolean parameter); the Setup ${theirs} ("88 quali") that RunSheets ${runSheet.id} ("Run 88-1") names as its SetupId is of another car (Cars ${theirCar}), so its values are not used`],
    });
  });

  test('when the channels of a read need more distinct parameters together than MAX_MATH_PARAMS, then it is a 422 naming the variable (on channels for a batch: the read as a whole, as that channel reads well alone); a set shared by several is counted once', () => {
    const shared = new Set(['A', 'B']);
    expect(paramsNeeded([{ name: 'x', params: shared }, undefined, { name: 'y', params: shared }, { name: 'z', params: new Set(['B', 'C']) }], 3, () => 'channels', '')).toEqual(['A', 'B', 'C']);
    const error = refusalOf(() => paramsNeeded([{ name: 'x', params: shared }, { name: 'y', params: new Set(['B', 'C']) }, { name: 'z', params: new Set(['D']) }], 3, (i) => `channels[${i}]`, 'The data file could not be read: '));
    const reason = 'the math channels of this read need more than 3 distinct parameters with param() together (MAX_MATH_PARAMS is 3): read z in a read of its own or with fewer channels';
    expect({ status: error.status, errors: error.errors, message: error.message }).toEqual({ status: 422, errors: { channels: [reason] }, message: `The data file could not be read: ${reason}` });
  });

  test('when the chain is asked for, then the entity-service is asked as the caller, for the dataset\'s entity and the names the read needs, each once whatever its case', async () => {
    const asked: { type: string; payload: unknown }[] = [];
    const bus = { request: async (_service: string, type: string, payload: unknown) => (asked.push({ type, payload }), chain) } as unknown as Bus;
    const ref = { caller: { accountId: '00000000-0000-4000-8000-00000000000a', userId: '00000000-0000-4000-8000-000000000001', role: 'reader' as const }, type: 'RunSheets', id: runSheet.id, group: 'DataFile' };
    expect(await new DatasetConstants(bus).chainOf(ref, ['Ratio', 'MotionRatio', 'ratio'])).toEqual(chain);
    expect(asked).toEqual([{ type: ATTACHMENT_COMMANDS.datasetConstants, payload: { caller: ref.caller, type: 'RunSheets', id: runSheet.id, names: ['ratio', 'motionratio'] } }]);
  });
});
