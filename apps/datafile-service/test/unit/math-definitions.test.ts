import type { Bus } from '@pitwall/bus';
import type { CallerContext } from '@pitwall/contracts';
import { MATH_DEFINITIONS_TTL_MS, MathDefinitions } from '../../src/domain/math-definitions';
import { evaluateMathChannel } from '../../src/workers/math-channels';

const caller = (accountId: string): CallerContext => ({ accountId, userId: '00000000-0000-4000-8000-000000000001', role: 'reader' });
const A = '00000000-0000-4000-8000-00000000000a';

/** A bus that answers entity.list with the given entities and counts the requests. */
function fakeBus(answer: () => unknown[]) {
  const requests: { type: string; payload: unknown }[] = [];
  const bus = {
    request: async (_service: string, type: string, payload: unknown) => {
      requests.push({ type, payload });
      return answer();
    },
  } as unknown as Bus;
  return { bus, requests };
}

describe('MathDefinitions', () => {
  test('when an account is asked twice, then the entity-service is asked once, as the caller, for MathChannels; an event or the TTL asks again', async () => {
    let now = 0;
    let expression = '"Speed" / 3.6';
    const { bus, requests } = fakeBus(() => [{ Id: 'x', Parameters: { Name: 'Speed ms', Expression: expression, Unit: 'm/s', Rate: null } }]);
    const definitions = new MathDefinitions(bus, () => now);
    expect([...(await definitions.of(caller(A))).values()]).toEqual([{ name: 'Speed ms', expression: '"Speed" / 3.6', unit: 'm/s' }]);
    await definitions.of(caller(A));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ type: 'entity.list', payload: { caller: caller(A), type: 'MathChannels', parentIds: {} } });
    expression = 'Speed';
    definitions.invalidate(A);
    expect((await definitions.of(caller(A))).get('Speed ms')?.expression).toBe('Speed');
    now += MATH_DEFINITIONS_TTL_MS;
    await definitions.of(caller(A));
    expect(requests).toHaveLength(3);
  });

  test('when a definition has DecimalPlaces, then it is listed with it; one out of range (never written since the rule) is full precision', async () => {
    const { bus, requests } = fakeBus(() => [
      { Id: 'a', Parameters: { Name: 'Two', Expression: 'x', Unit: '', DecimalPlaces: 2 } },
      { Id: 'b', Parameters: { Name: 'Zero', Expression: 'x', Unit: '', DecimalPlaces: 0 } },
      { Id: 'c', Parameters: { Name: 'Empty', Expression: 'x', Unit: '', DecimalPlaces: null } },
      { Id: 'd', Parameters: { Name: 'Past', Expression: 'x', Unit: '', DecimalPlaces: 12 } },
    ]);
    const definitions = await new MathDefinitions(bus).of(caller(A));
    expect([...definitions.values()].map((d) => [d.name, d.decimalPlaces])).toEqual([['Two', 2], ['Zero', 0], ['Empty', undefined], ['Past', undefined]]);
    expect(requests[0]?.payload).toMatchObject({ include: expect.arrayContaining(['DecimalPlaces']) });
  });

  test('when the list fails, then it is not kept: the next read asks again', async () => {
    let fail = true;
    const { bus, requests } = fakeBus(() => {
      if (fail) throw new Error('entity-service down');
      return [];
    });
    const definitions = new MathDefinitions(bus);
    await expect(definitions.of(caller(A))).rejects.toThrow('entity-service down');
    fail = false;
    expect((await definitions.of(caller(A))).size).toBe(0);
    expect(requests).toHaveLength(2);
  });
});

describe('evaluateMathChannel (the pool task)', () => {
  const slice = (name: string, frequency: number, values: number[], startTime = 0) => ({
    name,
    unit: '',
    frequency,
    dimension: 1,
    startTime,
    samples: Float64Array.from(values),
    conversion: { numerator: 1, denominator: 1, offset: 0 },
  });

  test('when inputs have different rates, then the fastest one is the time base and the other is resampled linearly, none past its samples', () => {
    const fast = slice('a', 4, [0, 1, 2, 3, 4, 5, 6, 7]); // 0 .. 1.75 s
    const slow = slice('b', 1, [10, 20]); // 0, 1 s
    const out = evaluateMathChannel({ name: 'm', unit: 'u', definitions: [{ name: 'm', expression: 'a + b' }], inputs: [fast, slow], span: { start: 0, end: 2 } });
    expect(out).toMatchObject({ name: 'm', unit: 'u', frequency: 4, startTime: 0 });
    // b at 0, .25, .5, .75, 1 is 10, 12.5, 15, 17.5, 20; after 1 s there is no b.
    expect(Array.from(out.samples)).toEqual([10, 13.5, 17, 20.5, 24, NaN, NaN, NaN]);
    expect(Array.from(out.gaps ?? [])).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
  });

  test('when a Rate is given, then the time base is a grid at that rate over the inputs; lapTime() counts from each lap start', () => {
    const a = slice('a', 10, Array.from({ length: 21 }, (_, i) => i)); // 0 .. 2 s
    const out = evaluateMathChannel({ name: 'm', unit: '', definitions: [{ name: 'm', expression: 'a * 0 + lapTime()' }], inputs: [a], rate: 2, span: { start: 0, end: 2 }, laps: [{ start: 0, end: 1.2, index: 0 }, { start: 1.2, end: 2, index: 1 }] });
    expect(out.frequency).toBe(2);
    expect(Array.from(out.samples).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0.5, 1, 0.3, 0.8]);
  });
});
