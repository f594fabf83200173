import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The project's global setup and teardown load this file outside the test files' module map (no @pitwall/ imports).

/**
 * Where the project's global setup tells the browser suites the folder that holds the data folder they start
 * `npm start` from (stack-template.ts): through the environment, as jest starts the test files after it.
 */
export const STACK_TEMPLATE_VARIABLE = 'PITWALL_VIEWER_STACK_TEMPLATE';

/** Jest globalSetup of the viewer project: an empty folder for the template, made by the first suite that needs it. */
export function setUp(): void {
  process.env[STACK_TEMPLATE_VARIABLE] = mkdtempSync(join(tmpdir(), 'pitwall-viewer-template-'));
}

/** Jest globalTeardown: the template's folder removed. */
export function tearDown(): void {
  const root = process.env[STACK_TEMPLATE_VARIABLE];
  delete process.env[STACK_TEMPLATE_VARIABLE];
  if (root) rmSync(root, { recursive: true, force: true });
}
