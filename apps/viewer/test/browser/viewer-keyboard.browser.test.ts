import type { Browser, Page, Request } from 'playwright-core';
import type { Embedded } from '../support/embedded';
import { attachToRunSheet, seedRun, type SeededRun } from '../support/seed';
import { andDrawn, dragAcross, openSignedIn, pickDataset, pickRun, tickChannels } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/**
 * What an accessibility trial found with the keyboard alone and with a screen reader: the plot keys act on the plots
 * the user works in (the overlay and the delta too) and leave other widgets their keys, a picker stepped with the
 * arrows acts once the choice is committed, the focus lands somewhere useful after the page redraws, skip links and
 * headings shorten the way, and names and live regions say what a sighted user sees.
 */
describe('the viewer with the keyboard and a screen reader, in headless Chromium against npm start', () => {
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;

  useViewerStack('pitwall-viewer-keyboard-', async (parts) => {
    ({ stack, browser } = parts);
    run = await seedRun(stack, { championship: 'Keyboard Cup', runSheet: 'Run 1' });
    // A second dataset of the same run sheet: the Dataset picker lists two.
    await attachToRunSheet(stack, run.runSheet, undefined, 'Second');
  });

  async function openRun(): Promise<Page> {
    const { page } = await openSignedIn(browser, stack);
    await pickRun(page, 'Keyboard Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    return page;
  }

  /** The bodies of the page's reads of channels, as they are made. */
  function channelReads(page: Page): { mode: number; lapIndex?: number; startTime?: number; duration?: number }[] {
    const reads: { mode: number; lapIndex?: number; startTime?: number; duration?: number }[] = [];
    page.on('request', (r: Request) => {
      if (r.url().includes('/channels')) reads.push(r.postDataJSON());
    });
    return reads;
  }

  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);
  const drawnCount = async (page: Page, testid: string) => Number((await page.getAttribute(`[data-testid=${testid}]`, 'data-drawn')) ?? 0);

  test('when the overlay has the focus, then arrows step its cursor and say its values, + and - zoom it (one read a lap) and Escape goes back to whole laps, the time plots untouched; keys on a button zoom nothing', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const timeTicks = await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks');
    const timeDrawn = await drawnCount(page, 'panes');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    const reads = channelReads(page);

    // With the focus on the Overlay button (not a plot), + is no plot key: nothing is read or drawn.
    expect(await focused(page)).toBe('overlay-plot');
    await page.keyboard.press('+');
    await page.waitForTimeout(300);
    expect(reads).toHaveLength(0);

    // The overlay's plot area reached by Tab (the panes after the Compare controls).
    const overlay = page.locator('[data-testid=overlay-panes-slider]');
    expect(await overlay.getAttribute('tabindex')).toBe('0');
    // A slider (a screen reader's focus mode, so the arrows reach the page) over the lap time shown.
    expect(await page.getByRole('slider', { name: 'Lap overlay', exact: true }).getAttribute('data-testid')).toBe('overlay-panes-slider');
    expect(await overlay.getAttribute('aria-orientation')).toBe('horizontal');
    expect(Number(await overlay.getAttribute('aria-valuemin'))).toBeLessThan(Number(await overlay.getAttribute('aria-valuemax')));
    for (let i = 0; i < 10 && (await focused(page)) !== 'overlay-panes-slider'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('overlay-panes-slider');
    const wholeTicks = await page.getAttribute('[data-testid="pane-overlay-Ground Speed"]', 'data-x-ticks');

    // ← and →: the cursor on the overlay, its values the slider's text (read by the screen reader), its x the value.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const said = (await overlay.getAttribute('aria-valuetext')) ?? '';
    expect(said).toMatch(/^lap time \(s\) [\d.]+\. Ground Speed over lap time: Run 1 \/ DataFile.* km\/h/);
    const now = Number(await overlay.getAttribute('aria-valuenow'));
    expect(said.startsWith(`lap time (s) ${Number(now.toPrecision(6))}.`)).toBe(true);
    // No live region repeats it.
    expect(await page.locator('[aria-live]').evaluateAll((regions) => regions.map((r) => r.getAttribute('data-testid')))).toEqual(['status']);

    // +: the overlay zoomed around its cursor, a window read per lap; the time plots neither read nor drawn.
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('+'));
    expect(reads).toHaveLength(2);
    for (const read of reads) expect(read.mode).toBe(2);
    const zoomedTicks = await page.getAttribute('[data-testid="pane-overlay-Ground Speed"]', 'data-x-ticks');
    expect(zoomedTicks).not.toBe(wholeTicks);
    expect(await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks')).toBe(timeTicks);
    expect(await drawnCount(page, 'panes')).toBe(timeDrawn);
    // The focus stays on the overlay drawn again.
    expect(await focused(page)).toBe('overlay-panes-slider');

    // -: out to the whole laps again (the laps' own reads).
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('-'));
    expect(reads.slice(2).map((r) => r.mode)).toEqual([1, 1]);
    expect(await page.getAttribute('[data-testid="pane-overlay-Ground Speed"]', 'data-x-ticks')).toBe(wholeTicks);

    // + then Escape: whole laps.
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('+'));
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('Escape'));
    expect(await page.getAttribute('[data-testid="pane-overlay-Ground Speed"]', 'data-x-ticks')).toBe(wholeTicks);
    expect(await drawnCount(page, 'panes')).toBe(timeDrawn);

    // The delta too: its own plot area, zoomed by + with the focus in it.
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    const deltaTicks = await page.getAttribute('[data-testid=pane-delta]', 'data-x-ticks');
    await page.focus('[data-testid=delta-panes-slider]');
    await andDrawn(page, 'delta-panes', () => page.keyboard.press('+'));
    expect(await page.getAttribute('[data-testid=pane-delta]', 'data-x-ticks')).not.toBe(deltaTicks);
    expect(await drawnCount(page, 'panes')).toBe(timeDrawn);
    await page.context().close();
  });

  test('when plots are drawn, then no slider holds a control (ARIA makes its content presentational): the y scale controls and their form are beside it, reached by Tab and named', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Throttle Pos"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    // A y scale form open too: its fields and buttons on the page.
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-scale]');
    const sliders = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[role=slider]')].map((slider) => ({
          name: slider.getAttribute('aria-label'),
          // Anything a user could reach or work inside it: a control, a field, a link, a form, a Tab stop.
          controls: slider.querySelectorAll('button, input, select, textarea, a, form, [tabindex], [role=button], [contenteditable]').length,
        })),
      );
    expect(await sliders()).toEqual([
      { name: 'Time plots', controls: 0 },
      { name: 'Lap overlay', controls: 0 },
      { name: 'Delta to the first lap', controls: 0 },
    ]);
    expect(await page.locator('[data-testid=y-scale-form] [data-testid=y-min]').count()).toBe(1);
    await page.keyboard.press('Escape');
    // From the time plots' slider, Tab reaches each pane's y scale control, named for its pane.
    await page.focus('[data-testid=panes-slider]');
    const name = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
    await page.keyboard.press('Tab');
    expect(await name()).toBe('y: auto, y scale of Ground Speed');
    await page.keyboard.press('Tab');
    expect(await name()).toBe('y: auto, y scale of Throttle Pos');
    // Enter on it opens its form, whose fields Tab reaches.
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('y-min');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('y-max');
    // A click on a pane's plot puts the focus on its plot area's slider, the mouse going through the slider to the plot.
    await page.click('[data-testid="pane-overlay-Throttle Pos"] .u-over');
    expect(await focused(page)).toBe('overlay-panes-slider');
    await page.context().close();
  });

  test('when Ctrl and the wheel are turned over the overlay or the delta, then it zooms around the mouse\'s x as + and - do: one read a lap a burst, within the whole laps, the time plots untouched', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const timeDrawn = await drawnCount(page, 'panes');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
    const reads = channelReads(page);
    const rangeOf = async (slider: string) => [Number(await page.getAttribute(`[data-testid=${slider}]`, 'aria-valuemin')), Number(await page.getAttribute(`[data-testid=${slider}]`, 'aria-valuemax'))] as const;
    const wheel = async (deltaY: number, turns: number) => {
      await page.keyboard.down('Control');
      for (let i = 0; i < turns; i++) await page.mouse.wheel(0, deltaY);
      await page.keyboard.up('Control');
    };
    const over = page.locator('[data-testid="pane-overlay-Ground Speed"] .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    const [min, max] = await rangeOf('overlay-panes-slider');

    // Two notches away from the user at 30 % of the overlay, in one burst: four times as close around the lap time
    // there (still at 30 % of the plot), one read a lap.
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await andDrawn(page, 'overlay-panes', () => wheel(-100, 2));
    await page.waitForTimeout(400);
    expect(reads.map((r) => r.mode)).toEqual([2, 2]);
    const [zoomedMin, zoomedMax] = await rangeOf('overlay-panes-slider');
    expect((zoomedMax - zoomedMin) / (max - min)).toBeCloseTo(0.25, 2);
    const at = min + 0.3 * (max - min);
    expect((at - zoomedMin) / (zoomedMax - zoomedMin)).toBeCloseTo(0.3, 1);
    // Towards the user, past the whole laps: the whole laps' own reads.
    await andDrawn(page, 'overlay-panes', () => wheel(100, 3));
    await page.waitForTimeout(400);
    expect(reads.slice(2).map((r) => r.mode)).toEqual([1, 1]);
    expect(await rangeOf('overlay-panes-slider')).toEqual([min, max]);

    // The delta: zoomed in around the mouse, the overlay (on lap time, not its axis) and the time plots untouched.
    const deltaOver = page.locator('[data-testid=pane-delta] .u-over');
    await deltaOver.scrollIntoViewIfNeeded();
    const deltaBox = (await deltaOver.boundingBox()) as { x: number; y: number; width: number; height: number };
    const [deltaMin, deltaMax] = await rangeOf('delta-panes-slider');
    const overlayDrawn = await drawnCount(page, 'overlay-panes');
    await page.mouse.move(deltaBox.x + deltaBox.width * 0.6, deltaBox.y + deltaBox.height / 2);
    await andDrawn(page, 'delta-panes', () => wheel(-100, 1));
    const [deltaZoomedMin, deltaZoomedMax] = await rangeOf('delta-panes-slider');
    expect((deltaZoomedMax - deltaZoomedMin) / (deltaMax - deltaMin)).toBeCloseTo(0.5, 2);
    expect((deltaMin + 0.6 * (deltaMax - deltaMin) - deltaZoomedMin) / (deltaZoomedMax - deltaZoomedMin)).toBeCloseTo(0.6, 1);
    expect(await drawnCount(page, 'overlay-panes')).toBe(overlayDrawn);
    expect(await drawnCount(page, 'panes')).toBe(timeDrawn);
    expect(reads).toHaveLength(4);
    await page.context().close();
  });

  test('when the overlay is zoomed in twice by + and out once by -, then it shows twice the second zoom\'s width, not the whole laps', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    const reads = channelReads(page);
    await page.focus('[data-testid=overlay-panes-slider]');
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('+'));
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('+'));
    // Each zoom one read a lap, of the window under the view (its lap's times).
    expect(reads.map((r) => r.mode)).toEqual([2, 2, 2, 2]);
    const second = reads.slice(2).map((r) => r.duration as number);
    await andDrawn(page, 'overlay-panes', () => page.keyboard.press('-'));
    const out = reads.slice(4);
    expect(out.map((r) => r.mode)).toEqual([2, 2]);
    for (const [i, read] of out.entries()) expect(read.duration as number).toBeCloseTo(2 * (second[i] as number), 6);
    await page.context().close();
  });

  test('when the time plots are zoomed by + or - from the keyboard, then the cursor stays at its time (the values at it still said) and the next arrow goes on from there', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    await page.focus('[data-testid=panes-slider]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const before = Number(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuenow'));
    const said = (await page.getAttribute('[data-testid=panes-slider]', 'aria-valuetext')) as string;
    expect(said).toMatch(/Ground Speed/);
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    await page.waitForFunction(() => document.querySelector('[data-testid=panes-slider]')?.getAttribute('aria-valuenow') !== null);
    expect(Number(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuenow'))).toBeCloseTo(before, 6);
    expect(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuetext')).toBe(said);
    expect(await page.textContent('[data-testid=cursor-value]')).not.toMatch(/--/);
    await page.keyboard.press('ArrowRight');
    expect(Number(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuenow'))).toBeGreaterThan(before);
    await andDrawn(page, 'panes', () => page.keyboard.press('-'));
    await page.waitForFunction(() => document.querySelector('[data-testid=panes-slider]')?.getAttribute('aria-valuenow') !== null);
    expect(Number(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuenow'))).toBeGreaterThan(before);
    await page.context().close();
  });

  test('when the time plots\' slider has the focus, then Home and End go to the ends of the range shown, Page Up and Page Down a tenth of it on and back, ↑ and ↓ as → and ←; its numbers are on the axis shown, to the microsecond; Home on the page\'s body is the page\'s', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const slider = page.locator('[data-testid=panes-slider]');
    const numbers = async () => Object.fromEntries(await Promise.all(['min', 'max', 'now'].map(async (k) => [k, (await slider.getAttribute(`aria-value${k}`)) as string])));
    await slider.focus();
    // The first and the last drawn point of the range (a lap's line falls between two samples).
    await page.keyboard.press('Home');
    let n = await numbers();
    const near = (a: string | undefined, b: string | undefined) => expect(Math.abs(Number(a) - Number(b))).toBeLessThan((Number(n['max']) - Number(n['min'])) / 50);
    near(n['now'], n['min']);
    expect(await slider.getAttribute('aria-valuetext')).toMatch(/Ground Speed [\d.]+ km\/h/);
    await page.keyboard.press('End');
    n = await numbers();
    near(n['now'], n['max']);
    const end = Number(n['now']);
    const width = Number(n['max']) - Number(n['min']);
    // At the drawn point nearest a tenth of the range back, then on (within a point of where it started).
    await page.keyboard.press('PageDown');
    expect(Math.abs(Number((await numbers())['now']) - (end - width / 10))).toBeLessThan(width / 50);
    await page.keyboard.press('PageUp');
    expect(Math.abs(Number((await numbers())['now']) - end)).toBeLessThan(width / 50);
    const atEnd = Number((await numbers())['now']);
    await page.keyboard.press('ArrowDown');
    const back = Number((await numbers())['now']);
    expect(back).toBeLessThan(atEnd);
    await page.keyboard.press('ArrowUp');
    expect(Number((await numbers())['now'])).toBe(atEnd);
    // Each number a decimal of at most six places (not 85.80000000000001 after the sums of a zoom).
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    await andDrawn(page, 'panes', () => page.keyboard.press('-'));
    for (const value of Object.values(await numbers())) expect(value).toMatch(/^-?\d+(\.\d{1,6})?$/);

    // On lap time, the numbers count from the lap's start as the slider's text does.
    await andDrawn(page, 'panes', () => page.selectOption('[data-testid=time-axis]', 'lap'));
    await slider.focus();
    await page.keyboard.press('Home');
    n = await numbers();
    expect(Number(n['min'])).toBeCloseTo(0, 1);
    expect(await slider.getAttribute('aria-valuetext')).toMatch(new RegExp(`^lap time \\(s\\) ${Number(n['now']).toFixed(3)}\\.`));

    // The page's body has the focus: Home is the page's (it scrolls it to the top), the cursor stays where it is.
    await page.keyboard.press('End');
    const kept = (await numbers())['now'];
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('Home');
    await page.waitForFunction(() => window.scrollY === 0);
    expect((await numbers())['now']).toBe(kept);
    await page.context().close();
  });

  test('when the plots are zoomed by + with the focus elsewhere, a drag or Ctrl+wheel, then the cursor put stays at its x (its values still said) while the new range holds it', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const slider = page.locator('[data-testid=panes-slider]');
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const said = (await slider.getAttribute('aria-valuetext')) as string;
    const now = Number(await slider.getAttribute('aria-valuenow'));
    expect(said).toMatch(/Ground Speed [\d.]+ km\/h/);
    const ticks = async () => page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks');
    const kept = async () => {
      expect(await slider.getAttribute('aria-valuetext')).toBe(said);
      expect(Number(await slider.getAttribute('aria-valuenow'))).toBeCloseTo(now, 6);
    };

    // + on the page's body (the plots last used take it).
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    let shown = await ticks();
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    expect(await ticks()).not.toBe(shown);
    await kept();

    // A drag from 20 % to 90 % of the plot (the cursor, in the middle, within it): not where the drag ended either.
    shown = await ticks();
    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Ground Speed"]', 0.2, 0.9));
    expect(await ticks()).not.toBe(shown);
    await kept();

    // Ctrl and the wheel turned away from the user at 40 % of the plot, the focus on a picker (the drag put it on the
    // plots): twice as close around the mouse's time.
    await page.focus('[data-testid=scope]');
    const box = (await page.locator('[data-testid="pane-Ground Speed"] .u-over').boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    shown = await ticks();
    await andDrawn(page, 'panes', async () => {
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -100);
      await page.keyboard.up('Control');
    });
    expect(await ticks()).not.toBe(shown);
    await page.mouse.move(0, 0);
    await kept();
    // The next arrow goes on from it.
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    expect(Number(await slider.getAttribute('aria-valuenow'))).toBeGreaterThan(now);

    // A drag to a range without it: no cursor said, the middle the value.
    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Ground Speed"]', 0.7, 0.95));
    expect(await slider.getAttribute('aria-valuetext')).toBe('no cursor: ← or → puts it in the middle');
    await page.context().close();
  });

  test('when the mouse moves over the plots, then the slider\'s value and text stay at the keyboard\'s cursor (the values line follows the mouse); a click puts the cursor, and the slider\'s value, there', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const slider = page.locator('[data-testid=panes-slider]');
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const said = (await slider.getAttribute('aria-valuetext')) as string;
    const now = Number(await slider.getAttribute('aria-valuenow'));
    expect(said).toMatch(/Ground Speed [\d.]+ km\/h/);
    const valuesLine = async () => (await page.textContent('[data-testid=cursor-values]')) ?? '';
    const atKeys = await valuesLine();

    // The mouse across the plot: the values line follows it, the slider does not.
    const box = (await page.locator('[data-testid="pane-Ground Speed"] .u-over').boundingBox()) as { x: number; y: number; width: number; height: number };
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.2, y);
    await page.mouse.move(box.x + box.width * 0.3, y, { steps: 5 });
    expect(await valuesLine()).not.toBe(atKeys);
    expect(await slider.getAttribute('aria-valuetext')).toBe(said);
    expect(Number(await slider.getAttribute('aria-valuenow'))).toBe(now);
    // Nor when it leaves the plots; the next arrow goes on from the slider's value.
    await page.mouse.move(0, 0);
    expect(await slider.getAttribute('aria-valuetext')).toBe(said);
    await page.keyboard.press('ArrowRight');
    const next = Number(await slider.getAttribute('aria-valuenow'));
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThan(1);

    // A click at a quarter of the plot: the cursor the user put, the slider's value and text there (the values line's).
    await page.mouse.click(box.x + box.width * 0.25, y);
    const clicked = Number(await slider.getAttribute('aria-valuenow'));
    expect(clicked).toBeLessThan(now);
    const min = Number(await slider.getAttribute('aria-valuemin'));
    const max = Number(await slider.getAttribute('aria-valuemax'));
    expect((clicked - min) / (max - min)).toBeCloseTo(0.25, 1);
    const text = (await slider.getAttribute('aria-valuetext')) as string;
    const value = ((await page.locator('[data-testid=cursor-values] data').nth(1).textContent()) ?? '').replace(/^: /, '');
    expect(text).toContain(`Ground Speed ${value}.`);
    expect(text).not.toBe(said);
    // The click put the focus on the plots: → goes on from the click.
    await page.keyboard.press('ArrowRight');
    const after = Number(await slider.getAttribute('aria-valuenow'));
    expect(after).toBeGreaterThan(clicked);
    expect(after).toBeLessThan(now);
    await page.context().close();
  });

  test('when a plot is asked for, then the focus goes to it unless the user went elsewhere, statuses of reads under way are not said, and the plot keys on the page\'s body go to plots drawn', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    // The main Plot: the focus on the plots, where the arrows move the cursor.
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'panes-slider');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('[data-testid=panes-slider]', 'aria-valuenow')).not.toBeNull();

    // A y scale's Cancel: the focus back on its control, as Escape.
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-scale]');
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-cancel]');
    expect(await page.evaluate(() => document.activeElement === document.querySelector('[data-testid="pane-Ground Speed"] [data-testid=y-scale]'))).toBe(true);

    // A zoom: "Reading…" shown in the status line but hidden from the screen reader; the result said.
    await page.evaluate(() => {
      const status = document.querySelector('[data-testid=status]') as HTMLElement;
      const seen: string[] = [];
      (window as unknown as { statusSeen: string[] }).statusSeen = seen;
      new MutationObserver(() => seen.push(status.innerHTML)).observe(status, { childList: true, subtree: true, characterData: true });
    });
    await page.focus('[data-testid=panes-slider]');
    await andDrawn(page, 'panes', () => page.keyboard.press('+'));
    const seen = await page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen);
    expect(seen).toContain('<span aria-hidden="true">Reading 1 channel(s)…</span>');
    expect(seen.filter((html) => html.includes('Reading') && !html.startsWith('<span aria-hidden="true">'))).toEqual([]);
    expect(seen.at(-1)).toMatch(/^1 channel\(s\), /);

    // A lap's Plot whose read is slow, the focus moved meanwhile to the Scope picker: it stays there.
    await page.route('**/channels', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await andDrawn(page, 'panes', async () => {
      await page.click('[data-testid=plot-lap-2]');
      await page.focus('[data-testid=scope]');
    });
    expect(await focused(page)).toBe('scope');
    await page.unroute('**/channels');

    // The overlay drawn and used, the page then scrolled over it (the wheel, no Ctrl): the keys on the page's body
    // still go to the time plots; the overlay clicked, then cleared: they go to the time plots again.
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    await page.focus('[data-testid=panes-slider]');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.hover('[data-testid=overlay-panes] .u-over');
    await page.mouse.wheel(0, 100);
    await page.mouse.move(0, 0);
    // The cursors as the sliders say them (their text: a slider without a cursor has the middle as its value, where
    // the first arrow puts it).
    const timeCursor = async () => page.getAttribute('[data-testid=panes-slider]', 'aria-valuetext');
    const overlayCursor = async () => page.getAttribute('[data-testid=overlay-panes-slider]', 'aria-valuetext');
    let before = [await timeCursor(), await overlayCursor()];
    await page.keyboard.press('ArrowRight');
    expect(await timeCursor()).not.toBe(before[0]);
    expect(await overlayCursor()).toBe(before[1]);
    await page.click('[data-testid=overlay-panes] .u-over');
    await page.click('[data-testid=overlay-clear]');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    before = [await timeCursor()];
    await page.keyboard.press('ArrowRight');
    expect(await timeCursor()).not.toBe(before[0]);
    await page.context().close();
  });

  test('when a picker is stepped with the arrow keys, then nothing is opened or closed until Enter (or leaving it); Escape puts the choice back', async () => {
    const { page } = await openSignedIn(browser, stack);
    await pickRun(page, 'Keyboard Cup', 'Run 1');
    const metadataReads: string[] = [];
    page.on('request', (r: Request) => {
      if (r.url().endsWith('/metadata')) metadataReads.push(r.url());
    });
    await page.locator('[data-testid=pick-dataset] option', { hasText: 'Second' }).waitFor({ state: 'attached' });
    await page.focus('[data-testid=pick-dataset]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(500);
    expect(metadataReads).toEqual([]);
    expect(await page.isHidden('[data-testid=file-properties]')).toBe(true);
    // Enter: the dataset stepped to is opened, once.
    const chosen = await page.$eval('[data-testid=pick-dataset]', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    await page.keyboard.press('Enter');
    await page.waitForFunction((text) => document.querySelector('[data-testid=file-properties] tr')?.textContent === `dataset${text}`, chosen);
    expect(metadataReads).toHaveLength(1);

    // The Run sheet picker stepped up: the dataset stays open and plotted; Escape puts the run sheet back.
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const runSheet = await page.inputValue('[data-testid=pick-run]');
    await page.focus('[data-testid=pick-run]');
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
    expect(await page.inputValue('[data-testid=pick-run]')).not.toBe(runSheet);
    expect(await page.isVisible('#metadata')).toBe(true);
    expect(await page.locator('[data-testid=panes] .pane').count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await page.inputValue('[data-testid=pick-run]')).toBe(runSheet);
    // Leaving the picker after a step commits it: the run sheet's choice is cleared, and the dataset closed.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    await page.waitForSelector('#metadata', { state: 'hidden' });
    expect(metadataReads).toHaveLength(1);
    // No run sheet chosen: no dataset to choose either (its old datasets stayed, and a step there raced their refill).
    expect(await page.$eval('[data-testid=pick-dataset]', (s) => [(s as HTMLSelectElement).options.length, (s as HTMLSelectElement).disabled])).toEqual([0, true]);

    // A dataset stepped to, then the mouse pressed on the picker (the list's choice shown fires no change): opened.
    await page.selectOption('[data-testid=pick-run]', { label: 'Run 1' });
    await page.locator('[data-testid=pick-dataset] option', { hasText: 'Second' }).waitFor({ state: 'attached' });
    await page.focus('[data-testid=pick-dataset]');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(300);
    expect(metadataReads).toHaveLength(1);
    await page.dispatchEvent('[data-testid=pick-dataset]', 'mousedown');
    await page.waitForSelector('#metadata', { state: 'visible' });
    expect(metadataReads).toHaveLength(2);
    await page.context().close();
  });

  test('when a championship is put back to choose… before its events come, then their late answer fills nothing (nor picks its single event, and so on down)', async () => {
    const { page } = await openSignedIn(browser, stack);
    await page.locator('[data-testid=pick-championship] option', { hasText: 'Keyboard Cup' }).waitFor({ state: 'attached' });
    let answered!: () => void;
    const late = new Promise<void>((resolve) => (answered = resolve));
    await page.route('**/Events?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
      answered();
    });
    await page.selectOption('[data-testid=pick-championship]', { label: 'Keyboard Cup' });
    await page.selectOption('[data-testid=pick-championship]', '');
    await late;
    await page.waitForTimeout(500);
    for (const id of ['pick-event', 'pick-session', 'pick-car', 'pick-run', 'pick-dataset']) {
      expect([id, await page.$eval(`[data-testid=${id}]`, (s) => [(s as HTMLSelectElement).options.length, (s as HTMLSelectElement).disabled])]).toEqual([id, [0, true]]);
    }
    await page.context().close();
  });

  test('when the page redraws what had the focus, then the focus goes to the next sensible place, not the page\'s body', async () => {
    // Connect: the first picker.
    const { page } = await openSignedIn(browser, stack);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'pick-championship');
    await pickRun(page, 'Keyboard Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Throttle Pos"]');
    // A lap's Plot: the focus on the plots (the button is scrolled away), named.
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'panes-slider');
    expect(await page.getAttribute('[data-testid=panes-slider]', 'aria-label')).toBe('Time plots');

    // y scale Set and Auto (every pane drawn again): the rebuilt pane's y scale control.
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-scale]');
    await page.fill('[data-testid="pane-Ground Speed"] [data-testid=y-min]', '0');
    await page.fill('[data-testid="pane-Ground Speed"] [data-testid=y-max]', '400');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="pane-Ground Speed"] [data-testid=y-scale]')?.textContent === 'y: fixed');
    expect(await page.evaluate(() => document.activeElement === document.querySelector('[data-testid="pane-Ground Speed"] [data-testid=y-scale]'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-auto]');
    expect(await page.evaluate(() => document.activeElement === document.querySelector('[data-testid="pane-Ground Speed"] [data-testid=y-scale]'))).toBe(true);

    // A lap removed from the comparison: the remove button now at its place, then the list once empty.
    await page.click('[data-testid=overlay-add-1]');
    await page.click('[data-testid=overlay-add-2]');
    await page.click('[data-testid=overlay-remove-0]');
    expect(await focused(page)).toBe('overlay-remove-0');
    await page.click('[data-testid=overlay-remove-0]');
    expect(await focused(page)).toBe('overlay-list');

    // A math channel: Cancel of its edit goes back to its Edit button; a delete to the next channel's Delete.
    for (const name of ['Speed A', 'Speed B']) {
      await page.fill('[data-testid=math-name]', name);
      await page.fill('[data-testid=math-expression]', '"Ground Speed" * 1');
      await page.click('[data-testid=math-save]');
      await page.waitForFunction((n) => document.querySelector('[data-testid=status]')?.textContent === `Math channel ${n} saved.`, name);
    }
    await page.click('[data-testid=math-defined] summary');
    await page.click('[data-testid="math-edit-Speed A"]');
    await page.click('[data-testid=math-cancel]');
    expect(await focused(page)).toBe('math-edit-Speed A');
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-testid="math-delete-Speed A"]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'Math channel Speed A deleted.');
    expect(await focused(page)).toBe('math-delete-Speed B');
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-testid="math-delete-Speed B"]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'Math channel Speed B deleted.');
    expect(await focused(page)).toBe('SUMMARY');
    await page.context().close();
  });

  test('when the focus is on another widget, then the plot keys are its own: a picker\'s arrows, a checkbox\'s +, a table scrolled sideways', async () => {
    const page = await openRun();
    await tickChannels(page);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const reads = channelReads(page);
    // The cursor put on the plots by the keyboard.
    await page.keyboard.press('ArrowRight');
    let cursor = await page.textContent('[data-testid=cursor-values]');
    expect(cursor).toMatch(/t = [\d.]+ s/);
    // On the Scope picker, → is the picker's (the cursor stays); on a channel's checkbox, + zooms nothing.
    await page.focus('[data-testid=scope]');
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid=cursor-values]')).toBe(cursor);
    await page.focus('[data-testid="channel-Ground Speed"]');
    await page.keyboard.press('+');
    await page.waitForTimeout(300);
    expect(reads).toHaveLength(0);
    // The lap statistics of every channel, wider than their box: → scrolls the box focused, the cursor stays.
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-5]');
    await page.focus('.lapstats');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('lapstats');
    cursor = await page.textContent('[data-testid=cursor-values]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => (document.querySelector('.lapstats') as HTMLElement).scrollLeft > 0);
    expect(await page.textContent('[data-testid=cursor-values]')).toBe(cursor);
    await page.context().close();
  });

  test('when the channel list is reached by Tab, then it is one Tab stop: the arrows move between its channels (across units), Space ticks one, Home and End go to the ends, and the next Tab leaves it', async () => {
    const page = await openRun();
    const boxes = page.locator('[data-testid=channels] input[type=checkbox]');
    const names = await boxes.evaluateAll((all) => all.map((b) => b.getAttribute('data-testid') as string));
    expect(names.length).toBeGreaterThan(5);
    // One of its checkboxes in the Tab order, the first.
    const tabStops = () => boxes.evaluateAll((all) => all.filter((b) => (b as HTMLElement).tabIndex >= 0).map((b) => b.getAttribute('data-testid')));
    expect(await tabStops()).toEqual([names[0]]);
    expect(await page.getByRole('group', { name: 'Channels', exact: true }).getAttribute('data-testid')).toBe('channels');

    await page.focus('[data-testid=channel-search]');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(names[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe(names[2]);
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe(names[1]);
    // Space ticks the channel focused, and only it.
    await page.keyboard.press(' ');
    expect(await boxes.evaluateAll((all) => all.filter((b) => (b as HTMLInputElement).checked).map((b) => b.getAttribute('data-testid')))).toEqual([names[1]]);
    await page.keyboard.press('End');
    expect(await focused(page)).toBe(names.at(-1));
    // Past the last: it stays there.
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe(names.at(-1));
    // From the last channel of a unit to the first of the next unit.
    const groups = await boxes.evaluateAll((all) => all.map((b) => [...document.querySelectorAll('[data-testid=channels] fieldset')].indexOf(b.closest('fieldset') as HTMLFieldSetElement)));
    const boundary = groups.findIndex((g, i) => i > 0 && g !== groups[i - 1]);
    expect(boundary).toBeGreaterThan(0);
    await page.focus(`[data-testid="${names[boundary - 1]}"]`);
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe(names[boundary]);
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe(names[0]);
    await page.keyboard.press('ArrowDown');
    // Tab leaves the list for what follows it; Shift+Tab comes back to the channel last focused.
    await page.keyboard.press('Tab');
    expect(await focused(page)).not.toMatch(/^channel-/);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe(names[1]);
    expect(await tabStops()).toEqual([names[1]]);

    // The list narrowed by the search (drawn again): still one Tab stop, on the channel last focused while it is listed.
    await page.fill('[data-testid=channel-search]', names[1]?.replace(/^channel-/, '') ?? '');
    expect(await tabStops()).toEqual([names[1]]);
    await page.fill('[data-testid=channel-search]', '');
    expect(await tabStops()).toEqual([names[1]]);
    expect(await boxes.count()).toBe(names.length);
    await page.context().close();
  });

  test('when a screen reader reads the page, then buttons, headers and canvases have names that say which, the status line is a live region, and skip links and headings shorten the way', async () => {
    const page = await openRun();
    await page.check('[data-testid="channel-Ground Speed"]');
    // Names that say which lap, which channel.
    expect(await page.getByRole('button', { name: 'Plot lap 3', exact: true }).getAttribute('data-testid')).toBe('plot-lap-2');
    expect(await page.getByRole('button', { name: 'Compare lap 3', exact: true }).getAttribute('data-testid')).toBe('overlay-add-2');
    expect(await page.getByRole('button', { name: 'Plot', exact: true }).getAttribute('data-testid')).toBe('plot');
    expect(await page.getByRole('rowheader', { name: '3', exact: true }).count()).toBe(1);
    for (const header of ['lap', 'time', 'Plot', 'Compare']) expect(await page.locator('[data-testid=laps]').getByRole('columnheader', { name: header, exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Pan left', exact: true }).getAttribute('data-testid')).toBe('pan-left');
    expect(await page.getByRole('button', { name: 'Pan right', exact: true }).getAttribute('data-testid')).toBe('pan-right');
    // Headings of each section, the time plots' among them.
    for (const heading of ['Dataset', 'File', 'Laps', 'Channels', 'Time plots', 'Compare laps', 'Lap statistics', 'Track map']) expect(await page.getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
    // The status line: a polite live region, saying what Plot drew.
    expect(await page.getAttribute('[data-testid=status]', 'role')).toBe('status');
    expect(await page.getAttribute('[data-testid=status]', 'aria-live')).toBe('polite');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    expect(await page.textContent('[data-testid=status]')).toMatch(/^1 channel\(s\)/);
    expect(await page.getByRole('button', { name: 'y: auto, y scale of Ground Speed', exact: true }).count()).toBe(1);
    // The time plots' area: a slider named Time plots, its text the values at the cursor (the values line's), the
    // middle before a cursor is put on it.
    const plots = page.getByRole('slider', { name: 'Time plots', exact: true });
    expect(await plots.getAttribute('data-testid')).toBe('panes-slider');
    expect(await plots.getAttribute('aria-valuetext')).toBe('no cursor: ← or → puts it in the middle');
    // Its value all the same (a slider without one is invalid): the middle of the range, where the first arrow puts
    // the cursor.
    const middle = (Number(await plots.getAttribute('aria-valuemin')) + Number(await plots.getAttribute('aria-valuemax'))) / 2;
    expect(await plots.getAttribute('aria-valuenow')).not.toBeNull();
    expect(Number(await plots.getAttribute('aria-valuenow'))).toBeCloseTo(middle, 6);
    await plots.focus();
    await page.keyboard.press('ArrowRight');
    expect(Number(await plots.getAttribute('aria-valuenow'))).toBeCloseTo(middle, 6);
    const text = (await plots.getAttribute('aria-valuetext')) ?? '';
    expect(text).toMatch(/^(lap )?time \(s\) [\d.]+\. Ground Speed [\d.]+ km\/h\.$/);
    const value = (await page.locator('[data-testid=cursor-values] data').nth(1).textContent()) ?? '';
    expect(text).toContain(`Ground Speed ${value.replace(/^: /, '')}.`);

    // The comparison: remove named for its lap, the swatch not read.
    await page.click('[data-testid=overlay-add-2]');
    expect(await page.getByRole('button', { name: /^remove Run 1 \/ DataFile .*lap 3.* from the comparison$/ }).count()).toBe(1);
    expect(await page.getAttribute('[data-testid=overlay-item-0] span', 'aria-hidden')).toBe('true');

    // From the last lap's Compare button, the comparison is three keys away (not 111 Tabs past the channels).
    await page.focus('[data-testid=overlay-add-5]');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('skip-laps-to-plots');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('skip-laps-to-comparison');
    const address = page.url();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('compare-heading');
    expect(page.url()).toBe(address);
    // Skip to plots, with plots drawn: the plot area.
    await page.focus('[data-testid=overlay-add-5]');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('panes-slider');
    // The shortcuts are on the page.
    expect(await page.textContent('[data-testid=plot-keys-hint]')).toContain('Ctrl+wheel');

    // Canvases: images named by their caption.
    await page.click('[data-testid=trackmap-plot]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=trackmap-caption]')?.textContent ?? '').startsWith('Lap '));
    const map = page.getByRole('img', { name: /^Lap \d+ from / });
    expect(await map.getAttribute('data-testid')).toBe('trackmap-canvas');
    await page.context().close();
  });

  test('when a sign-in fails, then the key stays in its field; an empty picker is disabled until it has choices', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/viewer`);
    const pickers = ['pick-championship', 'pick-event', 'pick-session', 'pick-car', 'pick-run', 'pick-dataset'];
    for (const id of pickers) expect(await page.$eval(`[data-testid=${id}]`, (s) => (s as HTMLSelectElement).disabled)).toBe(true);
    await page.fill('[data-testid=api-key]', stack.apiKey);
    await page.fill('[data-testid=account-id]', 'no-such-account');
    await page.click('[data-testid=connect]');
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    expect(await page.inputValue('[data-testid=api-key]')).toBe(stack.apiKey);
    // Signed in with the right account: the pickers below the championship are disabled until they have choices.
    await page.fill('[data-testid=account-id]', stack.accountId);
    await page.click('[data-testid=connect]');
    // Signed in: the championships listed, the pickers below disabled until a choice above gives them theirs.
    await page.waitForFunction(() => (document.querySelector('[data-testid=pick-championship]') as HTMLSelectElement).options.length > 1);
    expect(await page.isEnabled('[data-testid=pick-championship]')).toBe(true);
    for (const id of pickers.slice(1)) expect(await page.isDisabled(`[data-testid=${id}]`)).toBe(true);
    // Signed in: the key is not kept in the hidden field.
    expect(await page.inputValue('[data-testid=api-key]')).toBe('');
    await pickRun(page, 'Keyboard Cup', 'Run 1');
    await page.locator('[data-testid=pick-dataset] option', { hasText: 'Second' }).waitFor({ state: 'attached' });
    for (const id of pickers) expect(await page.isEnabled(`[data-testid=${id}]`)).toBe(true);
    await context.close();
  });
});
