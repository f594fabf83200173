import { Api, EntityFactory, withEntityStack, updates } from './support/entities';

let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ api, factory } = f));

describe('PUT /{Plural}/{id} with LastModifiedTimeMaxAllowedValue', () => {
  test.each(['Championships', 'RunSheets', 'Laps'])(
    'when two %s updates race with the same X-Last-Modified-Time, then exactly one is 200 and the other 409, every round',
    async (plural) => {
      const { entity } = await factory.build(plural);
      for (let round = 0; round < 5; round++) {
        const stamp = (await api.get(plural, entity.Id)).headers.get('x-last-modified-time') as string;
        expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        const [a, b] = await Promise.all(
          ['left', 'right'].map((side) => api.update(plural, entity.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: updates({ Name: `${side} ${round}` }) })),
        );
        expect([a?.status, b?.status].sort()).toEqual([200, 409]);
        const winner = a?.status === 200 ? 'left' : 'right';
        const loser = a?.status === 409 ? a : b;
        expect(loser?.headers.get('content-type')).toContain('application/problem+json');
        expect(loser?.body.detail).toContain('after LastModifiedTimeMaxAllowedValue');
        const after = await api.get(plural, entity.Id);
        // Not a 200: the failure shows the status and the problem's body.
        expect(after.status === 200 ? 200 : { status: after.status, body: after.body }).toEqual(200);
        expect(after.body.Parameters.Name).toBe(`${winner} ${round}`);
        expect(Date.parse(after.headers.get('x-last-modified-time') as string)).toBeGreaterThan(Date.parse(stamp));
      }
    },
  );

  test('when the update answers, then its X-Last-Modified-Time is the stamp a following update may use', async () => {
    const { entity } = await factory.build('Championships');
    const first = await api.update('Championships', entity.Id, { ParameterUpdates: updates({ Name: 'one' }) });
    const stamp = first.headers.get('x-last-modified-time') as string;
    expect((await api.update('Championships', entity.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: updates({ Name: 'two' }) })).status).toBe(200);
    expect((await api.update('Championships', entity.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: updates({ Name: 'three' }) })).status).toBe(409);
    expect((await api.get('Championships', entity.Id)).body.Parameters.Name).toBe('two');
  });
});

describe('POST /EventCars raced', () => {
  test('when the same car is entered in the same event by concurrent requests, then exactly one is 201 and the others 409', async () => {
    for (let round = 0; round < 3; round++) {
      const event = await factory.build('Events', { allParameters: false });
      const car = await factory.build('Cars', { allParameters: false });
      const parents = { eventId: event.entity.Id, carId: car.entity.Id };
      const answers = await Promise.all([0, 1, 2, 3].map(() => api.create('EventCars', parents, {})));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
      expect((await api.list('EventCars', parents)).body).toHaveLength(1);
    }
  });
});
