import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { PitwallClient } from '@pitwall/client';
import { createDemoLdFile } from '@pitwall/formats';
import { COLOURS } from '../../src/colours';
import type { Embedded } from '../support/embedded';
import { decodePng, type Image } from '../support/png';
import { SAMPLE_LD, seedRun, seedRunSheet, type SeededRun } from '../support/seed';
import { andDrawn, openSignedIn, pickDataset, pickRun, tickChannels } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/**
 * What a race engineer's trial of the page found with many channels and many laps (Sample1.ld with every channel
 * ticked, a generated outing of 40 laps): tables that read one value a line, panes that answer the mouse wherever
 * they are, one read a zoom, a laps list and plots that keep to the window. Each test measures what a user sees:
 * sizes and positions of elements, their text, the requests made.
 */
describe('the viewer with many channels and many laps, in headless Chromium against npm start', () => {
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;

  useViewerStack('pitwall-viewer-layout-', async (parts) => {
    ({ stack, browser } = parts);
    const { dataDir } = parts;
    run = await seedRun(stack, { championship: 'Layout Cup', runSheet: 'Run 1' });
    const many = join(dataDir, 'many-laps.ld');
    writeFileSync(many, createDemoLdFile({ flyingLaps: 40 }));
    await seedRunSheet(stack, run, 'Many laps', many);
    // An .ld of the right name and no .ld inside: the service cannot read it.
    const damaged = join(dataDir, 'damaged.ld');
    writeFileSync(damaged, Buffer.alloc(5000, 0x5a));
    await seedRunSheet(stack, run, 'Damaged', damaged);
    // A minute at 10 Hz of throttle beside a channel whose every value is a gap (an empty column: a sensor not fitted).
    const gaps = join(dataDir, 'gaps.csv');
    writeFileSync(gaps, `Time,Dropped,Throttle Pos\n${Array.from({ length: 600 }, (_, i) => `${(i / 10).toFixed(1)},,${(50 + 40 * Math.sin(i / 20)).toFixed(2)}`).join('\n')}\n`);
    await seedRunSheet(stack, run, 'Gaps run', gaps);
  });

  async function openRun(runSheet = 'Run 1', viewport?: { width: number; height: number }): Promise<{ page: Page; pageErrors: string[] }> {
    const opened = await openSignedIn(browser, stack, viewport);
    await pickRun(opened.page, 'Layout Cup', runSheet);
    await pickDataset(opened.page, `${runSheet} / DataFile`);
    return opened;
  }

  /** Ticks the first `n` channels of the catalogue (all of them when none is given); how many were ticked. */
  const tick = (page: Page, n?: number): Promise<number> => tickChannels(page, { count: n });

  test('when the lap statistics of every channel are shown, then each value and header is on one line and the table scrolls sideways inside its box', async () => {
    const { page, pageErrors } = await openRun();
    expect(await tick(page)).toBeGreaterThan(25);
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-5]');
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
    // A number reads whole: a lap's time (lap 3, index 2, the best) and a mean are the text of one line each.
    const lap = page.locator('[data-testid=lapstats-lap-2] td');
    expect(await lap.nth(2).innerText()).toBe('1:03.680');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  /** The request bodies of the channel reads the page makes from now on. */
  /**
   * Moves the mouse 2 px inside each edge of a channel's pane and reads the values line there, once it shows a time
   * (`cursorText`): whether it says the channel has no data at that x.
   */
  async function noDataAtEdges(page: Page, channel: string, cursorText: RegExp): Promise<{ x: number; noData: boolean }[]> {
    const box = (await page.locator(`[data-testid="pane-${channel}"] .u-over`).boundingBox()) as { x: number; y: number; width: number; height: number };
    const edges: { x: number; noData: boolean }[] = [];
    for (const x of [box.x + 2, box.x + box.width - 2]) {
      await page.mouse.move(x, box.y + box.height / 2);
      await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''), cursorText.source);
      edges.push({ x, noData: /no data/.test((await page.textContent('[data-testid=cursor-values]')) ?? '') });
    }
    return edges;
  }

  function channelReads(page: Page): { startTime?: number; duration?: number; mode: number; channels: string[] }[] {
    const reads: { startTime?: number; duration?: number; mode: number; channels: string[] }[] = [];
    page.on('request', (r: Request) => {
      if (r.url().includes('/DataFileAccess/') && r.url().includes('/channels')) reads.push(r.postDataJSON());
    });
    return reads;
  }

  test('when every channel of Sample1 is plotted, then the top panes answer the mouse: the value under it, and a drag from 40 % to 42 % zooms to that range', async () => {
    const { page, pageErrors } = await openRun();
    const ticked = await tick(page);
    const reads = channelReads(page);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    expect(await page.locator('[data-testid=panes] .pane').count()).toBe(ticked);
    for (const i of [0, 1]) {
      const pane = page.locator('[data-testid=panes] .pane').nth(i);
      const over = pane.locator('.u-over');
      await over.scrollIntoViewIfNeeded();
      const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(() => /t = [\d.]+ s/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
      // The pane stays where it was under the mouse, and its readout shows a value, not "--".
      expect((await over.boundingBox())?.y).toBe(box.y);
      const values = await pane.locator('.u-legend .u-value').allTextContents();
      expect(values.at(-1)).not.toBe('--');
      expect(values.at(-1)).toMatch(/\d/);
    }
    const over = page.locator('[data-testid=panes] .pane').first().locator('.u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    reads.length = 0;
    await andDrawn(page, 'panes', async () => {
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.42, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    });
    // One read for the zoom, whatever the number of panes (it was one a pane: 78 identical reads).
    await page.waitForTimeout(500);
    expect(reads).toHaveLength(1);
    // Sample1 runs from 0 s to 454 s: 40 % to 42 % of it, to a pixel or two.
    const zoom = reads[0] as { startTime: number; duration: number };
    expect(Math.abs(zoom.startTime - 0.4 * 454)).toBeLessThan(2);
    expect(Math.abs(zoom.duration - 0.02 * 454)).toBeLessThan(2);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when the file is plotted in a laptop\'s window (1366 × 768), then the plot is in view under the messages without scrolling by hand; plotted again in view, the page does not move', async () => {
    const { page, pageErrors } = await openRun('Run 1', { width: 1366, height: 768 });
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Throttle Pos"]');
    // Plot, as a user at the top of the page clicks it (Playwright's own click would scroll the page first).
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await andDrawn(page, 'panes', () => page.evaluate(() => (document.querySelector('[data-testid=plot]') as HTMLButtonElement).click()));
    const seen = async () =>
      page.evaluate(() => {
        const pane = (document.querySelector('[data-testid=panes] .pane .u-over') as HTMLElement).getBoundingClientRect();
        const messages = (document.querySelector('[data-testid=messages]') as HTMLElement).getBoundingClientRect();
        // Whatever the values line shows, the pane is under it.
        return { top: pane.top, bottom: pane.bottom, messages: messages.bottom, height: window.innerHeight, scrollY: window.scrollY };
      });
    const first = await seen();
    expect(first.top).toBeGreaterThanOrEqual(first.messages);
    expect(first.bottom).toBeLessThanOrEqual(first.height);
    // Plot again (the plots in view; clicked by the page's script, as Playwright would scroll to the button): the page
    // stays where it is.
    await andDrawn(page, 'panes', () => page.evaluate(() => (document.querySelector('[data-testid=plot]') as HTMLButtonElement).click()));
    expect((await seen()).scrollY).toBe(first.scrollY);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when an outing of 42 laps is opened, then its laps list keeps to a box of its own that scrolls, and the plot controls stay near the top of the page', async () => {
    const { page, pageErrors } = await openRun('Many laps');
    await page.waitForSelector('[data-testid=lap-41]');
    const sizes = await page.evaluate(() => {
      const box = document.querySelector('[data-testid=laps-box]') as HTMLElement;
      return { height: box.getBoundingClientRect().height, scrollHeight: box.scrollHeight, rem: parseFloat(getComputedStyle(document.documentElement).fontSize), controls: (document.querySelector('[data-testid=plot]') as HTMLElement).getBoundingClientRect().top + scrollY };
    });
    expect(sizes.height).toBeLessThanOrEqual(20 * sizes.rem + 2);
    expect(sizes.scrollHeight).toBeGreaterThan(sizes.height * 2);
    expect(sizes.controls).toBeLessThan(1000);
    // The last lap is reached by scrolling the box, its header row still in view; its Plot button works.
    const last = page.locator('[data-testid=lap-41]');
    await last.scrollIntoViewIfNeeded();
    expect(await page.locator('[data-testid=laps] th').first().isVisible()).toBe(true);
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-41]'));
    expect(await page.textContent('[data-testid=status]')).toContain('1 channel(s)');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when the window is widened to 1920 px and narrowed to 800 px, then the plots follow its width and nothing of the page is cut or scrolled sideways', async () => {
    const { page, pageErrors } = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const measure = () =>
      page.evaluate(() => {
        const right = (selector: string) => (document.querySelector(selector) as HTMLElement).getBoundingClientRect().right;
        return {
          viewport: innerWidth,
          pageWidth: document.documentElement.scrollWidth,
          panes: (document.querySelector('[data-testid=panes]') as HTMLElement).clientWidth,
          pane: (document.querySelector('[data-testid="pane-Ground Speed"] .uplot') as HTMLElement).getBoundingClientRect().width,
          plotRight: right('[data-testid="pane-Ground Speed"] canvas'),
          mathRight: right('[data-testid=math-form]'),
        };
      });
    for (const width of [1920, 800, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.waitForFunction((w) => Math.abs((document.querySelector('[data-testid="pane-Ground Speed"] .uplot') as HTMLElement).getBoundingClientRect().width - (document.querySelector('[data-testid=panes]') as HTMLElement).clientWidth) <= 1 && innerWidth === w, width);
      const m = await measure();
      expect(Math.abs(m.pane - m.panes)).toBeLessThanOrEqual(1);
      // The panes fill the page's width (less its margins, and from 1500 px the track map's column of 580 px beside
      // them), and the page is no wider than the window.
      expect(m.panes).toBeGreaterThan(width - 100 - (width >= 1500 ? 604 : 0));
      expect(m.pageWidth).toBeLessThanOrEqual(m.viewport);
      expect(m.plotRight).toBeLessThanOrEqual(m.viewport);
      expect(m.mathRight).toBeLessThanOrEqual(m.viewport);
    }
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when six channels are plotted, then the panes are compact, each in its own colour, the time axis labelled once under the last one', async () => {
    const { page, pageErrors } = await openRun();
    const channels = ['Ground Speed', 'Gear', 'Throttle Pos', 'Brake Pres Front', 'Engine RPM', 'Steered Angle'];
    for (const c of channels) await page.check(`[data-testid="channel-${c}"]`);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    const panes = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid=panes] .pane')].map((p) => ({
        height: p.getBoundingClientRect().height,
        plot: (p.querySelector('.u-over') as HTMLElement).getBoundingClientRect().height,
        titles: p.querySelectorAll('.u-title').length,
        xLabel: p.dataset['xLabel'],
        colour: getComputedStyle(p.querySelector('.u-legend .u-series:nth-child(2) .u-marker') as HTMLElement).borderColor,
        legend: (p.querySelector('.u-legend .u-series:nth-child(2) .u-label') as HTMLElement).textContent,
      })),
    );
    expect(panes).toHaveLength(6);
    for (const [i, p] of panes.entries()) {
      // 237 px a pane for 85 px of trace before: now under 180 px, most of it trace, named by its legend, not a title.
      expect(p.height).toBeLessThan(i === 5 ? 180 : 160);
      expect(p.plot / p.height).toBeGreaterThan(0.5);
      expect(p.titles).toBe(0);
      expect(p.xLabel).toBe(i === 5 ? 'time (s)' : '');
    }
    expect(new Set(panes.map((p) => p.colour)).size).toBe(6);
    expect(panes.map((p) => p.legend).sort()).toEqual([...channels].sort());
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when the plots and the track map are drawn in a 1920 px window, then the map is beside the panes and, with the values line, stays in view while they scroll; at 1280 px it is under them', async () => {
    const { page, pageErrors } = await openRun('Run 1', { width: 1920, height: 900 });
    await tick(page, 12);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    await andDrawn(page, 'trackmap-canvas', () => page.click('[data-testid=trackmap-plot]'));
    const boxes = () =>
      page.evaluate(() => {
        const rect = (selector: string) => {
          const r = (document.querySelector(selector) as HTMLElement).getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
        };
        return { panes: rect('[data-testid=panes]'), map: rect('[data-testid=trackmap-canvas]'), values: rect('[data-testid=cursor-values]'), window: innerHeight };
      });
    // The last pane scrolled to: the map beside it, the values line at the top of the window.
    const last = page.locator('[data-testid=panes] .pane').last().locator('.u-over');
    await last.scrollIntoViewIfNeeded();
    const wide = await boxes();
    expect(wide.map.left).toBeGreaterThanOrEqual(wide.panes.right);
    expect(wide.map.top).toBeGreaterThanOrEqual(0);
    expect(wide.map.bottom).toBeLessThanOrEqual(wide.window);
    expect(wide.values.top).toBeGreaterThanOrEqual(0);
    expect(wide.values.bottom).toBeLessThan(200);
    const box = (await last.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /t = [\d.]+ s/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    expect(await page.getAttribute('[data-testid=trackmap-canvas]', 'data-marker')).not.toBeNull();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => innerWidth === 1280);
    const narrow = await boxes();
    expect(narrow.map.top).toBeGreaterThanOrEqual(narrow.panes.bottom);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  /**
   * How the line of `hex` runs across the image, column by column: of the columns it is in, the share whose line
   * centre moved by a fraction of a pixel to a few pixels from the column before (a ramp's slope); a step moves in one
   * column by the whole step, or not at all.
   */
  function rampShare(image: Image, hex: string): { columns: number; ramp: number } {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let columns = 0;
    let ramp = 0;
    let before: number | null = null;
    for (let x = 0; x < image.width; x++) {
      let sum = 0;
      let n = 0;
      for (let y = 0; y < image.height; y++) {
        const i = (y * image.width + x) * 4;
        if (Math.abs(image.rgba[i] - (r as number)) <= 40 && Math.abs(image.rgba[i + 1] - (g as number)) <= 40 && Math.abs(image.rgba[i + 2] - (b as number)) <= 40) {
          sum += y;
          n++;
        }
      }
      const centre = n ? sum / n : null;
      if (centre !== null) {
        columns++;
        if (before !== null && Math.abs(centre - before) >= 0.3 && Math.abs(centre - before) <= 4) ramp++;
      }
      before = centre;
    }
    return { columns, ramp };
  }

  test('when Gear is plotted over a few seconds with a gear change, then it is drawn as steps, not ramps between the samples', async () => {
    const { page, pageErrors } = await openRun();
    await page.check('[data-testid="channel-Gear"]');
    await page.selectOption('[data-testid=scope]', 'window');
    await page.fill('[data-testid=window-start]', '170');
    await page.fill('[data-testid=window-duration]', '3');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const image = decodePng(await page.locator('[data-testid="pane-Gear"] canvas').screenshot());
    const { columns, ramp } = rampShare(image, COLOURS[0] as string);
    expect(columns).toBeGreaterThan(image.width / 2);
    // A ramp between two samples a gear apart moves the line a pixel or so in every column for tens of columns.
    expect(ramp / columns).toBeLessThan(0.01);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when channels are ticked in another order than the catalogue lists them, then the panes and the values line are in the order ticked', async () => {
    const { page, pageErrors } = await openRun();
    const ticked = ['Throttle Pos', 'Ground Speed', 'Gear', 'Brake Pres Front'];
    for (const c of ticked) await page.check(`[data-testid="channel-${c}"]`);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    expect(await page.locator('[data-testid=panes] .pane').evaluateAll((panes) => panes.map((p) => (p as HTMLElement).dataset['testid']))).toEqual(ticked.map((c) => `pane-${c}`));
    const line = await page.locator('[data-testid=cursor-values] span').allTextContents();
    expect(line.slice(1).map((t) => t.split(':')[0])).toEqual(ticked);
    // Unticked and ticked again: last.
    await page.uncheck('[data-testid="channel-Throttle Pos"]');
    await page.check('[data-testid="channel-Throttle Pos"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    expect(await page.locator('[data-testid=panes] .pane').evaluateAll((panes) => panes.map((p) => (p as HTMLElement).dataset['testid']))).toEqual([...ticked.slice(1), 'Throttle Pos'].map((c) => `pane-${c}`));
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when another run sheet is picked, then the file open before is put away; after a damaged file fails to open, no overlay of the file before stays on screen', async () => {
    const { page, pageErrors } = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(await page.isVisible('[data-testid="pane-overlay-Ground Speed"]')).toBe(true);

    await page.selectOption('[data-testid=pick-run]', { label: 'Many laps' });
    // Nothing of Run 1 left: no file properties, laps, plots or overlay; the dataset picker waits for a choice.
    await page.waitForSelector('#metadata', { state: 'hidden' });
    expect(await page.locator('[data-testid=panes] .pane').count()).toBe(0);
    expect(await page.isVisible('[data-testid=laps]')).toBe(false);
    expect(await page.isVisible('[data-testid="pane-overlay-Ground Speed"]')).toBe(false);
    expect(await page.locator('[data-testid=cursor-values] span').count()).toBe(0);

    // Back to Run 1: the comparison list and its overlay come back with it; then the damaged file.
    await page.selectOption('[data-testid=pick-run]', { label: 'Run 1' });
    await pickDataset(page, 'Run 1 / DataFile');
    expect(await page.isVisible('[data-testid="pane-overlay-Ground Speed"]')).toBe(true);
    await page.selectOption('[data-testid=pick-run]', { label: 'Damaged' });
    const option = page.locator('[data-testid=pick-dataset] option', { hasText: 'Damaged / DataFile' });
    await option.waitFor({ state: 'attached' });
    await page.selectOption('[data-testid=pick-dataset]', (await option.getAttribute('value')) as string);
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.isVisible('[data-testid="pane-overlay-Ground Speed"]')).toBe(false);
    expect(await page.isVisible('#metadata')).toBe(false);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a file of the run sheet is still uploading, then the page says so, and Refresh lists it once it is available, the open dataset kept open', async () => {
    const { runSheet } = await seedRunSheet(stack, run, 'Uploading run');
    const client = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
    // A second file of its own group: prepared and its bytes sent, not yet finalised (state 2).
    const prepared = await client.prepareRunSheetAttachment(runSheet, { FileName: 'second.ld', AttachedFileGroupName: 'Second' });
    const upload = prepared.returnValue as { AttachedFileId: string; Url: string };
    expect((await fetch(upload.Url, { method: 'PUT', body: readFileSync(SAMPLE_LD), headers: { 'Content-Type': 'application/octet-stream' } })).ok).toBe(true);

    const { page, pageErrors } = await openRun('Uploading run');
    expect(await page.textContent('[data-testid=uploading]')).toBe('1 file still uploading: Refresh lists it once available.');
    expect(await page.locator('[data-testid=pick-dataset] option', { hasText: 'Second' }).count()).toBe(0);
    const reads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/metadata')) reads.push(r.url());
    });

    const finalised = await client.updateRunSheetAttachment(runSheet, upload.AttachedFileId, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
    expect(finalised.success).toBe(true);
    await page.click('[data-testid=refresh-datasets]');
    await page.waitForSelector('[data-testid=pick-dataset] option:has-text("Second")', { state: 'attached' });
    expect(await page.textContent('[data-testid=uploading]')).toBe('');
    // The dataset open stays open and picked; only its catalogue is read again (one metadata read: math channels
    // defined elsewhere since it was opened are listed), and the status says so.
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('2 dataset(s) listed'));
    expect(await page.textContent('[data-testid=status]')).toBe("2 dataset(s) listed; the open dataset's channels read again: no change.");
    expect(await page.locator('[data-testid=pick-dataset] option:checked').textContent()).toContain('Uploading run / DataFile');
    expect(await page.isVisible('#metadata')).toBe(true);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('/DataFileAccess/DataFile/metadata');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a window\'s edges fall between a slow channel\'s samples, then its trace runs to both edges and the values line reads it there, as i2 draws it', async () => {
    const { page, pageErrors } = await openRun();
    // Lap Distance is logged at 1 Hz: in 200.05 s to 203.95 s its samples are at 201, 202 and 203 s.
    await page.check('[data-testid="channel-Lap Distance"]');
    await page.selectOption('[data-testid=scope]', 'window');
    await page.fill('[data-testid=window-start]', '200.05');
    await page.fill('[data-testid=window-duration]', '3.9');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    for (const edge of await noDataAtEdges(page, 'Lap Distance', /t = [\d.]+ s/)) expect(edge).toEqual({ x: edge.x, noData: false });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a lap is plotted whose line falls between a slow channel\'s samples, then its trace runs from the lap\'s first edge to its last and the values line reads it there', async () => {
    const { page, pageErrors } = await openRun();
    const reads = channelReads(page);
    // Lap 3 (index 2) is [159.31, 222.99); Lap Distance's 1 Hz samples in it are at 160 s to 222 s.
    await page.check('[data-testid="channel-Lap Distance"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    // The lap with a second (Lap Distance's period) past each end.
    const read = reads[0] as { mode: number; startTime: number; duration: number };
    expect(read.mode).toBe(2);
    expect(read.startTime).toBeCloseTo(158.31, 6);
    expect(read.startTime + read.duration).toBeCloseTo(223.99, 6);
    for (const edge of await noDataAtEdges(page, 'Lap Distance', /lap time [\d.:]+|t = [\d.]+ s/)) expect(edge).toEqual({ x: edge.x, noData: false });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when the keyboard and the wheel are used over the time plots, then arrows step the cursor, + and Ctrl+wheel zoom around it with one read, Escape and a double-click reset the zoom', async () => {
    const { page, pageErrors } = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Gear"]');
    // Lap 3 (index 2): 63.68 s.
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const reads = channelReads(page);
    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    const cursorTime = async () => Number(/t = ([\d.]+) s/.exec((await page.textContent('[data-testid=cursor-values]')) ?? '')?.[1]);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /t = [\d.]+ s/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const t0 = await cursorTime();
    await page.keyboard.press('ArrowRight');
    const t1 = await cursorTime();
    expect(t1).toBeGreaterThan(t0);
    expect(t1 - t0).toBeLessThan(1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await cursorTime()).toBeLessThan(t1);
    const at = await cursorTime();

    // + : twice as close around the cursor's time, one read for both panes.
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    expect(reads).toHaveLength(1);
    const zoomed = reads[0] as { mode: number; startTime: number; duration: number };
    expect(zoomed.mode).toBe(2);
    // Half the lap, and a period of the slowest plotted channel (Ground Speed and Gear, both 10 Hz) past each end.
    expect(zoomed.duration).toBeCloseTo(63.68 / 2 + 2 * 0.1, 1);
    expect(zoomed.startTime).toBeLessThan(at);
    expect(zoomed.startTime + zoomed.duration).toBeGreaterThan(at);
    // Escape: the lap again.
    await andDrawn(page, 'panes', () => page.keyboard.press('Escape'));
    const lapRead = { channels: ['Ground Speed', 'Gear'], mode: 2, startTime: expect.closeTo(159.31 - 0.1, 6) as number, duration: expect.closeTo(63.68 + 0.2, 6) as number };
    expect(reads[1]).toEqual(lapRead);
    // A double-click on a pane after a zoom: the lap again.
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    await andDrawn(page, 'panes', () => page.mouse.dblclick(box.x + box.width / 3, box.y + box.height / 2));
    expect(reads.at(-1)).toEqual(lapRead);
    // Ctrl and the wheel turned towards the user: twice as far, one read.
    const before = reads.length;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await andDrawn(page, 'panes', async () => {
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, 100);
      await page.keyboard.up('Control');
    });
    await page.waitForTimeout(400);
    expect(reads.length - before).toBe(1);
    expect((reads.at(-1) as { duration: number }).duration).toBeCloseTo(2 * 63.68 + 2 * 0.1, 1);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when the histogram of Gear and a scatter are drawn, then Gear has one bar per gear centred on its tick, and the scatter\'s caption keeps to its figure, the histogram beside it', async () => {
    const { page, pageErrors } = await openRun();
    await page.selectOption('[data-testid=histogram-channel]', 'Gear');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    const caption = (await page.textContent('[data-testid=histogram-caption]')) as string;
    // Bins of 1 from n - 0.5 to m + 0.5: each bar is centred on a whole gear.
    expect(caption).toMatch(/in \d+ bins of 1 from -?\d+\.5 to \d+\.5 \(0 below, 0 above\)\.$/);
    const ticks = ((await page.getAttribute('[data-testid=histogram-canvas]', 'data-x-ticks')) as string).split(' ');
    for (const t of ticks) expect(Number.isInteger(Number(t))).toBe(true);
    // A tick under every gear's bar (a trial found 0, 2, 4 only: gears 1, 3 and 5 unlabelled).
    const [low, high] = (/from (-?\d+\.5) to (\d+\.5)/.exec(caption) ?? []).slice(1).map(Number) as [number, number];
    expect(ticks.map(Number)).toEqual(Array.from({ length: high - low }, (_, k) => low + 0.5 + k));

    await page.selectOption('[data-testid=scatter-x]', 'Ground Speed');
    await page.selectOption('[data-testid=scatter-y]', 'Engine RPM');
    await page.selectOption('[data-testid=scatter-colour]', 'Throttle Pos');
    await andDrawn(page, 'scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    const figures = await page.evaluate(() =>
      ['scatter', 'histogram'].map((id) => {
        const r = (document.querySelector(`[data-testid=${id}-canvas]`) as HTMLElement).closest('figure')?.getBoundingClientRect() as DOMRect;
        return { left: r.left, top: r.top, width: r.width };
      }),
    );
    const [scatter, histogram] = figures as [{ left: number; top: number; width: number }, { left: number; top: number; width: number }];
    expect(scatter.width).toBeLessThanOrEqual(562);
    expect(histogram.top).toBe(scatter.top);
    expect(histogram.left).toBeGreaterThan(scatter.left + scatter.width);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a window is zoomed to, then the status gives its ends to the millisecond; the laps list marks the out and in laps', async () => {
    const { page, pageErrors } = await openRun();
    expect(await page.textContent('[data-testid=kind-of-lap-0]')).toBe('out lap');
    expect(await page.textContent('[data-testid=kind-of-lap-5]')).toBe('in lap');
    expect(await page.locator('[data-testid^=kind-of-lap-]').count()).toBe(2);
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await andDrawn(page, 'panes', async () => {
      await page.mouse.move(box.x + box.width * 0.393, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.4137, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    });
    expect(await page.textContent('[data-testid=status]')).toMatch(/^1 channel\(s\), \d+\.\d{3} s to \d+\.\d{3} s$/);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a picker above the dataset has a single choice, then it is picked at once and the next one is filled; choosing it again reads nothing again', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const reads: string[] = [];
    page.on('request', (r) => reads.push(`${r.method()} ${new URL(r.url()).pathname}`));
    // The championship picked (the stack's demo has one too): its one event, session and car are picked, the run
    // sheets listed for a choice.
    await page.selectOption('[data-testid=pick-championship]', { label: 'Layout Cup' });
    await page.waitForSelector('[data-testid=pick-run] option:has-text("Many laps")', { state: 'attached' });
    const picked = async (id: string) => page.locator(`[data-testid=${id}] option:checked`).textContent();
    expect(await picked('pick-event')).toBe('Round 1');
    expect(await picked('pick-session')).toBe('Race');
    expect(await picked('pick-car')).toBe('Car 7');
    expect(await picked('pick-run')).toBe('choose…');
    const before = reads.length;
    await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
    await page.waitForTimeout(300);
    expect(reads.slice(before)).toEqual([]);
    // A run sheet with one dataset: it is listed, not opened (opening reads the file: the user's choice).
    await page.selectOption('[data-testid=pick-run]', { label: 'Many laps' });
    await page.waitForSelector('[data-testid=pick-dataset] option:has-text("Many laps / DataFile")', { state: 'attached' });
    expect(await picked('pick-dataset')).toBe('choose…');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a channel is all gaps beside one with data, then both panes start their plot at the same left edge (the time axes aligned) and the empty one says it has no data', async () => {
    const { page, pageErrors } = await openRun('Gaps run');
    await page.check('[data-testid="channel-Throttle Pos"]');
    await page.check('[data-testid="channel-Dropped"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const plots = await page.evaluate(() =>
      ['Throttle Pos', 'Dropped'].map((name) => {
        const r = (document.querySelector(`[data-testid="pane-${name}"] .u-over`) as HTMLElement).getBoundingClientRect();
        return { left: r.left, right: r.right };
      }),
    );
    const [throttle, dropped] = plots as [{ left: number; right: number }, { left: number; right: number }];
    // The empty pane's plot started about 50 px left of the other's: the same time a different x under the mouse.
    expect(Math.abs(dropped.left - throttle.left)).toBeLessThanOrEqual(1);
    expect(Math.abs(dropped.right - throttle.right)).toBeLessThanOrEqual(1);
    expect(await page.getAttribute('[data-testid="pane-Dropped"]', 'data-x-ticks')).toBe(await page.getAttribute('[data-testid="pane-Throttle Pos"]', 'data-x-ticks'));
    expect(await page.textContent('[data-testid="pane-Dropped"] [data-testid=pane-note]')).toBe('No data in this window');
    expect(await page.locator('[data-testid="pane-Throttle Pos"] [data-testid=pane-note]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a histogram is drawn, then its tallest bar stays below the top of the frame, under a count tick above it', async () => {
    const { page, pageErrors } = await openRun();
    await page.selectOption('[data-testid=histogram-channel]', 'Ground Speed');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    const response = await fetch(`${stack.baseUrl}/RunSheets/${run.runSheet}/DataFileAccess/DataFile/histogram`, {
      method: 'POST',
      headers: { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'Ground Speed', lapIndex: null }),
    });
    const tallest = Math.max(...((await response.json()) as { counts: number[] }).counts);
    const ticks = ((await page.getAttribute('[data-testid=histogram-canvas]', 'data-y-ticks')) ?? '').split(' ').map(Number);
    expect(ticks.at(-1)).toBeGreaterThan(tallest);
    // The frame's top is at 10 px of the 380 px canvas, its bottom at 350: the tallest bar ends at least 5 % of that below it.
    const image = decodePng(await page.locator('[data-testid=histogram-canvas]').screenshot());
    const [r, g, b] = [1, 3, 5].map((i) => parseInt((COLOURS[1] as string).slice(i, i + 2), 16)) as [number, number, number];
    let top = image.height;
    for (let y = 0; y < image.height && top === image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const i = (y * image.width + x) * 4;
        if (Math.abs((image.rgba[i] as number) - r) <= 24 && Math.abs((image.rgba[i + 1] as number) - g) <= 24 && Math.abs((image.rgba[i + 2] as number) - b) <= 24) {
          top = y;
          break;
        }
      }
    }
    const scale = image.height / 380;
    expect(top).toBeLessThan(image.height);
    expect(top / scale).toBeGreaterThanOrEqual(10 + 0.05 * 340);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when four channels are plotted in an 800 px window, then the values line stays one row, each value whole (a long name cut, in full in its tooltip)', async () => {
    const { page, pageErrors } = await openRun('Run 1', { width: 800, height: 1000 });
    const channels = ['Ground Speed', 'Throttle Pos', 'Brake Pres Front', 'Engine RPM'];
    for (const c of channels) await page.check(`[data-testid="channel-${c}"]`);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /Engine RPM: \d/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const line = await page.evaluate(() => {
      const values = document.querySelector('[data-testid=cursor-values]') as HTMLElement;
      const places = [...values.children] as HTMLElement[];
      return {
        height: values.getBoundingClientRect().height,
        placeHeight: (places[0] as HTMLElement).getBoundingClientRect().height,
        tops: places.map((p) => Math.round(p.getBoundingClientRect().top)),
        places: places.map((p) => {
          const value = p.querySelector('[data-testid=cursor-value]') as HTMLElement | null;
          return { text: p.textContent, title: p.title, valueWhole: value !== null && value.scrollWidth <= value.clientWidth + 1, right: p.getBoundingClientRect().right };
        }),
        right: values.getBoundingClientRect().right,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    expect(line.places).toHaveLength(5);
    expect(new Set(line.tops).size).toBe(1);
    expect(line.height).toBeLessThan(2 * line.placeHeight);
    for (const [i, p] of line.places.entries()) {
      expect(p.title).toBe(p.text);
      if (i > 0) {
        expect(p.text).toMatch(new RegExp(`^${channels[i - 1]}: -?\\d`));
        expect(p.valueWhole).toBe(true);
        expect(p.right).toBeLessThanOrEqual(line.right + 1);
      }
    }
    expect(line.pageWidth).toBeLessThanOrEqual(800);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a dataset is opened, then the scatter, histogram and track map show a short hint, not blank canvases, until they are drawn', async () => {
    const { page, pageErrors } = await openRun();
    const shown = async () =>
      page.evaluate(() =>
        ['scatter', 'histogram', 'trackmap'].map((id) => {
          const canvas = document.querySelector(`[data-testid=${id}-canvas]`) as HTMLElement;
          const hint = document.querySelector(`[data-testid=${id}-hint]`) as HTMLElement | null;
          return { canvas: canvas.getBoundingClientRect().height > 0, hint: hint !== null && hint.getBoundingClientRect().height > 0 ? hint.textContent : null };
        }),
      );
    for (const s of await shown()) {
      expect(s.canvas).toBe(false);
      expect(s.hint).toMatch(/^Pick .+, then .+\.$/);
    }
    await page.selectOption('[data-testid=histogram-channel]', 'Ground Speed');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    const [scatter, histogram] = await shown();
    expect(histogram).toEqual({ canvas: true, hint: null });
    expect(scatter?.canvas).toBe(false);
    // Another dataset: blank again, with the hint.
    await page.selectOption('[data-testid=pick-run]', { label: 'Many laps' });
    await pickDataset(page, 'Many laps / DataFile');
    for (const s of await shown()) expect(s.canvas).toBe(false);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
