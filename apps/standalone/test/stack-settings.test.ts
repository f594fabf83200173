// tools/stack.cjs (`npm run start:distributed`) reads PORT, HEALTH_PORT and STARTUP_WAIT_S itself, as the apps do.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { stackSettings, stoppedLine, lastLine, APPS } = require('../../../tools/stack.cjs') as {
  stackSettings(env: Record<string, string | undefined>): { port: number; healthPort: number; startupWaitS: number; readyTimeoutMs: number };
  stoppedLine(reason: string, ended: { name: string; exitCode: number | null; signal: string | null }[]): { line: string; exitCode: number };
  lastLine(output: string): string;
  APPS: string[];
};

/** The message the supervisor stops with for `env`, or undefined when it takes it. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    stackSettings(env);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe("the supervisor's own settings", () => {
  test('when nothing is set, then the gateway is on 8080, the health ports are free ones, and it waits STARTUP_WAIT_S (60 s) plus 60 s', () => {
    expect(stackSettings({})).toEqual({ port: 8080, healthPort: 0, startupWaitS: 60, readyTimeoutMs: 120_000 });
  });

  test('when STARTUP_WAIT_S is 120, then it waits for the stack as long as the apps wait for their database, and 60 s more (not a fixed 60 s)', () => {
    expect(stackSettings({ STARTUP_WAIT_S: '120' }).readyTimeoutMs).toBe(180_000);
  });

  test('when PORT is 0, then it is taken (the supervisor then chooses a free port and names it)', () => {
    expect(stackSettings({ PORT: '0' }).port).toBe(0);
  });

  test.each([
    ['PORT', 'abc', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', '-1', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', '0x50', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', '65536', 'must be a port number from 0 (a free one) to 65535'],
    ['STARTUP_WAIT_S', '2147484', 'must be a whole number of seconds from 0 to 2147483'],
    ['STARTUP_WAIT_S', ' 60', 'must be a whole number of seconds from 0 to 2147483'],
    ['HEALTH_PORT', '65535', `must be 0 (free ports) or a port number up to ${65536 - APPS.length}: the ${APPS.length} apps take it and the ports after it`],
    ['HEALTH_PORT', 'nine', `must be 0 (free ports) or a port number up to ${65536 - APPS.length}: the ${APPS.length} apps take it and the ports after it`],
  ])('when %s is %j, then it stops naming it, in the words the apps use (not "options.port should be >= 0")', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });
});

describe("the supervisor's last line when it is stopped", () => {
  test('when every app stopped cleanly, then it names each with exit 0 and exits 0', () => {
    expect(stoppedLine('SIGTERM', [{ name: 'entity-service', exitCode: 0, signal: null }, { name: 'gateway', exitCode: 0, signal: null }])).toEqual({ line: '[stack] stopped (SIGTERM): entity-service exit 0, gateway exit 0; exiting 0', exitCode: 0 });
  });

  test('when an app passed its deadline (exit 1) or was killed, then it says so and exits 1: a cut stop is told from a clean one', () => {
    expect(stoppedLine('SIGINT', [{ name: 'entity-service', exitCode: 1, signal: null }, { name: 'gateway', exitCode: null, signal: 'SIGKILL' }])).toEqual({ line: '[stack] stopped (SIGINT): entity-service exit 1, gateway killed (SIGKILL); exiting 1', exitCode: 1 });
  });
});

describe('the last line of an app that does not listen yet (named when the stack is not ready in time)', () => {
  test('when it logs JSON, then it is the line\'s message', () => {
    expect(lastLine('{"msg":"starting"}\n{"level":40,"msg":"database not reachable yet; the start waits for it (STARTUP_WAIT_S)","attempt":7}\n')).toBe('database not reachable yet; the start waits for it (STARTUP_WAIT_S)');
  });

  test('when it is a plain line, then it is the line, shortened', () => {
    expect(lastLine(`a\n${'x'.repeat(300)}`)).toBe(`${'x'.repeat(200)}…`);
  });
});
