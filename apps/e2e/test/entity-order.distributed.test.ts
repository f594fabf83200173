import { DistributedStack, type Member } from './support/distributed';
import { Api, EntityFactory } from './support/entities';

let stack: DistributedStack;
let admin: Member;
let factory: EntityFactory;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  admin = await stack.member('admin');
  factory = new EntityFactory(new Api(stack.baseUrl, admin));
});
afterAll(async () => {
  await stack?.stop();
});

describe('Laps are ordered by stint lap number (wire.md §3, 0 = out lap)', () => {
  test('when laps arrive out of order, then lists and projections return them by StintLapNumber', async () => {
    const runSheetId = (await factory.build('RunSheets', { allParameters: false })).entity.Id;
    for (const n of [3, 0, 2, 1]) {
      const lap = await admin.client.addLap(runSheetId, { ParameterUpdates: [{ Name: 'StintLapNumber', Value: String(n) }, { Name: 'LapTime', Value: String(90 + n) }] });
      expect(lap.statusCode).toBe(201);
    }
    const listed = await admin.client.getAllLapsForRunSheet(runSheetId);
    expect(listed.returnValue?.map((l) => l.Parameters['StintLapNumber'])).toEqual([0, 1, 2, 3]);
    const projected = await admin.client.getRunSheetById(runSheetId, 'Laps.StintLapNumber');
    expect((projected.returnValue?.['Laps'] as { Parameters: { StintLapNumber: number } }[]).map((l) => l.Parameters.StintLapNumber)).toEqual([0, 1, 2, 3]);
  });
});
