import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { PitwallClient } from '@pitwall/client';
import { RAMP_STOPS } from '../../src/analysis';
import { CIRCLE_COLOUR, COLOURS } from '../../src/colours';
import { foreignRequests } from '../support/browser';
import { ROOT, type Embedded } from '../support/embedded';
import { countColour, decodePng } from '../support/png';
import { SAMPLE_LD, seedRun, seedRunSheet } from '../support/seed';
import { andDrawn, dragAcross } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/** Screenshots of every plot the tests draw, kept for a person to look at (tmp/ is git-ignored). */
const ARTIFACTS = join(ROOT, 'tmp', 'viewer-artifacts');
/** A line 2 px wide across a pane of ~1200 px leaves thousands of pixels of its colour; a blank pane none. */
const MIN_LINE_PIXELS = 500;
/** The colour ramp's two ends: dark purple (the lowest value) and orange (the highest). */
const [RAMP_LOW, RAMP_HIGH] = [RAMP_STOPS[0], RAMP_STOPS[RAMP_STOPS.length - 1] as string];
/**
 * Near enough to a ramp end to be it: no nearer the next of its 9 stops than halfway, and far from the canvas's other
 * dark marks (the axes' #333 text, the track map's #1b1f24 start line, both over 16 from dark purple in a channel).
 */
const RAMP_END_TOLERANCE = 16;
/** `#rrggbb` as the `rgb(r, g, b)` a computed style says. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/**
 * The colour scale under a coloured plot (`id`: scatter or trackmap): shown, its ends the values its caption names
 * (`range` captures them: low, then high with its unit), its ramp drawn from dark purple to orange.
 */
async function expectColourBar(page: Page, id: 'scatter' | 'trackmap', range: RegExp): Promise<void> {
  const [, low, high] = range.exec((await page.textContent(`[data-testid=${id}-caption]`)) ?? '') ?? [];
  expect(low).toBeDefined();
  expect(await page.isVisible(`[data-testid=${id}-colour-bar]`)).toBe(true);
  expect(await page.textContent(`[data-testid=${id}-colour-bar-low]`)).toBe(low);
  expect(await page.textContent(`[data-testid=${id}-colour-bar-high]`)).toBe(high);
  const ramp = await page.$eval(`[data-testid=${id}-colour-bar-ramp]`, (e) => ({ image: getComputedStyle(e).backgroundImage, width: e.getBoundingClientRect().width }));
  expect(ramp.image.startsWith(`linear-gradient(to right, ${rgb(RAMP_LOW)}, `)).toBe(true);
  expect(ramp.image.endsWith(`, ${rgb(RAMP_HIGH)})`)).toBe(true);
  expect(ramp.width).toBeGreaterThan(100);
}

/** The mean place of the pixels within `tolerance` (per channel) of a colour `#rrggbb`. */
function centreOf(image: ReturnType<typeof decodePng>, hex: string, tolerance: number): { x: number; y: number } {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let [x, y, n] = [0, 0, 0];
  for (let i = 0; i < image.width * image.height; i++) {
    if (want.every((c, k) => Math.abs((image.rgba[i * 4 + k] as number) - c) <= tolerance)) [x, y, n] = [x + (i % image.width), y + Math.floor(i / image.width), n + 1];
  }
  return { x: x / n, y: y / n };
}

describe('the telemetry viewer at /viewer, in headless Chromium against npm start with Sample1.ld attached', () => {
  let stack: Embedded;
  let browser: Browser;
  let dataDir: string;

  useViewerStack('pitwall-viewer-', async (parts) => {
    ({ stack, browser, dataDir } = parts);
    mkdirSync(ARTIFACTS, { recursive: true });
    const run = await seedRun(stack, { championship: 'Viewer Cup', runSheet: 'Run 1' });
    await seedRunSheet(stack, run, 'Run 2');
  });

  /** A fresh page (its own session storage) that records requests leaving the gateway's origin and CSP violations. */
  async function openPage(): Promise<{ page: Page; foreign: string[]; cspViolations: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const foreign = foreignRequests(page, stack.baseUrl);
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(`${stack.baseUrl}/viewer`);
    return { page, foreign, cspViolations };
  }

  async function signIn(page: Page, apiKey = stack.apiKey, accountId = stack.accountId): Promise<void> {
    await page.fill('[data-testid=api-key]', apiKey);
    await page.fill('[data-testid=account-id]', accountId);
    await page.click('[data-testid=connect]');
  }

  /** Championship → event → session → car → run sheet → the run's DataFile dataset. */
  async function pickDataset(page: Page, runSheet = 'Run 1', championship = 'Viewer Cup'): Promise<void> {
    await page.selectOption('[data-testid=pick-championship]', { label: championship });
    await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
    await page.selectOption('[data-testid=pick-session]', { label: 'Race' });
    await page.selectOption('[data-testid=pick-car]', { label: 'Car 7' });
    await page.selectOption('[data-testid=pick-run]', { label: runSheet });
    await page.selectOption('[data-testid=pick-dataset]', { label: `${runSheet} / DataFile (Sample1.ld)` });
  }

  /** Saves a screenshot of `selector` as an artifact and returns how many of its pixels have each colour. */
  async function screenshotColours(page: Page, selector: string, file: string, colours: string[], tolerance?: number): Promise<number[]> {
    const png = await page.locator(selector).screenshot();
    writeFileSync(join(ARTIFACTS, file), png);
    const image = decodePng(png);
    return colours.map((c) => countColour(image, c, tolerance));
  }

  test('when the page is read, then it needs no API key, is HTML with a strict Content-Security-Policy, and its assets have their types', async () => {
    const page = await fetch(`${stack.baseUrl}/viewer`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<script src="/viewer/viewer.js"></script>');
    expect((await fetch(`${stack.baseUrl}/viewer/viewer.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${stack.baseUrl}/viewer/viewer.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${stack.baseUrl}/viewer/nothing.js`)).status).toBe(404);
    const post = await fetch(`${stack.baseUrl}/viewer`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('when signed in (the account id typed upper-case, as some tools print GUIDs) and the run is picked, then the dataset shows its file properties, its laps with the best one marked, and a catalogue grouped by unit that a search narrows; the key stays out of the URL', async () => {
    const { page, foreign, cspViolations } = await openPage();
    await signIn(page, stack.apiKey, stack.accountId.toUpperCase());
    await pickDataset(page);

    await page.waitForSelector('[data-testid=lap-5]');
    expect(await page.textContent('[data-testid=file-properties]')).toContain('Calder');
    // The file's channels are counted as the file's; the account has no math channel yet.
    expect(await page.textContent('[data-testid=file-properties]')).toMatch(/channels\d+ in the file$/);
    // Out-lap, five flying laps, in-lap: lap 3 (index 2, from 159.31 s) is the best, 1:03.680.
    expect(await page.locator('[data-testid^=lap-]').count()).toBe(6);
    expect(await page.locator('[data-testid=lap-2] [data-testid=best-lap]').count()).toBe(1);
    expect(await page.locator('[data-testid=best-lap]').count()).toBe(1);
    expect(await page.textContent('[data-testid=lap-2]')).toContain('1:03.680');

    expect(await page.locator('[data-testid=unit-group]').count()).toBeGreaterThan(3);
    await page.fill('[data-testid=channel-search]', 'ground speed');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=unit-group]').length === 1);
    expect(await page.textContent('[data-testid=unit-group] legend')).toBe('km/h');
    expect(await page.locator('[data-testid="channel-Ground Speed"]').count()).toBe(1);
    expect(await page.locator('[data-testid="channel-Wheel Speed FL"]').count()).toBe(0);

    // The address says what is open (its fragment, the link), never the key.
    expect(page.url().split('#')[0]).toBe(`${stack.baseUrl}/viewer`);
    expect(page.url()).not.toContain(stack.apiKey);
    expect(new URL(page.url()).hash).toMatch(/^#championship=[0-9a-f-]{36}&.*&dataset=run%3A/);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toContain(stack.apiKey);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(stack.apiKey);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when Ground Speed is plotted for lap 3, then the pane is drawn in the plot colour from a binary read sized to the plot, the cursor shows the value, and a zoom and a pan re-read the visible window', async () => {
    const { page, foreign, cspViolations } = await openPage();
    const reads: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/DataFileAccess/') && r.url().includes('/channels')) reads.push(r);
    });
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    // Lap 3 (index 2) is [159.31, 222.99).
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));

    const first = reads[0] as Request;
    expect(first.headers()['accept']).toBe('application/x-service-channels');
    // The lap, with a period of Ground Speed (10 Hz) past each end so its trace runs to the lap's edges.
    expect(first.postDataJSON()).toEqual({ channels: ['Ground Speed'], mode: 2, startTime: expect.closeTo(159.21, 6), duration: expect.closeTo(63.88, 6) });
    const maxPoints = Number(new URL(first.url()).searchParams.get('maxPoints'));
    const plotWidth = await page.evaluate(() => (document.querySelector('[data-testid="pane-Ground Speed"] .u-over') as HTMLElement).clientWidth);
    expect(Math.abs(maxPoints - plotWidth)).toBeLessThanOrEqual(20);

    const [red] = await screenshotColours(page, '[data-testid="pane-Ground Speed"]', 'ground-speed-lap3.png', [COLOURS[0]]);
    expect(red).toBeGreaterThan(MIN_LINE_PIXELS);

    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /Ground Speed: [\d.]+ km\/h/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));

    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Ground Speed"]', 0.3, 0.6));
    const zoomed = (reads.at(-1) as Request).postDataJSON() as { mode: number; startTime: number; duration: number };
    expect(zoomed.mode).toBe(2);
    expect(zoomed.startTime).toBeGreaterThan(159.31);
    expect(zoomed.duration).toBeLessThan(63 / 2);
    await andDrawn(page, 'panes', () => page.click('[data-testid=pan-right]'));
    const panned = (reads.at(-1) as Request).postDataJSON() as { mode: number; startTime: number; duration: number };
    expect(panned.startTime).toBeGreaterThan(zoomed.startTime);
    expect(panned.duration).toBeCloseTo(zoomed.duration, 6);
    const [stillRed] = await screenshotColours(page, '[data-testid="pane-Ground Speed"]', 'ground-speed-zoomed.png', [COLOURS[0]]);
    expect(stillRed).toBeGreaterThan(MIN_LINE_PIXELS / 4);

    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when a window of no length or one before the file is asked, then the page says so and reads nothing; neither throws', async () => {
    const { page } = await openPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const reads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/channels')) reads.push(r.url());
    });
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.selectOption('[data-testid=scope]', 'window');
    for (const start of ['-20', '0', '12.5']) {
      await page.fill('[data-testid=window-start]', start);
      await page.fill('[data-testid=window-duration]', '0');
      await page.click('[data-testid=plot]');
      await page.waitForFunction((s) => (document.querySelector('[data-testid=status]')?.textContent ?? '').includes(`From ${s}, Length 0`), start);
    }
    expect(reads).toEqual([]);
    await page.fill('[data-testid=window-start]', '-20');
    await page.fill('[data-testid=window-duration]', '5');
    await page.click('[data-testid=plot]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '').includes('From -20, Length 5 is outside the file'));
    expect(await page.textContent('[data-testid=status]')).toMatch(/\(the file runs from [\d.]+ s to [\d.]+ s\)\.$/);
    expect(reads).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  test('when laps 2 and 3 are overlaid, then both are drawn over lap time and over distance, and the delta trace of lap 3 against lap 2 is drawn', async () => {
    const { page, cspViolations } = await openPage();
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    expect(await page.locator('[data-testid^=overlay-item-]').count()).toBe(2);

    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    const [lap2, lap3] = await screenshotColours(page, '[data-testid="pane-overlay-Ground Speed"]', 'overlay-laps-2-3-time.png', [COLOURS[0], COLOURS[1]]);
    expect(lap2).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(lap3).toBeGreaterThan(MIN_LINE_PIXELS);

    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(await page.textContent('[data-testid="pane-overlay-Ground Speed"]')).toContain('distance (m)');
    const [lap2d, lap3d] = await screenshotColours(page, '[data-testid="pane-overlay-Ground Speed"]', 'overlay-laps-2-3-distance.png', [COLOURS[0], COLOURS[1]]);
    expect(lap2d).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(lap3d).toBeGreaterThan(MIN_LINE_PIXELS);

    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    const [delta] = await screenshotColours(page, '[data-testid=pane-delta]', 'delta-lap3-vs-lap2.png', [COLOURS[1]]);
    expect(delta).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when an overlay over distance and the delta are zoomed, then each lap\'s window under the zoom is re-read at the plot\'s resolution and the delta is re-read at full resolution', async () => {
    const { page, cspViolations } = await openPage();
    const reads: Request[] = [];
    const deltas: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/DataFileAccess/') && r.url().includes('/channels')) reads.push(r);
      if (r.url().includes('/delta?')) deltas.push(r.url());
    });
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-2]');
    await page.click('[data-testid=overlay-add-3]');
    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    const whole = reads.slice(-2).map((r) => r.postDataJSON() as { mode: number; lapIndex: number });
    expect(whole.map((b) => [b.mode, b.lapIndex]).sort()).toEqual([
      [1, 2],
      [1, 3],
    ]);

    // The mouse works in the viewport: dragAcross brings the pane into it first (the delta pane is below the overlays).
    const drag = (selector: string, from: number, to: number) => dragAcross(page, selector, from, to);
    const before = reads.length;
    await andDrawn(page, 'overlay-panes', () => drag('[data-testid="pane-overlay-Ground Speed"]', 0.3, 0.6));
    const windows = reads.slice(before).map((r) => r.postDataJSON() as { mode: number; startTime: number; duration: number });
    expect(windows).toHaveLength(2);
    for (const w of windows) {
      expect(w.mode).toBe(2);
      // A third of a lap of about a minute, inside lap 3 (from 159.31 s) or lap 4 (from 222.99 s).
      expect(w.duration).toBeGreaterThan(5);
      expect(w.duration).toBeLessThan(40);
      expect(w.startTime).toBeGreaterThan(159.31);
    }
    expect(Math.abs((windows[0] as { startTime: number }).startTime - (windows[1] as { startTime: number }).startTime)).toBeGreaterThan(30);
    const [lap3, lap4] = await screenshotColours(page, '[data-testid="pane-overlay-Ground Speed"]', 'overlay-distance-zoomed.png', [COLOURS[0], COLOURS[1]]);
    expect(lap3).toBeGreaterThan(MIN_LINE_PIXELS / 4);
    expect(lap4).toBeGreaterThan(MIN_LINE_PIXELS / 4);

    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    expect(new URL(deltas.at(-1) as string).searchParams.get('maxPoints')).not.toBeNull();
    await andDrawn(page, 'delta-panes', () => drag('[data-testid=pane-delta]', 0.2, 0.5));
    expect(new URL(deltas.at(-1) as string).searchParams.get('maxPoints')).toBeNull();
    const [trace] = await screenshotColours(page, '[data-testid=pane-delta]', 'delta-zoomed.png', [COLOURS[1]]);
    expect(trace).toBeGreaterThan(MIN_LINE_PIXELS / 4);
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when lap 2 of one run and lap 3 of another are compared, then both are overlaid and the delta is computed across the two datasets', async () => {
    const { page } = await openPage();
    const deltas: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/delta?')) deltas.push(r.url());
    });
    await signIn(page);
    await pickDataset(page, 'Run 1');
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-1]');
    // Run 1's lap table stays until Run 2's metadata has come: its button for lap 3 must be replaced, not clicked.
    const run1Lap3 = await page.waitForSelector('[data-testid=overlay-add-2]');
    await page.selectOption('[data-testid=pick-run]', { label: 'Run 2' });
    await page.selectOption('[data-testid=pick-dataset]', { label: 'Run 2 / DataFile (Sample1.ld)' });
    await page.waitForFunction((old) => !old.isConnected, run1Lap3);
    await page.waitForSelector('[data-testid=overlay-add-2]');
    await page.click('[data-testid=overlay-add-2]');
    expect(await page.textContent('[data-testid=overlay-list]')).toMatch(/Run 1 \/ DataFile lap 2.*Run 2 \/ DataFile lap 3/);

    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    const [run1, run2] = await screenshotColours(page, '[data-testid="pane-overlay-Ground Speed"]', 'overlay-two-runs-distance.png', [COLOURS[0], COLOURS[1]]);
    expect(run1).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(run2).toBeGreaterThan(MIN_LINE_PIXELS);
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    const delta = new URL(deltas[0] as string);
    expect(delta.searchParams.get('lapIndex')).toBe('2');
    expect(delta.searchParams.get('referenceLapIndex')).toBe('1');
    expect(delta.searchParams.get('referenceEntityId')).not.toBeNull();
    expect(delta.pathname).not.toContain(delta.searchParams.get('referenceEntityId') as string);
    const [trace] = await screenshotColours(page, '[data-testid=pane-delta]', 'delta-two-runs.png', [COLOURS[1]]);
    expect(trace).toBeGreaterThan(MIN_LINE_PIXELS);
    await page.context().close();
  });

  test('when the overlay over distance and the delta are both shown, then a zoom of either zooms both to the same distances, a hover on the overlay moves the delta\'s cursor, and the delta\'s title names the reference lap whole', async () => {
    const { page, foreign, cspViolations } = await openPage();
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    const title = (await page.textContent('[data-testid=pane-delta] .u-title')) ?? '';
    expect(title).toMatch(/^Delta to Run 1 \/ DataFile lap 2 \(\d:\d\d\.\d{3}\)$/);
    const ticks = async (testid: string) => page.getAttribute(`[data-testid="${testid}"]`, 'data-x-ticks');
    // Both comparison panes draw again for a drag across either.
    const drag = (testid: string, from: number, to: number) => Promise.all([andDrawn(page, 'overlay-panes', async () => undefined), andDrawn(page, 'delta-panes', () => dragAcross(page, `[data-testid="${testid}"]`, from, to))]);
    const whole = await ticks('pane-delta');
    await drag('pane-overlay-Ground Speed', 0.25, 0.5);
    const zoomed = await ticks('pane-overlay-Ground Speed');
    expect(zoomed).not.toBe(whole);
    expect(await ticks('pane-delta')).toBe(zoomed);
    await drag('pane-delta', 0.2, 0.6);
    expect(await ticks('pane-overlay-Ground Speed')).toBe(await ticks('pane-delta'));
    expect(await ticks('pane-delta')).not.toBe(zoomed);
    // The cursor on the overlay: the delta's readout shows a value at that distance, not "--".
    const over = page.locator('[data-testid="pane-overlay-Ground Speed"] .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.waitForFunction(() => /\d/.test([...document.querySelectorAll('[data-testid=pane-delta] .u-legend .u-value')].at(-1)?.textContent ?? ''));
    const overlayDistance = (await page.locator('[data-testid="pane-overlay-Ground Speed"] .u-legend .u-value').first().textContent()) ?? '';
    const deltaDistance = (await page.locator('[data-testid=pane-delta] .u-legend .u-value').first().textContent()) ?? '';
    expect(Math.abs(Number(overlayDistance) - Number(deltaDistance))).toBeLessThan(5);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when a math channel is chosen as "Distance from", then the overlay\'s distance traces and the delta are read from it and drawn; the choice outlives the lap list, back to Automatic sends no distanceChannel, and a source the service no longer has is its 400', async () => {
    const { page, foreign, cspViolations } = await openPage();
    const traces: URL[] = [];
    page.on('request', (r) => {
      if (/\/(distance|delta)\?/.test(r.url())) traces.push(new URL(r.url()));
    });
    const headers = { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' };
    const created = await fetch(`${stack.baseUrl}/MathChannels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Speed copy' }, { Name: 'Expression', Value: '"Ground Speed" * 1' }, { Name: 'Unit', Value: 'km/h' }] }),
    });
    expect(created.status).toBe(201);
    const mathId = ((await created.json()) as { Id: string }).Id;
    await signIn(page);
    await pickDataset(page);
    await page.waitForSelector('[data-testid=lap-4]');

    // Automatic first, then the file's channels in a distance or speed unit, then the account's math channels in one.
    expect(await page.inputValue('[data-testid=distance-source]')).toBe('');
    const offered = await page.locator('[data-testid=distance-source] option').allTextContents();
    expect(offered[0]).toBe('Automatic');
    expect(offered).toContain('Lap Distance (m)');
    expect(offered).toContain('Ground Speed (km/h, integrated)');
    expect(offered.some((o) => o.startsWith('Throttle Pos') || o.startsWith('Engine RPM'))).toBe(false);
    expect(await page.locator('[data-testid=distance-source] optgroup[label=Math] option').allTextContents()).toEqual(['Speed copy (km/h, integrated)']);

    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await page.selectOption('[data-testid=distance-source]', 'Speed copy');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(traces.map((u) => [u.pathname.split('/').at(-1), u.searchParams.get('lapIndex'), u.searchParams.get('distanceChannel')]).sort()).toEqual([
      ['distance', '1', 'Speed copy'],
      ['distance', '2', 'Speed copy'],
    ]);
    expect(traces.every((u) => u.search.includes('distanceChannel=Speed%20copy'))).toBe(true);
    expect(await page.textContent('[data-testid=status]')).toBe('2 lap(s) overlaid on distance (source: integrated Speed copy).');
    const [lap2, lap3] = await screenshotColours(page, '[data-testid="pane-overlay-Ground Speed"]', 'overlay-distance-from-math.png', [COLOURS[0], COLOURS[1]]);
    expect(lap2).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(lap3).toBeGreaterThan(MIN_LINE_PIXELS);

    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    const delta = traces.at(-1) as URL;
    expect([delta.pathname.split('/').at(-1), delta.searchParams.get('lapIndex'), delta.searchParams.get('referenceLapIndex'), delta.searchParams.get('distanceChannel')]).toEqual(['delta', '2', '1', 'Speed copy']);
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid=status]')).toMatch(/\(source: integrated Speed copy\)\.$/);
    const [trace] = await screenshotColours(page, '[data-testid=pane-delta]', 'delta-distance-from-math.png', [COLOURS[1]]);
    expect(trace).toBeGreaterThan(MIN_LINE_PIXELS);

    // The lap list changes (the overlay and the delta on screen drawn again each time), the choice stays.
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=overlay-add-3]'));
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=overlay-remove-2]'));
    expect(await page.inputValue('[data-testid=distance-source]')).toBe('Speed copy');

    // Back to Automatic: the overlay and the delta on screen are read again, without the parameter (the service's pick: Sample1's 10 Hz Ground Speed integrated, over its 1 Hz Lap Distance).
    const before = traces.length;
    await andDrawn(page, 'delta-panes', () => andDrawn(page, 'overlay-panes', () => page.selectOption('[data-testid=distance-source]', '')));
    const automatic = traces.slice(before);
    expect(automatic.map((u) => u.pathname.split('/').at(-1)).sort()).toEqual(['delta', 'distance', 'distance']);
    expect(automatic.every((u) => !u.searchParams.has('distanceChannel'))).toBe(true);
    expect(await page.textContent('[data-testid=status]')).toMatch(/\(source: integrated Ground Speed\)\.$/);

    // The math channel deleted behind the page's back: the service's 400 on distanceChannel is shown, in plain words.
    expect((await fetch(`${stack.baseUrl}/MathChannels/${mathId}`, { method: 'DELETE', headers })).status).toBe(204);
    // The datafile-service drops the account's definitions on the deletion's event: wait until it has.
    const runId = await page.inputValue('[data-testid=pick-run]');
    const refused = async () => (await fetch(`${stack.baseUrl}/RunSheets/${runId}/DataFileAccess/DataFile/distance?lapIndex=1&distanceChannel=Speed%20copy`, { headers })).status === 400;
    for (let i = 0; i < 50 && !(await refused()); i++) await new Promise((r) => setTimeout(r, 100));
    await page.selectOption('[data-testid=distance-source]', 'Speed copy');
    await page.waitForFunction(() => /\(400\)/.test(document.querySelector('[data-testid=error]:not([hidden])')?.textContent ?? ''));
    expect(await page.textContent('[data-testid=error]')).toMatch(/^The service refused the "Distance from" channel \(400\): channel not found in RunSheets \S+ dataset 'DataFile': Speed copy\.$/);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when "Distance from" is listed for Sample1, then it offers the car\'s distance and speed channels the service picks from, not the 1 Hz lap statistics nor the wheel speeds', async () => {
    const { page } = await openPage();
    await signIn(page);
    await pickDataset(page);
    await page.waitForSelector('[data-testid=lap-4]');
    const offered = await page.locator('[data-testid=distance-source] optgroup[label=Channels] option').allTextContents();
    // Max Straight Speed and Min Corner Speed are one value a second of a lap's statistic: no distance comes of them.
    expect(offered).toEqual(['Drive Speed (km/h, integrated)', 'Ground Speed (km/h, integrated)', 'Lap Distance (m)', 'Speed over Ground (km/h, integrated)']);
    await page.context().close();
  });

  test('when lap statistics are asked with a threshold and two sectors, then the table shows every lap with its sectors and the channel report, and the summary the theoretical best', async () => {
    const { page, foreign, cspViolations } = await openPage();
    const reads: Request[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/lapstats')) reads.push(r);
    });
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.fill('[data-testid=lapstats-thresholds]', 'Ground Speed=150');
    await page.fill('[data-testid=lapstats-sectors]', '0, 1000');
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-5]');
    expect(reads[0]?.postDataJSON()).toEqual({ channels: ['Ground Speed'], thresholds: { 'Ground Speed': 150 }, sectorStartDistances: [0, 1000] });
    const header = await page.locator('[data-testid=lapstats-table] th').allTextContents();
    expect(header).toEqual(['lap', 'kind', 'time', 'S1', 'S2', 'Ground Speed min', 'Ground Speed max', 'Ground Speed mean', 'Ground Speed sd', 'Ground Speed > 150 (s)', 'Ground Speed < 150 (s)']);
    expect(await page.locator('[data-testid^=lapstats-lap-]').count()).toBe(6);
    // Then the whole file's row: Sample1's 454 s.
    expect(await page.textContent('[data-testid=lapstats-file]')).toContain('7:34.000');
    // Lap 3 (index 2) is Sample1's best, 1:03.680, as the laps table says.
    expect(await page.textContent('[data-testid=lapstats-lap-2]')).toContain('1:03.680');
    // Every statistic is a number to its significant digits (at most 5), never float noise such as 50.00000000000012.
    // (A best sector's time is followed by its mark: a ★ to the eye and "(best)" to a screen reader.)
    const cells = (await page.locator('[data-testid=lapstats-table] td').allTextContents()).map((c) => c.replace(/ ★ \(best\)$/, ''));
    // Beside the whole file's row: its name, kind and empty sector cells.
    expect(cells.filter((c) => !/^(-|\d+:\d\d\.\d{3}|flying|out|in|\d+|-?\d+\.\d{1,4}|-?0\.0*\d{1,5})$/.test(c))).toEqual(['file', 'whole', '', '']);
    expect(await page.getAttribute('[data-testid=lapstats-lap-2]', 'class')).toBe('best');
    // Per sector: a row under each lap for each of its two sectors, with the channel's figures there.
    await page.check('[data-testid=lapstats-per-sector]');
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-2-s2]');
    expect(reads[1]?.postDataJSON()).toEqual({ channels: ['Ground Speed'], thresholds: { 'Ground Speed': 150 }, sectorStartDistances: [0, 1000], perSector: true });
    expect(await page.locator('[data-testid^=lapstats-lap-2-s]').count()).toBe(2);
    // Each best sector time is marked where it was set.
    expect(await page.locator('[data-testid=lapstats-table] td.best-sector').count()).toBe(2);
    // Marked beyond its colour and the bold (all of the best lap's row is bold): a ★ and, said, "(best)".
    for (const text of await page.locator('[data-testid=lapstats-table] td.best-sector').allTextContents()) expect(text).toMatch(/^\d+\.\d{3} ★ \(best\)$/);
    expect(await page.locator('[data-testid=lapstats-table] td.best-sector .best-mark[aria-hidden=true]').count()).toBe(2);
    const sectorRow = await page.locator('[data-testid=lapstats-lap-2-s1] td').allTextContents();
    expect(sectorRow.slice(0, 3)).toEqual(['', 'S1', '']);
    expect(sectorRow.slice(5).every((c) => /^(-|-?\d+(\.\d+)?)$/.test(c))).toBe(true);
    expect(await page.textContent('[data-testid=lapstats-summary]')).toMatch(/^Best lap 3: 1:03\.680\. Theoretical best \d:\d\d\.\d{3} \(sectors from laps/);
    await page.locator('[data-testid=analysis]').screenshot({ path: join(ARTIFACTS, 'lap-statistics.png') });
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when a scatter and a histogram are drawn, then the points of a lap are drawn in the plot colour, the whole file becomes a coloured density grid, and the histogram bars are drawn', async () => {
    const { page, foreign, cspViolations } = await openPage();
    await signIn(page);
    await pickDataset(page);
    const drawn = async (id: string, action: () => Promise<unknown>) => {
      const before = Number((await page.getAttribute(`[data-testid=${id}]`, 'data-drawn')) ?? 0);
      await action();
      await page.waitForFunction(([testid, n]) => Number(document.querySelector(`[data-testid=${testid}]`)?.getAttribute('data-drawn') ?? 0) > Number(n), [id, before] as const);
    };
    await page.selectOption('[data-testid=scatter-x]', 'Throttle Pos');
    await page.selectOption('[data-testid=scatter-y]', 'Ground Speed');
    await page.selectOption('[data-testid=analysis-lap]', { label: 'lap 2' });
    await drawn('scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    expect(await page.getAttribute('[data-testid=scatter-canvas]', 'data-kind')).toBe('points');
    expect(await page.textContent('[data-testid=scatter-caption]')).toContain("on Ground Speed's time base");
    // Points in the plot colour: no colour scale; not in g: no friction circles.
    expect(await page.isHidden('[data-testid=scatter-colour-bar]')).toBe(true);
    expect(await page.getAttribute('[data-testid=scatter-canvas]', 'data-circles')).toBe('');
    const [points, greyWithout] = await screenshotColours(page, '[data-testid=scatter-canvas]', 'scatter-lap2-points.png', [COLOURS[0], CIRCLE_COLOUR], 30);
    expect(points).toBeGreaterThan(MIN_LINE_PIXELS);

    // Lateral against longitudinal g: a g-g diagram, its friction circles drawn dashed over the points; their grey
    // counted against the plot's without them (the axes' anti-aliased text has some of it too).
    await page.selectOption('[data-testid=scatter-x]', 'G Force Lat');
    await page.selectOption('[data-testid=scatter-y]', 'G Force Long');
    await drawn('scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    expect(await page.getAttribute('[data-testid=scatter-canvas]', 'data-circles')).toMatch(/^0\.5 1 1\.5( [\d.]+)*$/);
    const [greyWith] = await screenshotColours(page, '[data-testid=scatter-canvas]', 'scatter-lap2-gg.png', [CIRCLE_COLOUR], 30);
    expect(greyWith - greyWithout).toBeGreaterThan(MIN_LINE_PIXELS);
    await page.selectOption('[data-testid=scatter-x]', 'Throttle Pos');
    await page.selectOption('[data-testid=scatter-y]', 'Ground Speed');

    await page.selectOption('[data-testid=analysis-lap]', { label: 'whole file' });
    await page.selectOption('[data-testid=scatter-colour]', 'Engine RPM');
    await drawn('scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    expect(await page.getAttribute('[data-testid=scatter-canvas]', 'data-kind')).toBe('density');
    expect(await page.textContent('[data-testid=scatter-caption]')).toMatch(/density grid/);
    await expectColourBar(page, 'scatter', /coloured by Engine RPM from ([\d.]+) \(dark purple\) to ([\d.]+(?: \S+)?) \(orange\)/);
    // Cells at both ends of the colour ramp: the lowest mean RPM dark purple, the highest orange.
    const [low, high] = await screenshotColours(page, '[data-testid=scatter-canvas]', 'scatter-file-density.png', [RAMP_LOW, RAMP_HIGH], RAMP_END_TOLERANCE);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeGreaterThan(0);

    await page.selectOption('[data-testid=histogram-channel]', 'Susp Pos FL');
    await page.fill('[data-testid=histogram-bins]', '30');
    await drawn('histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    expect(await page.textContent('[data-testid=histogram-caption]')).toMatch(/^Susp Pos FL: \d+ samples in 30 bins/);
    // Sample1's Susp Pos FL runs from below 0 to above it: the caption says the share of the time on each side.
    expect(await page.textContent('[data-testid=histogram-caption]')).toMatch(/ 30 bins of \d+(\.\d{1,4})? mm from -\d+(\.\d{1,4})? to \d+(\.\d{1,4})? mm \(\d+ below, \d+ above\)\. \d+(\.\d)? % of the time below 0, \d+(\.\d)? % above\.$/);
    // The count axis reads whole numbers of samples from 0 (it said 0.00); the value axis has round ticks too.
    expect(await page.getAttribute('[data-testid=histogram-canvas]', 'data-y-ticks')).toMatch(/^0( [1-9]\d*){2,}$/);
    expect(await page.getAttribute('[data-testid=histogram-canvas]', 'data-x-ticks')).toMatch(/^-?[\d.]+( -?[\d.]+){2,}$/);
    const [bars] = await screenshotColours(page, '[data-testid=histogram-canvas]', 'histogram-susp-pos-fl.png', [COLOURS[1]]);
    expect(bars).toBeGreaterThan(MIN_LINE_PIXELS);
    // The columns of the canvas the bars stand in (their bins), whatever their heights.
    const barColumns = async () => {
      const image = decodePng(await page.locator('[data-testid=histogram-canvas]').screenshot());
      const [r, g, b] = [1, 3, 5].map((i) => parseInt((COLOURS[1] as string).slice(i, i + 2), 16)) as [number, number, number];
      const columns: number[] = [];
      for (let x = 0; x < image.width; x++) {
        for (let y = 0; y < image.height; y++) {
          const i = (y * image.width + x) * 4;
          if (Math.abs((image.rgba[i] as number) - r) <= 24 && Math.abs((image.rgba[i + 1] as number) - g) <= 24 && Math.abs((image.rgba[i + 2] as number) - b) <= 24) {
            columns.push(x);
            break;
          }
        }
      }
      return columns;
    };
    const sampleColumns = await barColumns();
    // Bars in % of the time: the axis's last tick a round share above the tallest bar's (under 100 %), the same bins drawn.
    const counts = Number((await page.getAttribute('[data-testid=histogram-canvas]', 'data-y-ticks'))?.split(' ').at(-1));
    await drawn('histogram-canvas', () => page.selectOption('[data-testid=histogram-y]', 'percent').then(() => page.click('[data-testid=histogram-plot]')));
    const shares = ((await page.getAttribute('[data-testid=histogram-canvas]', 'data-y-ticks')) ?? '').split(' ').map(Number);
    expect(shares[0]).toBe(0);
    expect(shares.at(-1)).toBeLessThan(100);
    expect(shares.at(-1)).toBeLessThan(counts);
    const [percentBars] = await screenshotColours(page, '[data-testid=histogram-canvas]', 'histogram-susp-pos-fl-percent.png', [COLOURS[1]]);
    expect(percentBars).toBeGreaterThan(MIN_LINE_PIXELS);
    // Each axis's top is a round tick of its own: the bars' heights differ by that, their bins not (a bin of a few
    // samples, under a pixel tall, may be drawn on one axis only).
    const percentColumns = await barColumns();
    expect(percentColumns.filter((x) => !sampleColumns.includes(x))).toEqual([]);
    expect(percentColumns.length).toBeGreaterThan(0.9 * sampleColumns.length);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when a track map of lap 3 is drawn coloured by speed, then hovering the time plot moves its marker along the lap, and hovering the map moves the plots\' cursor to that point\'s time', async () => {
    const { page, foreign, cspViolations } = await openPage();
    const maps: Request[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/trackmap')) maps.push(r);
    });
    await signIn(page);
    await pickDataset(page);
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const mapDrawn = async (action: () => Promise<unknown>) => {
      const before = Number((await page.getAttribute('[data-testid=trackmap-canvas]', 'data-drawn')) ?? 0);
      await action();
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid=trackmap-canvas]')?.getAttribute('data-drawn') ?? 0) > n, before);
    };
    // Lap 3 (index 2), the best lap, is the one picked first: the lap the time plot shows.
    expect(await page.inputValue('[data-testid=trackmap-lap]')).toBe('2');
    await page.selectOption('[data-testid=trackmap-colour]', 'Ground Speed');
    await mapDrawn(() => page.click('[data-testid=trackmap-plot]'));
    expect(maps[0]?.postDataJSON()).toEqual({ lapIndex: 2, colour: 'Ground Speed', maxPoints: 1960 });
    // Lap 3 is [159.31, 222.99): Ground Speed's 20 Hz samples 3187 to 4459, 1273 of them.
    expect(await page.textContent('[data-testid=trackmap-caption]')).toMatch(/^Lap 3 from dead reckoning \(speed and yaw rate\): Ground Speed, Gyro Yaw Velocity; \d+ m, \d+ of 1273 points \(even over distance\); closure error [\d.]+ m, spread along the lap; coloured by Ground Speed from [\d.]+ \(dark purple\) to [\d.]+ km\/h \(orange\)\.$/);
    await expectColourBar(page, 'trackmap', /coloured by Ground Speed from ([\d.]+) \(dark purple\) to ([\d.]+ km\/h) \(orange\)/);
    // The slowest corners dark purple, the fastest straight orange: each drawn, in places of the lap apart.
    const [low, high] = await screenshotColours(page, '[data-testid=trackmap-canvas]', 'trackmap-lap3-speed.png', [RAMP_LOW, RAMP_HIGH], RAMP_END_TOLERANCE);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeGreaterThan(0);
    const mapImage = decodePng(readFileSync(join(ARTIFACTS, 'trackmap-lap3-speed.png')));
    const [lowAt, highAt] = [centreOf(mapImage, RAMP_LOW, RAMP_END_TOLERANCE), centreOf(mapImage, RAMP_HIGH, RAMP_END_TOLERANCE)];
    expect(Math.hypot(lowAt.x - highAt.x, lowAt.y - highAt.y)).toBeGreaterThan(40);

    // The time plot drives the map.
    const plot = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const marker = async () => ({
      index: Number(await page.getAttribute('[data-testid=trackmap-canvas]', 'data-marker')),
      x: Number(await page.getAttribute('[data-testid=trackmap-canvas]', 'data-marker-x')),
      y: Number(await page.getAttribute('[data-testid=trackmap-canvas]', 'data-marker-y')),
    });
    const cursorTime = async () => Number(/t = ([\d.]+) s/.exec((await page.textContent('[data-testid=cursor-values]')) ?? '')?.[1]);
    const hoverPlot = async (fraction: number) => {
      await plot.scrollIntoViewIfNeeded();
      const box = (await plot.boundingBox()) as { x: number; y: number; width: number; height: number };
      await mapDrawn(() => page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2));
      return { marker: await marker(), time: await cursorTime() };
    };
    const early = await hoverPlot(0.25);
    const late = await hoverPlot(0.75);
    expect(early.time).toBeGreaterThan(159.31);
    expect(late.time).toBeGreaterThan(early.time + 25);
    expect(late.marker.index).toBeGreaterThan(early.marker.index);
    expect(Math.hypot(late.marker.x - early.marker.x, late.marker.y - early.marker.y)).toBeGreaterThan(20);
    await page.locator('[data-testid=trackmap-canvas]').screenshot({ path: join(ARTIFACTS, 'trackmap-marker-from-plot.png') });

    // The map drives the time plots: over the point the plot put the marker on, the cursor comes back to its time.
    const canvas = page.locator('[data-testid=trackmap-canvas]');
    const hoverMap = async (point: { x: number; y: number }) => {
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox()) as { x: number; y: number; width: number; height: number };
      await mapDrawn(() => page.mouse.move(box.x + (point.x * box.width) / 560, box.y + (point.y * box.height) / 420));
      return cursorTime();
    };
    const back = await hoverMap(early.marker);
    expect(Math.abs(back - early.time)).toBeLessThan(0.3);
    // The marker is under the mouse: that point, or its neighbour when the two are less than a pixel apart (the
    // mouse moves by whole CSS pixels; 1,273 points over 2.2 km are about one pixel apart on this canvas).
    const underMouse = await marker();
    expect(Math.abs(underMouse.index - early.marker.index)).toBeLessThanOrEqual(1);
    expect(Math.hypot(underMouse.x - early.marker.x, underMouse.y - early.marker.y)).toBeLessThan(1.5);
    const cursorLeft = async () => page.evaluate(() => (document.querySelector('[data-testid="pane-Ground Speed"] .u-cursor-x') as HTMLElement).style.transform);
    const leftAtEarly = await cursorLeft();
    const forth = await hoverMap(late.marker);
    expect(Math.abs(forth - late.time)).toBeLessThan(0.3);
    expect(await cursorLeft()).not.toBe(leftAtEarly);
    await page.locator('[data-testid="pane-Ground Speed"]').screenshot({ path: join(ARTIFACTS, 'trackmap-cursor-from-map.png') });
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when the API key is wrong, then the page says in plain words that the key was not accepted (401) and shows no data', async () => {
    const { page } = await openPage();
    await signIn(page, '00000000-0000-4000-8000-000000000000');
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.textContent('[data-testid=error]')).toBe('The API key was not accepted (401): check the key, or ask an administrator for a new one.');
    expect(await page.isHidden('#app')).toBe(true);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('00000000-0000-4000-8000-000000000000');
    await page.context().close();
  });

  test('when a dataset is not a telemetry file, or a damaged one, then opening it says so (415, 422)', async () => {
    const notTelemetry = join(dataDir, 'photo.gif');
    writeFileSync(notTelemetry, Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4096, 0xab)]));
    const damaged = join(dataDir, 'damaged.ld');
    writeFileSync(damaged, readFileSync(SAMPLE_LD).subarray(0, 4096));
    const run = await seedRun(stack, { championship: 'Broken Cup', runSheet: 'Photo run' }, notTelemetry);
    await seedRunSheet(stack, run, 'Damaged run', damaged);
    const { page } = await openPage();
    await signIn(page);
    await page.selectOption('[data-testid=pick-championship]', { label: 'Broken Cup' });
    await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
    await page.selectOption('[data-testid=pick-session]', { label: 'Race' });
    await page.selectOption('[data-testid=pick-car]', { label: 'Car 7' });

    await page.selectOption('[data-testid=pick-run]', { label: 'Photo run' });
    await page.selectOption('[data-testid=pick-dataset]', { label: 'Photo run / DataFile (photo.gif)' });
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.textContent('[data-testid=error]')).toMatch(/^The file is not in a format the service can read \(415\)/);

    await page.selectOption('[data-testid=pick-run]', { label: 'Damaged run' });
    await page.selectOption('[data-testid=pick-dataset]', { label: 'Damaged run / DataFile (damaged.ld)' });
    await page.waitForFunction(() => /\(422\)/.test(document.querySelector('[data-testid=error]')?.textContent ?? ''));
    expect(await page.textContent('[data-testid=error]')).toMatch(/^The file could not be read: it is damaged \(422\)/);
    await page.context().close();
  });

  test('when the run sheet is deleted after it was listed, then opening its dataset says it was not found (404)', async () => {
    await seedRun(stack, { championship: 'Doomed Cup', runSheet: 'Doomed run' });
    const { page } = await openPage();
    await signIn(page);
    await page.selectOption('[data-testid=pick-championship]', { label: 'Doomed Cup' });
    await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
    await page.selectOption('[data-testid=pick-session]', { label: 'Race' });
    await page.selectOption('[data-testid=pick-car]', { label: 'Car 7' });
    await page.selectOption('[data-testid=pick-run]', { label: 'Doomed run' });
    await page.locator('[data-testid=pick-dataset] option', { hasText: 'Doomed run / DataFile' }).waitFor({ state: 'attached' });
    const client = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
    const runId = await page.inputValue('[data-testid=pick-run]');
    expect((await client.deleteRunSheet(runId)).statusCode).toBe(204);

    await page.selectOption('[data-testid=pick-dataset]', { label: 'Doomed run / DataFile (Sample1.ld)' });
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.textContent('[data-testid=error]')).toMatch(/^Not found \(404\): it does not exist in this account or this key may not see it/);
    expect(await page.isHidden('[data-testid=laps]')).toBe(true);
    await page.context().close();
  });
  test('when a math channel is defined from the page (with decimal places), then it is listed in the group Math, ticked, and plotted for a lap from the service\'s evaluation; a bad expression says where', async () => {
    const { page, foreign, cspViolations } = await openPage();
    await signIn(page);
    await pickDataset(page);
    await page.waitForSelector('[data-testid=lap-4]');

    await page.fill('[data-testid=math-name]', 'Bad one');
    await page.fill('[data-testid=math-expression]', '"Ground Speed" * (2 +');
    await page.click('[data-testid=math-save]');
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.textContent('[data-testid=error]')).toMatch(/^The math channel was not saved \(The math channel is not valid; Expression: at character \d+: /);

    await page.fill('[data-testid=math-name]', 'Speed ms');
    await page.fill('[data-testid=math-expression]', '"Ground Speed" / 3.6');
    await page.fill('[data-testid=math-unit]', 'm/s');
    await page.fill('[data-testid=math-decimals]', '2');
    await page.click('[data-testid=math-save]');
    await page.waitForSelector('[data-testid=math-group] [data-testid="channel-Speed ms"]');
    expect(await page.textContent('[data-testid=math-group] legend')).toBe('Math');
    expect(await page.isChecked('[data-testid="channel-Speed ms"]')).toBe(true);
    // The File panel counts it apart from the file's own channels.
    expect(await page.textContent('[data-testid=file-properties]')).toMatch(/channels\d+ in the file, 1 math \(the account's\)$/);

    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    const [red] = await screenshotColours(page, '[data-testid="pane-Speed ms"]', 'math-speed-ms-lap2.png', [COLOURS[0]]);
    expect(red).toBeGreaterThan(MIN_LINE_PIXELS);

    // The values drawn are the service's: Ground Speed / 3.6 to 2 decimals (DecimalPlaces), sample for sample.
    const headers = { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' };
    const runId = await page.inputValue('[data-testid=pick-run]');
    const read = await fetch(`${stack.baseUrl}/RunSheets/${runId}/DataFileAccess/DataFile/channels`, { method: 'POST', headers, body: JSON.stringify({ channels: ['Ground Speed', 'Speed ms'], mode: 1, lapIndex: 1 }) });
    const body = (await read.json()) as { channels: { samples: (number | null)[] }[] };
    const [speed, ms] = body.channels as [{ samples: number[] }, { samples: number[] }];
    expect(ms.samples).toEqual(speed.samples.map((v) => Math.round((v / 3.6) * 100) / 100));

    // In the analysis panels like a logged channel: its histogram over the whole file, from the service's evaluation.
    await page.selectOption('[data-testid=histogram-channel]', 'Speed ms');
    await page.fill('[data-testid=histogram-bins]', '12');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid=histogram-caption]')).toMatch(/^Speed ms: \d+ samples in 12 bins of [\d.]+ m\/s /);

    // Overlaid like a logged channel: laps 2 and 3 of the math channel over distance.
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid="pane-overlay-Speed ms"]')).toContain('distance (m)');
    const [lap2, lap3] = await screenshotColours(page, '[data-testid="pane-overlay-Speed ms"]', 'math-speed-ms-overlay-distance.png', [COLOURS[0], COLOURS[1]]);
    expect(lap2).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(lap3).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  test('when a ticked math channel cannot be computed (its constant is missing: the service\'s 422 on channels[i]), then the other channels are drawn and the status names it with the service\'s reason; it stays ticked', async () => {
    const headers = { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' };
    const created = await fetch(`${stack.baseUrl}/MathChannels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Speed scaled' }, { Name: 'Expression', Value: '"Ground Speed" * 2' }, { Name: 'Unit', Value: 'km/h' }] }),
    });
    expect(created.status).toBe(201);
    const mathId = ((await created.json()) as { Id: string }).Id;
    const { page } = await openPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page);
    await pickDataset(page);
    await page.waitForSelector('[data-testid="channel-Speed scaled"]');
    // The definition changed behind the page's back to read a constant the car lacks: the catalogue open still lists it.
    expect((await fetch(`${stack.baseUrl}/MathChannels/${mathId}`, { method: 'PUT', headers, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Expression', Value: '"Ground Speed" * param("Missing")' }] }) })).status).toBeLessThan(300);
    const runId = await page.inputValue('[data-testid=pick-run]');
    const refused = async () => (await fetch(`${stack.baseUrl}/RunSheets/${runId}/DataFileAccess/DataFile/channels`, { method: 'POST', headers, body: JSON.stringify({ channels: ['Ground Speed', 'Speed scaled'], mode: 1, lapIndex: 1 }) })).status === 422;
    for (let i = 0; i < 50 && !(await refused()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await refused()).toBe(true);

    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Speed scaled"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    const status = (await page.textContent('[data-testid=status]')) ?? '';
    expect(status).toMatch(/^1 channel\(s\), [\d.]+ s to [\d.]+ s; could not read "Speed scaled" \(.*param\("Missing"\).*\): kept ticked, Plot reads them again$/);
    expect(await page.$$eval('[data-testid=panes] .pane', (list) => list.map((p) => (p as HTMLElement).dataset['testid']))).toEqual(['pane-Ground Speed']);
    const [red] = await screenshotColours(page, '[data-testid="pane-Ground Speed"]', 'unreadable-math-ground-speed.png', [COLOURS[0]]);
    expect(red).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(await page.isChecked('[data-testid="channel-Speed scaled"]')).toBe(true);
    expect(pageErrors).toEqual([]);
    expect((await fetch(`${stack.baseUrl}/MathChannels/${mathId}`, { method: 'DELETE', headers })).status).toBe(204);
    await page.context().close();
  });
});
