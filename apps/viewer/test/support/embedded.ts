import { freePort, REPO_ROOT, startEmbedded as startStandalone, type Embedded } from '@pitwall/testing';

export const ROOT = REPO_ROOT;
export type { Embedded };

/** Runs `npm start`'s process (the standalone bundle, which serves /viewer) on a free port with no external server; reads the printed key. */
export async function startEmbedded(dataDir: string, overrides: NodeJS.ProcessEnv = {}): Promise<Embedded> {
  return startStandalone(dataDir, await freePort(), overrides);
}
