import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from './support/embedded';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

/** Runs the printed curl of `path` (its line in the first-request text) and parses the answer. */
function runPrinted(embedded: Embedded, path: string): { results: { status?: string; accepted?: boolean }[] } {
  const curl = new RegExp(`^\\s+(curl -s .*${path}.*)$`, 'm').exec(embedded.output())?.[1];
  if (!curl) throw new Error(`no printed curl for ${path}:\n${embedded.output()}`);
  return JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8' })) as { results: { status?: string; accepted?: boolean }[] };
}

async function simulateDemoSetup(embedded: Embedded): Promise<string | undefined> {
  expect(runPrinted(embedded, '/ExternalSimulations/Trigger').results).toEqual([expect.objectContaining({ accepted: true })]);
  const until = Date.now() + 60_000;
  for (;;) {
    const status = runPrinted(embedded, '/ExternalSimulations/Status').results[0]?.status;
    if (status === 'Processing completed' || Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('npm start: the demo account can run an external simulation on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-embedded-sim-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('when the printed trigger and status curls are run, then the demo setup reaches Processing completed, and again after a restart (the stand-in on a new port)', async () => {
    for (let start = 0; start < 2; start++) {
      const embedded = await startEmbedded(dataDir, await freePort(), { SIMULATION_STANDIN_PORT: '0', SIMULATION_POLL_INTERVAL_MS: '200' });
      try {
        expect(embedded.output()).toMatch(/^External simulations \(stand-in system on http:\/\/127\.0\.0\.1:\d+\)/m);
        expect(await simulateDemoSetup(embedded)).toBe('Processing completed');
      } finally {
        expect(await embedded.stop()).toBe(0);
      }
    }
  }, 300_000);
});
