import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbedded } from './embedded';
import { STACK_TEMPLATE_VARIABLE } from './stack-template-folder';

/**
 * Fills `dataDir` with a copy of a data folder that `npm start` initialised and stopped once in this run: its
 * embedded database made and migrated, the demo account, its key and its run sheet. `npm start` on it starts as on
 * any later start, in 2-3 s where a first start took 10-20 s of each browser suite (PGlite's initdb in a child
 * process, every migration on an empty database, the demo's seeding), six suites a run on a loaded 2-core machine.
 * Each suite still has a database and a process of its own. The first suite that calls it makes the template (a
 * stack started and stopped, exit code 0); without the project's global setup (a file run by another config), the
 * folder stays empty and the stack's first start initialises it.
 */
export async function copyStackTemplate(dataDir: string): Promise<void> {
  const root = process.env[STACK_TEMPLATE_VARIABLE];
  if (!root) return;
  const template = join(root, 'data');
  if (!existsSync(template)) {
    // Made aside and renamed whole, so that a suite running alongside (jest with workers) never copies half of it.
    const building = mkdtempSync(join(root, 'building-'));
    const stack = await startEmbedded(building);
    const code = await stack.stop();
    if (code !== 0) throw new Error(`npm start making the browser suites' data folder exited ${code}:\n${stack.output()}`);
    try {
      renameSync(building, template);
    } catch (err) {
      // Another suite's template came first: this one is not needed.
      if (!existsSync(template)) throw err;
      rmSync(building, { recursive: true, force: true });
    }
  }
  cpSync(template, dataDir, { recursive: true });
}
