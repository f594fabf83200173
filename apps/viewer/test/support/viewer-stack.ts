import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { startEmbedded, type Embedded } from './embedded';
import { copyStackTemplate } from './stack-template';

/** What a browser suite works with: `npm start`'s process in a temporary folder, and headless Chromium. */
export interface ViewerStack {
  stack: Embedded;
  browser: Browser;
  /** The suite's own temporary folder (the stack's data under it; files a suite writes to upload go here too). */
  dataDir: string;
}

/**
 * The lifecycle every browser suite shares: before its tests a temporary folder holding a copy of the data folder
 * `npm start` initialised once this run (stack-template.ts), `npm start` in it and Chromium, then `seed` (the suite
 * keeps what it needs, and seeds its data through the API); after them Chromium closed, the stack stopped (exit code 0
 * expected) and the folder removed.
 */
export function useViewerStack(prefix: string, seed: (parts: ViewerStack) => Promise<void>): void {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let parts: Partial<ViewerStack> = { dataDir };

  beforeAll(async () => {
    await copyStackTemplate(dataDir);
    const stack = await startEmbedded(dataDir);
    parts = { ...parts, stack };
    const browser = await launchChromium();
    parts = { ...parts, browser };
    await seed({ stack, browser, dataDir });
  }, 240_000);

  afterAll(async () => {
    await parts.browser?.close();
    if (parts.stack) expect(await parts.stack.stop()).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  });
}
