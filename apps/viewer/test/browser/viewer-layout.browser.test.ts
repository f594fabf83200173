import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createDemoLdFile } from '@pitwall/formats';
import { launchChromium } from '../support/browser';
import { startEmbedded, type Embedded } from '../support/embedded';
import { seedRun, seedRunSheet, type SeededRun } from '../support/seed';
import { openSignedIn, pickDataset, pickRun } from '../support/viewer-page';

/**
 * What a race engineer's trial of the page found with many channels and many laps (Sample1.ld with every channel
 * ticked, a generated outing of 40 laps): tables that read one value a line, panes that answer the mouse wherever
 * they are, one read a zoom, a laps list and plots that keep to the window. Each test measures what a user sees:
 * sizes and positions of elements, their text, the requests made.
 */
describe('the viewer with many channels and many laps, in headless Chromium against npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-viewer-layout-'));
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;

  beforeAll(async () => {
    stack = await startEmbedded(dataDir);
    run = await seedRun(stack, { championship: 'Layout Cup', runSheet: 'Run 1' });
    const many = join(dataDir, 'many-laps.ld');
    writeFileSync(many, createDemoLdFile({ flyingLaps: 40 }));
    await seedRunSheet(stack, run, 'Many laps', many);
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    expect(await stack?.stop()).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openRun(runSheet = 'Run 1', viewport?: { width: number; height: number }): Promise<{ page: Page; pageErrors: string[] }> {
    const opened = await openSignedIn(browser, stack, viewport);
    await pickRun(opened.page, 'Layout Cup', runSheet);
    await pickDataset(opened.page, `${runSheet} / DataFile`);
    return opened;
  }

  /** Ticks the first `n` channels of the catalogue (all of them for a large n); how many were ticked. */
  async function tick(page: Page, n = Infinity): Promise<number> {
    const boxes = page.locator('[data-testid=channels] input[type=checkbox]');
    const count = Math.min(n, await boxes.count());
    for (let i = 0; i < count; i++) await boxes.nth(i).check();
    return count;
  }

  test('when the lap statistics of every channel are shown, then each value and header is on one line and the table scrolls sideways inside its box', async () => {
    const { page, pageErrors } = await openRun();
    expect(await tick(page)).toBeGreaterThan(25);
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-4]');
    const sizes = await page.evaluate(() => {
      const table = document.querySelector('[data-testid=lapstats-table]') as HTMLTableElement;
      const box = table.parentElement as HTMLElement;
      const cell = table.querySelector('td') as HTMLElement;
      const line = parseFloat(getComputedStyle(cell).lineHeight) || 1.3 * parseFloat(getComputedStyle(cell).fontSize);
      const tallest = (selector: string) => Math.max(...[...table.querySelectorAll<HTMLElement>(selector)].map((c) => c.getBoundingClientRect().height));
      return { line, td: tallest('td'), th: tallest('th'), tableHeight: table.getBoundingClientRect().height, rows: table.rows.length, boxWidth: box.clientWidth, scrollWidth: box.scrollWidth, pageWidth: document.documentElement.scrollWidth, viewport: innerWidth };
    });
    // One line (and the cell's padding) a cell: the rows are as tall as a line, the table as tall as its rows.
    expect(sizes.td).toBeLessThan(2 * sizes.line);
    expect(sizes.th).toBeLessThan(2 * sizes.line);
    expect(sizes.tableHeight).toBeLessThan(sizes.rows * 2 * sizes.line);
    // Wider than its box, which scrolls; the page itself is not widened.
    expect(sizes.scrollWidth).toBeGreaterThan(sizes.boxWidth);
    expect(sizes.pageWidth).toBeLessThanOrEqual(sizes.viewport);
    // A number reads whole: the first lap's time and a mean are the text of one line each.
    const lap = page.locator('[data-testid=lapstats-lap-1] td');
    expect(await lap.nth(2).innerText()).toBe('1:03.680');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
