import { DistributedStack, type Member } from './support/distributed';

let stack: DistributedStack;
let admin: Member;

beforeAll(async () => {
  stack = await DistributedStack.start();
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

    const crossAccount = await admin.client.addTyre({ ...name('X'), ChampionshipAssociationsToAdd: [{ ChampionshipId: foreign.Id }] });
    expect(crossAccount.statusCode).toBe(400);
    expect(Object.keys(crossAccount.problem?.errors ?? {})).toEqual(['ChampionshipAssociationsToAdd[0].ChampionshipId']);

    expect((await admin.client.getAllTyres()).returnValue!.length).toBe(before);
  });
});
