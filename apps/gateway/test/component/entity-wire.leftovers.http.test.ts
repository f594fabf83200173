import { randomUUID } from 'node:crypto';
import { useEntityStack } from '../support/entity-stack';

type Entity = { Id: string; Parameters: Record<string, unknown> } & Record<string, unknown>;

/** What the official wrappers' examples read (issue 37): an unset reference, a CopyAll's children, a tyre's query ids. */
describe('entity wire, as the official wrappers read it (gateway and entity-service in-process)', () => {
  const env = useEntityStack();

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Entity & { title?: string; errors?: Record<string, string[]> } }> => {
    const res = await fetch(`${env.base}${path}`, { method, headers: env.headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Entity };
  };
  const named = (name: string, more: { Name: string; Value: string }[] = []) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }, ...more] });
  const create = async (path: string, body: unknown): Promise<Entity> => {
    const res = await call('POST', path, body);
    expect([path, res.status]).toEqual([path, 201]);
    return res.body;
  };

  async function createRunSheet(setupId?: string): Promise<{ runSheet: Entity; eventId: string; carId: string }> {
    const championship = await create('/Championships', named(`Wire Cup ${randomUUID()}`));
    const event = await create(`/Events?championshipId=${championship.Id}`, named('Round 1'));
    const session = await create(`/Sessions?eventId=${event.Id}`, named('FP1'));
    const car = await create('/Cars', named('Car 7'));
    await create(`/EventCars?eventId=${event.Id}&carId=${car.Id}`, named('Car 7'));
    const runSheet = await create(`/RunSheets?sessionId=${session.Id}&carId=${car.Id}`, named('Run 1', setupId ? [{ Name: 'SetupId', Value: setupId }] : []));
    return { runSheet, eventId: event.Id, carId: car.Id };
  }

  describe('GET /RunSheets/{id}?parametersToInclude=*,Setup.*', () => {
    test('when the run sheet has no setup, then Parameters carries "Setup": null beside "SetupId": null', async () => {
      const { runSheet } = await createRunSheet();
      const read = await call('GET', `/RunSheets/${runSheet.Id}?parametersToInclude=*,Setup.*`);
      expect(read.status).toBe(200);
      expect(read.body.Parameters).toHaveProperty('SetupId', null);
      expect(read.body.Parameters).toHaveProperty('Setup', null);
    });

    test('when the run sheet has a setup, then Parameters carries the setup with its parameters', async () => {
      const first = await createRunSheet();
      const setup = await create(`/Setups?eventId=${first.eventId}&carId=${first.carId}`, named('Baseline'));
      await call('PUT', `/RunSheets/${first.runSheet.Id}`, { ParameterUpdates: [{ Name: 'SetupId', Value: setup.Id }] });
      const read = await call('GET', `/RunSheets/${first.runSheet.Id}?parametersToInclude=*,Setup.*`);
      expect(read.body.Parameters['Setup']).toEqual({ Id: setup.Id, Parameters: expect.objectContaining({ Name: 'Baseline' }) });
    });

    test('when only * is asked and the setup is unset, then "Setup" is present as null too', async () => {
      const { runSheet } = await createRunSheet();
      const read = await call('GET', `/RunSheets/${runSheet.Id}`);
      expect(read.body.Parameters).toHaveProperty('Setup', null);
    });
  });

  describe('POST /Championships with CopyAll', () => {
    test('when the projection asks for the events, then the answer carries the copied events, and without it they are an empty collection', async () => {
      const source = await create('/Championships', named(`Copy source ${randomUUID()}`));
      await create(`/Events?championshipId=${source.Id}`, named('Round 1'));
      await create(`/Events?championshipId=${source.Id}`, named('Round 2'));

      const copy = await create('/Championships?parametersToInclude=*,Events.*', { CopyFromId: source.Id, CopyAll: true, ParameterUpdates: [{ Name: 'Name', Value: 'The copy' }] });
      expect(copy.Parameters['Name']).toBe('The copy');
      const events = copy['Events'] as Entity[];
      expect(events.map((e) => e.Parameters['Name']).sort()).toEqual(['Round 1', 'Round 2']);
      // The answer is the copy as a read of it would render it: its own events, with new ids.
      const read = await call('GET', `/Championships/${copy.Id}?parametersToInclude=*,Events.*`);
      expect(copy).toEqual(read.body);

      const plain = await create('/Championships', { CopyFromId: source.Id, CopyAll: true });
      expect(plain['Events']).toEqual([]);
    });

    test('when the projection names an unknown path, then it is a 400 naming it and nothing is created', async () => {
      const name = `Refused copy ${randomUUID()}`;
      const res = await call('POST', '/Championships?parametersToInclude=Eventz.*', named(name));
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('parametersToInclude');
      const all = await call('GET', '/Championships');
      expect((all.body as unknown as Entity[]).some((c) => c.Parameters['Name'] === name)).toBe(false);
    });
  });

  describe('POST /Tyres?tyreSpecificationId=', () => {
    test('when the tyre specification is named in the query, then the tyre is created referencing it', async () => {
      const spec = await create('/TyreSpecifications', named('Soft 18"'));
      const tyre = await create(`/Tyres?tyreSpecificationId=${spec.Id}`, named('Front left'));
      expect(tyre.Parameters['TyreSpecificationId']).toBe(spec.Id);
      const listed = await call('GET', `/Tyres?tyreSpecificationId=${spec.Id}`);
      expect((listed.body as unknown as Entity[]).map((t) => t.Id)).toEqual([tyre.Id]);
    });

    test('when the query names a tyre specification that does not exist, then it is a 400 naming the query parameter and nothing is created', async () => {
      const missing = randomUUID();
      const name = `Orphan ${randomUUID()}`;
      const res = await call('POST', `/Tyres?tyreSpecificationId=${missing}`, named(name));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ tyreSpecificationId: [`TyreSpecificationId references TyreSpecification ${missing}, which was not found`] });
      const all = await call('GET', '/Tyres');
      expect((all.body as unknown as Entity[]).some((t) => t.Parameters['Name'] === name)).toBe(false);
    });

    test('when the query value is not a GUID, then it is a 400 naming it', async () => {
      const res = await call('POST', '/Tyres?tyreSpecificationId=soft', named('Bad'));
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('tyreSpecificationId');
    });
  });

  describe('null lists, as a .NET model serialises its unset ones', () => {
    test('when ParameterUpdates, an association key or an item\'s ParameterUpdates is null, then it is none: the create and the update are stored', async () => {
      const championship = await create('/Championships', { CopyFromId: null, CopyFromLast: false, CopyAll: false, Index: null, ParameterUpdates: null, ChampionshipAssociationsToAdd: null });
      expect(championship.Parameters['Name']).toBeNull();
      const updated = await call('PUT', `/Championships/${championship.Id}`, { LastModifiedTimeMaxAllowedValue: null, ParameterUpdates: [{ Name: 'Name', Value: 'Named later' }], CollectionUpdateModels: null, EventAssociationsToAdd: null });
      expect([updated.status, updated.body.Parameters['Name']]).toEqual([200, 'Named later']);
      const event = await create(`/Events?championshipId=${championship.Id}`, named('Round 1'));
      const tyre = await create('/Tyres', { ParameterUpdates: [{ Name: 'Name', Value: 'T1' }], EventAssociationsToAdd: [{ EventId: event.Id, ParameterUpdates: null }] });
      expect((await call('GET', `/Tyres/${tyre.Id}`)).body.Parameters['EventId']).toBe(event.Id);
    });
  });

  describe('refusals of the entity-service', () => {
    const names = async (path: string) => ((await call('GET', path)).body as unknown as Entity[]).map((e) => e.Parameters['Name']);

    test('when POST /Events names no championshipId, in the query or the body (null), then it is a 400 naming championshipId', async () => {
      for (const body of [named('Round 1'), { championshipId: null, ...named('Round 1') }]) {
        const res = await call('POST', '/Events', body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ detail: 'The parent ids are not valid', errors: { championshipId: ['is required'] } });
      }
    });

    test('when a collection item is {Delete: true} with no Id, then it is a 400 saying it needs an Id and the collection stays', async () => {
      const championship = await create('/Championships', named(`Keeps its events ${randomUUID()}`));
      await create(`/Events?championshipId=${championship.Id}`, named('Round 1'));
      const res = await call('PUT', `/Championships/${championship.Id}`, { CollectionUpdateModels: { Events: [{ Delete: true }] } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ detail: 'The request body is not valid', errors: { 'CollectionUpdateModels.Events[0].Delete': ['needs an Id'] } });
      expect(await names(`/Events?championshipId=${championship.Id}`)).toEqual(['Round 1']);
    });

    test('when a Session update adds a RunSheets item without CarId (its second parent), then it is a 400 naming CarId and nothing is added', async () => {
      const championship = await create('/Championships', named(`Run sheets ${randomUUID()}`));
      const event = await create(`/Events?championshipId=${championship.Id}`, named('Round 1'));
      const session = await create(`/Sessions?eventId=${event.Id}`, named('FP1'));
      const res = await call('PUT', `/Sessions/${session.Id}`, { CollectionUpdateModels: { RunSheets: [{ ParameterUpdates: [{ Name: 'Name', Value: 'Run 1' }] }] } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ detail: 'The request body is not valid', errors: { 'CollectionUpdateModels.RunSheets[0].ParameterUpdates': ['CarId (a GUID) is required to add to RunSheets'] } });
      expect(await names(`/RunSheets?sessionId=${session.Id}`)).toEqual([]);
    });

    test('when ChampionshipAssociationsToAdd holds two items, then it is a 400 saying it holds one and nothing is created', async () => {
      const [first, second] = [await create('/Championships', named(`Cup A ${randomUUID()}`)), await create('/Championships', named(`Cup B ${randomUUID()}`))];
      const name = `Two cups ${randomUUID()}`;
      const res = await call('POST', '/Tyres', { ...named(name), ChampionshipAssociationsToAdd: [{ ChampionshipId: first.Id }, { ChampionshipId: second.Id }] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ detail: 'The request body is not valid', errors: { ChampionshipAssociationsToAdd: ['holds one item: each Tyre has one Championship'] } });
      expect(await names('/Tyres')).not.toContain(name);
    });
  });
});
