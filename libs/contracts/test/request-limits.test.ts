import type * as Contracts from '../src';

/** The contracts as a process whose environment holds `env` loads them. */
function contractsWith(env: Record<string, string>): typeof Contracts {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    let loaded: typeof Contracts | undefined;
    jest.isolateModules(() => {
      loaded = require('../src') as typeof Contracts;
    });
    return loaded as typeof Contracts;
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

const updates = (n: number) => Array.from({ length: n }, (_, i) => ({ Name: `P${i}`, Value: '1' }));

describe('the bounds of a request\'s lists, from the environment', () => {
  test('when nothing is set, then the defaults hold, and a list past one is refused naming its variable', () => {
    const c = contractsWith({});
    expect(c.REQUEST_LIMITS).toEqual(c.REQUEST_LIMIT_DEFAULTS);
    expect(c.CreateModel.safeParse({ ParameterUpdates: updates(10_000) }).success).toBe(true);
    const refused = c.CreateModel.safeParse({ ParameterUpdates: updates(10_001) });
    expect(refused.error?.issues.map((i) => i.message)).toEqual(['must have at most 10000 items (MAX_PARAMETER_UPDATES)']);
  });

  test('when MAX_PARAMETER_UPDATES and MAX_BATCH_CHANNELS are set, then the schemas hold those bounds, and so does the OpenAPI document', () => {
    const c = contractsWith({ MAX_PARAMETER_UPDATES: '2', MAX_BATCH_CHANNELS: '3' });
    expect(c.UpdateModel.safeParse({ ParameterUpdates: updates(3) }).error?.issues.map((i) => i.message)).toEqual(['must have at most 2 items (MAX_PARAMETER_UPDATES)']);
    expect(c.ChannelsBody.safeParse({ channels: ['a', 'b', 'c', 'd'], mode: 0 }).error?.issues.map((i) => i.message)).toEqual(['must have at most 3 items (MAX_BATCH_CHANNELS)']);
    expect(JSON.stringify(c.buildOpenApiDocument())).toContain('"maxItems":2');
  });

  test('when a bound is not a whole number of 1 or more, then loading does not throw (an uncaught stack trace repeating the value) and keeps the default: the start refuses it naming the variable, as every setting (libs/service-host settings.test.ts)', () => {
    for (const bad of ['0', '-5', '1.5', 'lots', '0x10', ' 7']) expect(contractsWith({ MAX_COLLECTION_ITEMS: bad }).REQUEST_LIMITS.MAX_COLLECTION_ITEMS).toBe(10_000);
  });
});
