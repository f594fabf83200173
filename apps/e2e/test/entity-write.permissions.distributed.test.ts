import { DistributedStack, type Member } from './support/distributed';
import { Api, EntityFactory, updates } from './support/entities';

let stack: DistributedStack;
let admin: Member;
let adminApi: Api;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  admin = await stack.member('admin');
  adminApi = new Api(stack.baseUrl, admin);
});
afterAll(async () => {
  await stack?.stop();
});

describe.each(['Championships', 'Setups', 'RunSheets', 'Laps', 'Tyres', 'ParameterDefinitions'])('%s writes by role', (plural) => {
  test('when a reader creates, updates or deletes, then each is a 403 and nothing changes; reads work', async () => {
    const reader = new Api(stack.baseUrl, await stack.member('reader', admin.accountId));
    const existing = await new EntityFactory(adminApi).build(plural);
    expect((await reader.create(plural, existing.parentIds, { ParameterUpdates: updates({ Name: 'Reader' }) })).status).toBe(403);
    expect((await reader.update(plural, existing.entity.Id, { ParameterUpdates: updates({ Name: 'Reader' }) })).status).toBe(403);
    expect((await reader.delete(plural, existing.entity.Id)).status).toBe(403);
    const got = await reader.get(plural, existing.entity.Id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(existing.entity);
    expect((await reader.list(plural, existing.parentIds)).body.map((e: { Id: string }) => e.Id)).toContain(existing.entity.Id);
  });

  test('when an editor creates, updates and deletes, then each succeeds', async () => {
    const editor = new Api(stack.baseUrl, await stack.member('editor', admin.accountId));
    const built = await new EntityFactory(editor).build(plural);
    const renamed = plural === 'ParameterDefinitions' ? `${built.entity.Parameters['Name'] as string}`.replace(/Id$/, 'XId') : 'Edited';
    expect((await editor.update(plural, built.entity.Id, { ParameterUpdates: updates({ Name: renamed }) })).status).toBe(200);
    expect((await adminApi.get(plural, built.entity.Id)).body.Parameters.Name).toBe(renamed);
    expect((await editor.delete(plural, built.entity.Id)).status).toBe(204);
  });
});
