import { PitwallClient } from '@pitwall/client';
import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, withEntityStack, updates } from './support/entities';

let stack: DistributedStack;
let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ stack, api, factory } = f));

describe('PitwallClient list methods of a type with two parents', () => {
  test('when setups of two cars exist in one event, then they list by event and car, by event alone, and by car alone', async () => {
    const client = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: api.member.apiKey, accountId: api.member.accountId });
    const first = await factory.build('Setups', { allParameters: false });
    const eventId = first.parentIds['eventId'] as string;
    const otherCar = (await api.create('Cars', {}, { ParameterUpdates: updates({ Name: 'Car 8' }) })).body.Id as string;
    await api.create('EventCars', { eventId, carId: otherCar }, {});
    const second = (await client.addSetup(eventId, otherCar, { ParameterUpdates: updates({ Name: 'Quali trim' }) })).returnValue?.Id;

    const ids = (r: { returnValue: { Id: string }[] | null }) => (r.returnValue ?? []).map((s) => s.Id).sort();
    expect(ids(await client.getAllSetupsForEventCar(eventId, otherCar))).toEqual([second]);
    expect(ids(await client.getAllSetupsForEvent(eventId))).toEqual([first.entity.Id, second].sort());
    expect(ids(await client.getAllSetupsForCar(otherCar))).toEqual([second]);
    expect(ids(await client.getAllEventCarsForEvent(eventId))).toHaveLength(2);
  });
});
