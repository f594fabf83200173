import { startEmbedded as startStandalone, type Embedded } from '@pitwall/testing';

export type { Embedded };

/** Runs `npm start`'s process (the standalone bundle) with no external server and reads the printed key. */
export function startEmbedded(dataDir: string, port: number, overrides: NodeJS.ProcessEnv = {}): Promise<Embedded> {
  // Without the demo simulation (its championship would be in the demo account's lists) unless a test asks for it.
  return startStandalone(dataDir, port, { SIMULATION_STANDIN_PORT: '-1', ...overrides });
}
