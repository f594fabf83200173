import type { PitwallClient } from '@pitwall/client';

/**
 * What a triggered simulation needs in an account: the setup parameters a profile writes its status to, a profile of
 * the external system at `baseUrl`, and `setups` setups (one by default) of a car entered in an event.
 */
export async function buildSimulationFixture(client: PitwallClient, baseUrl: string, setups = 1): Promise<{ profileId: string; setupId: string; setupIds: string[] }> {
  for (const name of ['SimStatus', 'SimMessage', 'SimStudyId', 'SimUpdated'])
    expect((await client.addParameterDefinition({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'EntityType', Value: 'Setups' }, { Name: 'ParameterType', Value: 'Text' }] })).statusCode).toBe(201);
  const profile = await client.addExternalSimulationProfile({
    ParameterUpdates: [
      { Name: 'Name', Value: 'Lap sim' },
      { Name: 'BaseUrl', Value: baseUrl },
      { Name: 'StatusParameterName', Value: 'SimStatus' },
      { Name: 'StatusMessageParameterName', Value: 'SimMessage' },
      { Name: 'StudyIdParameterName', Value: 'SimStudyId' },
      { Name: 'StatusUpdateTimeParameterName', Value: 'SimUpdated' },
    ],
  });
  const championship = await client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Cup' }] });
  const event = await client.addEvent(championship.returnValue!.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'Spa' }] });
  const car = await client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Car 7' }] });
  await client.addEventCar(event.returnValue!.Id, car.returnValue!.Id, {});
  const setupIds: string[] = [];
  for (let i = 0; i < setups; i++) {
    const setup = await client.addSetup(event.returnValue!.Id, car.returnValue!.Id, { ParameterUpdates: [{ Name: 'Name', Value: i === 0 ? 'Quali trim' : `Quali trim ${i + 1}` }] });
    setupIds.push(setup.returnValue!.Id);
  }
  return { profileId: profile.returnValue!.Id, setupId: setupIds[0] as string, setupIds };
}

/** The first value `probe` gives (not undefined), asked every 50 ms; a timeout naming `what` after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
