import { DistributedStack, type Member } from './support/distributed';

let stack: DistributedStack;
let admin: Member;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  admin = await stack.member('admin');
});
afterAll(async () => {
  await stack?.stop();
});

const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });

describe('association keys on create and update bodies (wire.md §3)', () => {
  test('when a tyre is created with ChampionshipAssociationsToAdd, then it carries ChampionshipId and search mode 1 finds it', async () => {
    const championship = (await admin.client.addChampionship(name('GTWC'))).returnValue!;
    const tyre = await admin.client.addTyre({ ...name('Set 1 FL'), ChampionshipAssociationsToAdd: [{ ChampionshipId: championship.Id.toUpperCase() }] });
    expect(tyre.statusCode).toBe(201);
    expect(tyre.returnValue?.Parameters['ChampionshipId']).toBe(championship.Id);
    const found = await admin.client.searchForTyres({ AssociatedModelSearchMode: 1, ChampionshipId: championship.Id });
    expect(found.returnValue?.map((t) => t.Id)).toEqual([tyre.returnValue?.Id]);
  });

  test('when an update adds and then removes an event association, then EventId follows', async () => {
    const championship = (await admin.client.addChampionship(name('ELMS'))).returnValue!;
    const event = (await admin.client.addEvent(championship.Id, name('Spa'))).returnValue!;
    const issue = (await admin.client.addIssueListIssue(name('Brake judder'))).returnValue!;
    const added = await admin.client.updateIssueListIssue(issue.Id, { EventAssociationsToAdd: [{ EventId: event.Id }] } as never);
    expect(added.returnValue?.Parameters['EventId']).toBe(event.Id);
    const removed = await admin.client.updateIssueListIssue(issue.Id, { EventAssociationsToRemove: [{ EventId: event.Id }] } as never);
    expect(removed.returnValue?.Parameters['EventId']).toBeNull();
  });

  test('when an association is unknown for the type, malformed, or names another account\'s entity, then 400 names it and nothing is written', async () => {
    const before = (await admin.client.getAllTyres()).returnValue!.length;
    const car = (await admin.client.addCar(name('Car 7'))).returnValue!;
    const other = await stack.member('admin');
    const foreign = (await other.client.addChampionship(name('Theirs'))).returnValue!;

    const unknown = await admin.client.addChampionship({ ...name('X'), CarAssociationsToAdd: [{ CarId: car.Id }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.problem?.errors).toEqual({ CarAssociationsToAdd: ['Championships have no Car association'] });

    const malformed = await admin.client.addTyre({ ...name('X'), CarAssociationsToAdd: [{ CarId: 'car-7' }] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.problem?.errors).toEqual({ 'CarAssociationsToAdd[0].CarId': ['is not a GUID'] });

    // A key other than the model's id and ParameterUpdates is a typo, whatever its value; a number is worded as the API words types.
    const typo = await admin.client.addTyre({ ...name('X'), CarAssociationsToAdd: [{ CarId: car.Id, Typo: car.Id, Other: 'x', carid2: 5 }] } as never);
    expect(typo.statusCode).toBe(400);
    expect(typo.problem?.errors).toEqual({ 'CarAssociationsToAdd[0].Typo': ['unknown property'], 'CarAssociationsToAdd[0].Other': ['unknown property'], 'CarAssociationsToAdd[0].carid2': ['unknown property'] });
    const number = await admin.client.addTyre({ ...name('X'), CarAssociationsToAdd: [{ CarId: 7 }] } as never);
    expect(number.problem?.errors).toEqual({ 'CarAssociationsToAdd[0].CarId': ['must be a string, not a number'] });
    // ParameterUpdates binds in any case, as every property does.
    const lower = await admin.client.addTyre({ ...name('X'), CarAssociationsToAdd: [{ carId: car.Id, parameterUpdates: [{ Name: 'Note', Value: 7 }] }] } as never);
    expect(lower.problem?.errors).toEqual({ 'CarAssociationsToAdd[0].ParameterUpdates[0].Value': ['must be a string, not a number'] });

    const crossAccount = await admin.client.addTyre({ ...name('X'), ChampionshipAssociationsToAdd: [{ ChampionshipId: foreign.Id }] });
    expect(crossAccount.statusCode).toBe(400);
    expect(Object.keys(crossAccount.problem?.errors ?? {})).toEqual(['ChampionshipAssociationsToAdd[0].ChampionshipId']);

    expect((await admin.client.getAllTyres()).returnValue!.length).toBe(before);
  });

  test('when an association item carries ParameterUpdates (the Python wrapper\'s shape), then they are stored with it and read back beside Parameters', async () => {
    const championship = (await admin.client.addChampionship(name('GTWC'))).returnValue!;
    const created = await admin.client.addTyre({
      CopyFromLast: true,
      CopyAll: true,
      Index: 0,
      ParameterUpdates: [{ Name: 'Name', Value: 'Test Tyre' }],
      ChampionshipAssociationsToAdd: [{ ChampionshipId: championship.Id, ParameterUpdates: [{ Name: 'Name', Value: 'Test Championship Association Name' }] }],
    });
    expect(created.statusCode).toBe(201);
    const tyre = created.returnValue!;
    const association = [{ ChampionshipId: championship.Id, Parameters: { Name: 'Test Championship Association Name' } }];
    expect(tyre['ChampionshipAssociations']).toEqual(association);
    expect(tyre.Parameters['ChampionshipId']).toBe(championship.Id);
    expect(tyre.Parameters['Name']).toBe('Test Tyre');

    expect((await admin.client.getTyreById(tyre.Id)).returnValue?.['ChampionshipAssociations']).toEqual(association);
    expect((await admin.client.getTyreById(tyre.Id, ['ChampionshipId'])).returnValue?.['ChampionshipAssociations']).toEqual(association);
    // A read that leaves the association out leaves its parameters out too.
    expect((await admin.client.getTyreById(tyre.Id, ['Name'])).returnValue).not.toHaveProperty('ChampionshipAssociations');
    const found = await admin.client.searchForTyres({ AssociatedModelSearchMode: 1, ChampionshipId: championship.Id });
    expect(found.returnValue?.map((t) => t['ChampionshipAssociations'])).toEqual([association]);
  });

  test('when an update adds to the same association, then its parameters merge (null removes one); when it is removed or replaced, then they go with it', async () => {
    const first = (await admin.client.addChampionship(name('ELMS'))).returnValue!;
    const second = (await admin.client.addChampionship(name('WEC'))).returnValue!;
    const tyre = (await admin.client.addTyre({ ...name('Set 2'), ChampionshipAssociationsToAdd: [{ ChampionshipId: first.Id, ParameterUpdates: [{ Name: 'Name', Value: 'Allocation' }, { Name: 'Note', Value: 'spare' }] }] })).returnValue!;

    const merged = await admin.client.updateTyre(tyre.Id, { ChampionshipAssociationsToAdd: [{ ChampionshipId: first.Id, ParameterUpdates: [{ Name: 'Count', Value: '4' }, { Name: 'Note', Value: null }] }] } as never);
    expect(merged.statusCode).toBe(200);
    expect(merged.returnValue?.['ChampionshipAssociations']).toEqual([{ ChampionshipId: first.Id, Parameters: { Name: 'Allocation', Count: '4' } }]);

    const replaced = await admin.client.updateTyre(tyre.Id, { ChampionshipAssociationsToAdd: [{ ChampionshipId: second.Id }] } as never);
    expect(replaced.returnValue?.Parameters['ChampionshipId']).toBe(second.Id);
    expect(replaced.returnValue).not.toHaveProperty('ChampionshipAssociations');

    await admin.client.updateTyre(tyre.Id, { ChampionshipAssociationsToAdd: [{ ChampionshipId: second.Id, ParameterUpdates: [{ Name: 'Name', Value: 'Race' }] }] } as never);
    const removed = await admin.client.updateTyre(tyre.Id, { ChampionshipAssociationsToRemove: [{ ChampionshipId: second.Id }] } as never);
    expect(removed.returnValue?.Parameters['ChampionshipId']).toBeNull();
    expect(removed.returnValue).not.toHaveProperty('ChampionshipAssociations');
    // Adding the association again starts from no parameters.
    const again = await admin.client.updateTyre(tyre.Id, { ChampionshipAssociationsToAdd: [{ ChampionshipId: second.Id }] } as never);
    expect(again.returnValue).not.toHaveProperty('ChampionshipAssociations');
  });
});

