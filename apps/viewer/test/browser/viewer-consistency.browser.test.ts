import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { CHANNELS_MEDIA_TYPE, decodeChannels, isEventSeries, physicalSamples, type ChannelSeries } from '@pitwall/channels';
import type { Embedded } from '../support/embedded';
import { seedRun, seedRunSheet, type SeededRun } from '../support/seed';
import { andDrawn, dragAcross, openSignedIn, pickDataset, pickRun, shownError } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/**
 * What a user sees agrees with the controls and with the data: the values at the cursor, the pickers and panels after
 * another dataset is opened (or fails to open), and the messages of a failure wherever the control used is.
 */
const LONG_NAME = `Brake Pressure Front ${'Long Name '.repeat(28)}End`;
const LONG_UNIT = `bar ${'unit '.repeat(49)}end`;

/** Run 1's DataFile, Ground Speed and Throttle Pos ticked, its lap 2 (index) plotted. */
async function plotTwoChannelsOfLap2(page: Page): Promise<void> {
  await pickRun(page, 'Consistency Cup', 'Run 1');
  await pickDataset(page, 'Run 1 / DataFile');
  await page.check('[data-testid="channel-Ground Speed"]');
  await page.check('[data-testid="channel-Throttle Pos"]');
  await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
}

/** Run 1's DataFile, Ground Speed ticked, laps 1 to 3 (indexes) compared: the overlay and the delta drawn. */
async function compareThreeLaps(page: Page): Promise<void> {
  await pickRun(page, 'Consistency Cup', 'Run 1');
  await pickDataset(page, 'Run 1 / DataFile');
  await page.check('[data-testid="channel-Ground Speed"]');
  for (const lap of [1, 2, 3]) await page.click(`[data-testid=overlay-add-${lap}]`);
  await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
  await andDrawn(page, 'delta-panes', () => page.click('[data-testid=delta-plot]'));
}

describe('the viewer keeps what it shows consistent, in headless Chromium against npm start', () => {
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;

  useViewerStack('pitwall-viewer-consistency-', async (parts) => {
    ({ stack, browser } = parts);
    const { dataDir } = parts;
    run = await seedRun(stack, { championship: 'Consistency Cup', runSheet: 'Run 1' });
    // A one-channel CSV: a minute of throttle at 10 Hz, no lap column, so no laps.
    const csv = join(dataDir, 'throttle.csv');
    writeFileSync(csv, `Time,Throttle Pos\n${Array.from({ length: 600 }, (_, i) => `${(i / 10).toFixed(1)},${(50 + 40 * Math.sin(i / 20)).toFixed(2)}`).join('\n')}\n`);
    await seedRunSheet(stack, run, 'No laps run', csv);
    // Three laps of 20 s (a lap counter column), and no channel a track map is made from.
    const laps = join(dataDir, 'laps.csv');
    writeFileSync(laps, `Time,Lap,Throttle Pos\n${Array.from({ length: 600 }, (_, i) => `${(i / 10).toFixed(1)},${1 + Math.floor(i / 200)},${(50 + 40 * Math.sin(i / 20)).toFixed(2)}`).join('\n')}\n`);
    await seedRunSheet(stack, run, 'Laps run', laps);
    const gif = join(dataDir, 'photo.gif');
    writeFileSync(gif, Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4096, 0xab)]));
    await seedRunSheet(stack, run, 'Photo run', gif);
    // A channel with a 300-character name and a 250-character unit beside a short one.
    const long = join(dataDir, 'long.csv');
    writeFileSync(long, `Time,${LONG_NAME} [${LONG_UNIT}],Short\n${Array.from({ length: 100 }, (_, i) => `${(i / 10).toFixed(1)},${i},${100 - i}`).join('\n')}\n`);
    await seedRunSheet(stack, run, 'Long names run', long);
  });

  /** A channel of the run's dataset at full resolution (every sample, no maxPoints), read through the API. */
  async function fullResolution(runSheet: string, channel: string): Promise<ChannelSeries> {
    const response = await fetch(`${stack.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile/channels`, {
      method: 'POST',
      headers: { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json', Accept: CHANNELS_MEDIA_TYPE },
      body: JSON.stringify({ channels: [channel], mode: 0 }),
    });
    expect(response.status).toBe(200);
    return decodeChannels(await response.arrayBuffer()).find((s): s is ChannelSeries => !isEventSeries(s)) as ChannelSeries;
  }

  test('when the cursor is over a whole-file plot (a reduced read), then the values line and the pane\'s readout say the same time and value, close to the logged value at that time', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));

    const truth = await fullResolution(run.runSheet, 'Ground Speed');
    const values = physicalSamples(truth);
    // The logged value at t: between the two samples either side of it.
    const loggedAt = (t: number) => {
      const i = Math.floor((t - truth.startTime) * truth.frequency);
      const a = values[i] as number;
      const b = values[i + 1] as number;
      return a + (b - a) * ((t - truth.startTime) * truth.frequency - i);
    };
    let range = 0;
    for (const v of values) if (Number.isFinite(v)) range = Math.max(range, Math.abs(v));

    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    const errors: number[] = [];
    for (const fraction of [0.13, 0.27, 0.41, 0.55, 0.69, 0.83]) {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
      await page.waitForFunction(() => /Ground Speed: /.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
      const line = (await page.textContent('[data-testid=cursor-values]')) as string;
      const [, time, value] = /t = ([\d.]+) s.*Ground Speed: (-?[\d.]+) km\/h/.exec(line) as RegExpExecArray;
      const legend = await page.locator('[data-testid="pane-Ground Speed"] .u-legend .u-value').allTextContents();
      // The pane's readout: the same time and the same value as the line above the plots.
      expect(legend).toEqual([time, `${value} km/h`]);
      errors.push(Math.abs(Number(value) - loggedAt(Number(time))));
    }
    // Each within 2 % of the channel's scale of the logged value at the cursor's time (the last plotted point at or
    // before the cursor, a bucket's extreme up to a second earlier, was off by 3 times that).
    for (const e of errors) expect(e).toBeLessThan(0.02 * range);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a dataset without laps is opened after a lap was the scope, then the scope is the whole file again, a lap scope is not offered, and Plot draws the file; a lap scope forced on it is said in words, never a script error', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.selectOption('[data-testid=scope]', 'lap');
    await page.selectOption('[data-testid=scope-lap]', '2');

    await page.selectOption('[data-testid=pick-run]', { label: 'No laps run' });
    await pickDataset(page, 'No laps run / DataFile (throttle.csv)');
    expect(await page.inputValue('[data-testid=scope]')).toBe('file');
    expect(await page.isDisabled('[data-testid=scope] option[value=lap]')).toBe(true);
    expect(await page.textContent('[data-testid=scope] option[value=lap]')).toContain('this file has no laps');
    expect(await page.isDisabled('[data-testid=scope-lap]')).toBe(true);
    await page.check('[data-testid="channel-Throttle Pos"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);

    // A lap scope the page would not offer, set anyway: a sentence about the laps.
    await page.evaluate(() => {
      (document.querySelector('[data-testid=scope]') as HTMLSelectElement).value = 'lap';
    });
    await page.click('[data-testid=plot]');
    expect(await shownError(page)).toBe('This file has no laps: plot the whole file or a window.');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a dataset fails to open after another was open, then none of the other one\'s panels stays: no file table, channels or buttons act on a dataset the picker does not show', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const lapStats: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/lapstats')) lapStats.push(r.url());
    });
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));

    await page.selectOption('[data-testid=pick-run]', { label: 'Photo run' });
    await page.selectOption('[data-testid=pick-dataset]', { label: 'Photo run / DataFile (photo.gif)' });
    expect(await shownError(page)).toMatch(/^The file is not in a format the service can read \(415\)/);
    for (const panel of ['metadata', 'plot-controls', 'analysis', 'trackmap']) expect(await page.isHidden(`#${panel}`)).toBe(true);
    expect(await page.locator('[data-testid^=pane-]').count()).toBe(0);
    expect(await page.isVisible('[data-testid=lapstats-run]')).toBe(false);
    expect(lapStats).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when another dataset is opened after a scatter and a histogram were drawn, then their canvases, captions and the status line are cleared like the track map and the lap statistics', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.selectOption('[data-testid=scatter-x]', 'Throttle Pos');
    await page.selectOption('[data-testid=scatter-y]', 'Ground Speed');
    await andDrawn(page, 'scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    await page.selectOption('[data-testid=histogram-channel]', 'Ground Speed');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    expect(await page.textContent('[data-testid=histogram-caption]')).toContain('Ground Speed');
    expect(await page.textContent('[data-testid=status]')).toContain('Ground Speed');

    await page.selectOption('[data-testid=pick-run]', { label: 'No laps run' });
    await pickDataset(page, 'No laps run / DataFile (throttle.csv)');
    for (const id of ['scatter-caption', 'histogram-caption', 'status']) expect(await page.textContent(`[data-testid=${id}]`)).toBe('');
    expect(await page.getAttribute('[data-testid=scatter-canvas]', 'data-kind')).toBeNull();
    // Nothing is left drawn on either canvas.
    const painted = await page.evaluate(() =>
      ['scatter-canvas', 'histogram-canvas'].map((id) => {
        const canvas = document.querySelector(`[data-testid=${id}]`) as HTMLCanvasElement;
        const pixels = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) n++;
        return n;
      }),
    );
    expect(painted).toEqual([0, 0]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a file has no laps, then the track map is not offered and says why; when it has laps but no GPS, yaw rate or lateral G, then the map\'s refusal says what the file lacks, not that it is damaged', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const maps: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/trackmap')) maps.push(r.url());
    });
    await pickRun(page, 'Consistency Cup', 'No laps run');
    await pickDataset(page, 'No laps run / DataFile (throttle.csv)');
    expect(await page.isDisabled('[data-testid=trackmap-plot]')).toBe(true);
    expect(await page.textContent('[data-testid=trackmap-caption]')).toBe('This file has no laps: a track map is drawn for a lap.');

    await page.selectOption('[data-testid=pick-run]', { label: 'Laps run' });
    await pickDataset(page, 'Laps run / DataFile (laps.csv)');
    expect(await page.isDisabled('[data-testid=trackmap-plot]')).toBe(false);
    expect(await page.locator('[data-testid=trackmap-lap] option').count()).toBe(3);
    await page.click('[data-testid=trackmap-plot]');
    const message = await shownError(page);
    expect(message).toBe('This file lacks the channels a track map needs (422): GPS latitude and longitude, or a speed with a yaw rate or with a lateral acceleration.');
    // The service's own list of the names it looked for stays at hand, on hover.
    expect(await page.getAttribute('[data-testid=error]', 'title')).toMatch(/no source of a track map; missing GPS: /);
    expect(maps).toHaveLength(1);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a control far down the page fails or reports, then its message is on screen, not only at the top of the page', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack, { width: 1280, height: 700 });
    await pickRun(page, 'Consistency Cup', 'Laps run');
    await pickDataset(page, 'Laps run / DataFile (laps.csv)');
    const onScreen = async (testid: string) => {
      const box = await page.locator(`[data-testid=${testid}]`).boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 700;
    };
    await page.check('[data-testid="channel-Throttle Pos"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    // Far enough down that the messages' own place (the page's first 100 px) is out of the window (the analysis
    // canvases, hidden until drawn, no longer lengthen the page by 400 px).
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.fill('[data-testid=histogram-bins]', '2.5');
    await page.click('[data-testid=histogram-plot]');
    expect(await shownError(page)).toContain('Bins "2.5" is not a whole number');
    expect(await onScreen('error')).toBe(true);

    // A report of the same control: the histogram's status line.
    await page.fill('[data-testid=histogram-bins]', '10');
    await andDrawn(page, 'histogram-canvas', () => page.click('[data-testid=histogram-plot]'));
    expect(await page.textContent('[data-testid=status]')).toBe('Histogram of Lap.');
    expect(await onScreen('status')).toBe(true);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a typed window runs past the file, then it is cut to the file\'s time range and the status names it; one outside the file is refused naming the range; a window of 0.1 ms has tick labels that differ', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const reads: { startTime: number; duration: number }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/channels')) reads.push(r.postDataJSON() as { startTime: number; duration: number });
    });
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    const fileStart = Number(await page.inputValue('[data-testid=window-start]'));
    const length = Number(/length \(s\)([\d.]+)/.exec((await page.textContent('[data-testid=file-properties]')) ?? '')?.[1]);
    const fileEnd = fileStart + length;
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.selectOption('[data-testid=scope]', 'window');

    await page.fill('[data-testid=window-start]', String(fileStart + 100));
    await page.fill('[data-testid=window-duration]', '1e9');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    // Read from a period of Ground Speed (10 Hz) before the window, so the trace runs to its edge; to the file's end.
    expect(reads.at(-1)?.startTime).toBeCloseTo(fileStart + 100 - 0.1, 6);
    expect(reads.at(-1)?.duration).toBeCloseTo(length - 100 + 0.1, 3);
    expect(await page.textContent('[data-testid=status]')).toMatch(/\(the window cut to the file: the file runs from [\d.]+ s to [\d.]+ s\)$/);
    // The axis ends at the file's end, not at 1e9.
    const xTicks = async () => ((await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks')) ?? '').split(' ');
    const ticks = (await xTicks()).map(Number);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(fileEnd);

    const before = reads.length;
    await page.fill('[data-testid=window-start]', String(Math.ceil(fileEnd) + 65));
    await page.fill('[data-testid=window-duration]', '10');
    await page.click('[data-testid=plot]');
    await page.waitForFunction(() => /is outside the file \(the file runs from [\d.]+ s to [\d.]+ s\)\.$/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
    expect(reads).toHaveLength(before);

    await page.fill('[data-testid=window-start]', String(fileStart + 90));
    await page.fill('[data-testid=window-duration]', '0.0001');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const tickLabels = await xTicks();
    expect(tickLabels.length).toBeGreaterThan(1);
    expect(new Set(tickLabels).size).toBe(tickLabels.length);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a zoomed lap plot\'s address is opened in another browser and signed in with the key, then the same run, dataset, channels, lap and zoom are drawn; the key is never in the address', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await plotTwoChannelsOfLap2(page);
    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Ground Speed"]', 0.3, 0.6));
    const ticks = async (p: typeof page) => ({
      speed: await p.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks'),
      throttle: await p.getAttribute('[data-testid="pane-Throttle Pos"]', 'data-x-ticks'),
    });
    const zoomed = await ticks(page);
    const address = page.url();
    expect(address).toContain('#');
    expect(address).toContain('lap=3');
    expect(address).toContain('view=');
    expect(address).not.toContain(stack.apiKey);
    const dataset = await page.locator('[data-testid=pick-dataset] option:checked').textContent();

    // Another browser (no stored key): the link is opened once the key is given.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const other = await context.newPage();
    const otherErrors: string[] = [];
    other.on('pageerror', (e) => otherErrors.push(e.message));
    await other.goto(address);
    await other.fill('[data-testid=api-key]', stack.apiKey);
    await andDrawn(other, 'panes', () => other.click('[data-testid=connect]'));
    await other.waitForFunction((n) => document.querySelectorAll('[data-testid=panes] .pane').length === n, 2);
    expect(await other.locator('[data-testid=pick-dataset] option:checked').textContent()).toBe(dataset);
    expect(await other.isChecked('[data-testid="channel-Ground Speed"]')).toBe(true);
    expect(await other.isChecked('[data-testid="channel-Throttle Pos"]')).toBe(true);
    expect(await other.inputValue('[data-testid=scope]')).toBe('lap');
    expect(await other.inputValue('[data-testid=scope-lap]')).toBe('2');
    // The zoom drawn waits for its own read after the lap's: the same ticks as the first page's.
    await other.waitForFunction((want) => document.querySelector('[data-testid="pane-Ground Speed"]')?.getAttribute('data-x-ticks') === want, zoomed.speed);
    expect(await ticks(other)).toEqual(zoomed);
    expect(await other.textContent('[data-testid=status]')).not.toContain('The link was opened in part');
    expect(other.url()).toBe(address);

    // A link to what this key cannot see, pasted into the signed-in page: said, nothing drawn from it.
    await other.goto(`${stack.baseUrl}/viewer#championship=00000000-0000-4000-8000-0000000000aa&event=00000000-0000-4000-8000-0000000000ab&ch=Nope&zoom=1`);
    await other.waitForFunction(() => /The link was opened in part/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
    expect(await other.textContent('[data-testid=status]')).toBe('The link was opened in part: "zoom" is not part of a viewer link; its championship is not one this key can see in this account.');
    // A zoom outside the file: the lap is drawn, the zoom said, not made a window of negative length.
    await andDrawn(other, 'panes', () => other.goto(address.replace(/view=[^&]*/, 'view=1000000%2C5')));
    await other.waitForFunction(() => /The link was opened in part/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
    expect(await other.textContent('[data-testid=status]')).toBe('The link was opened in part: its zoom is outside the file.');
    expect(pageErrors).toEqual([]);
    expect(otherErrors).toEqual([]);
    await context.close();
    await page.context().close();
  });

  test('when a pane\'s y scale is set by hand (a double-click on its axis), then it keeps it through a zoom and in its link opened in another browser; Auto goes back to the data\'s range', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await plotTwoChannelsOfLap2(page);
    const yTicks = async (p: typeof page, name: string) => ((await p.getAttribute(`[data-testid="pane-${name}"]`, 'data-y-ticks')) ?? '').split(' ');
    const throttle = await yTicks(page, 'Throttle Pos');
    const auto = await yTicks(page, 'Ground Speed');
    expect(Number(auto.at(-1))).toBeLessThan(400);

    // A double-click on the y axis (left of the plot): a form with the range drawn, which refuses a max under the min.
    const over = (await page.locator('[data-testid="pane-Ground Speed"] .u-over').boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.dblclick(over.x - 30, over.y + over.height / 2);
    const form = page.locator('[data-testid="pane-Ground Speed"] [data-testid=y-scale-form]');
    await form.waitFor();
    expect(Number(await form.locator('[data-testid=y-max]').inputValue())).toBeGreaterThanOrEqual(Number(auto.at(-1)));
    await form.locator('[data-testid=y-min]').fill('300');
    await form.locator('[data-testid=y-max]').fill('100');
    await form.locator('[data-testid=y-set]').click();
    expect(await form.locator('[data-testid=y-scale-problem]').textContent()).toBe('The max must be above the min.');
    await form.locator('[data-testid=y-min]').fill('0');
    await form.locator('[data-testid=y-max]').fill('400');
    await andDrawn(page, 'panes', () => form.locator('[data-testid=y-set]').click());
    const manual = await yTicks(page, 'Ground Speed');
    expect([manual[0], manual.at(-1)]).toEqual(['0', '400']);
    expect(await yTicks(page, 'Throttle Pos')).toEqual(throttle);
    expect(await page.textContent('[data-testid="pane-Ground Speed"] [data-testid=y-scale]')).toBe('y: fixed');
    expect(await page.getAttribute('[data-testid="pane-Ground Speed"] [data-testid=y-scale]', 'title')).toMatch(/^y scale set by hand: 0 to 400\./);
    expect(await page.textContent('[data-testid="pane-Throttle Pos"] [data-testid=y-scale]')).toBe('y: auto');
    expect(new URL(page.url()).hash).toContain('y=0%2C400%2CGround%20Speed');

    // A zoom reads a narrower window: the scale set by hand stays.
    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Throttle Pos"]', 0.2, 0.5));
    expect(await yTicks(page, 'Ground Speed')).toEqual(manual);
    const address = page.url();

    // The link in another browser: the same scales, on the same zoom.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const other = await context.newPage();
    await other.goto(address);
    await other.fill('[data-testid=api-key]', stack.apiKey);
    await other.click('[data-testid=connect]');
    await other.waitForFunction((want) => document.querySelector('[data-testid="pane-Throttle Pos"]')?.getAttribute('data-x-ticks') === want, await page.getAttribute('[data-testid="pane-Throttle Pos"]', 'data-x-ticks'));
    expect(await yTicks(other, 'Ground Speed')).toEqual(manual);
    expect(await other.textContent('[data-testid=status]')).not.toContain('The link was opened in part');
    // A scale of a pane the link does not plot, or that is not a range: said, the rest used.
    await andDrawn(other, 'panes', () => other.goto(`${address}&y=0%2C1%2CNope&y=5%2C1%2CThrottle%20Pos`));
    await other.waitForFunction(() => /The link was opened in part/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
    expect(await other.textContent('[data-testid=status]')).toBe('The link was opened in part: a y scale is not <min>,<max>,<pane> with the min below the max; the y scale of "Nope" is not of a pane plotted.');
    expect(await yTicks(other, 'Ground Speed')).toEqual(manual);
    await context.close();

    // Auto: the zoomed window's own range again, and the link says no scale.
    await page.click('[data-testid="pane-Ground Speed"] [data-testid=y-scale]');
    expect(await page.inputValue('[data-testid="pane-Ground Speed"] [data-testid=y-min]')).toBe('0');
    await andDrawn(page, 'panes', () => page.click('[data-testid="pane-Ground Speed"] [data-testid=y-auto]'));
    expect(Number((await yTicks(page, 'Ground Speed')).at(-1))).toBeLessThan(400);
    expect(await page.textContent('[data-testid="pane-Ground Speed"] [data-testid=y-scale]')).toBe('y: auto');
    expect(new URL(page.url()).hash).not.toContain('y=');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when "One pane per unit" is ticked, then channels of one unit share a pane (each in its own colour, with its value in the legend) without a new read, and the link keeps the choice', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const reads: string[] = [];
    page.on('request', (r) => {
      if (/DataFileAccess\/.*\/channels/.test(r.url())) reads.push(r.url());
    });
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    for (const name of ['Brake Pres Front', 'Ground Speed', 'Brake Pres Rear', 'Throttle Pos']) await page.check(`[data-testid="channel-${name}"]`);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    expect(await page.locator('[data-testid=panes] .pane').count()).toBe(4);
    const before = reads.length;
    await andDrawn(page, 'panes', () => page.check('[data-testid=panes-by-unit]'));
    expect(reads).toHaveLength(before);
    const panes = await page.locator('[data-testid=panes] .pane').evaluateAll((nodes) => nodes.map((n) => ({ id: n.getAttribute('data-testid'), series: [...n.querySelectorAll('.u-legend .u-series .u-label')].map((l) => l.textContent).slice(1) })));
    expect(panes).toEqual([
      { id: 'pane-unit:kPa', series: ['Brake Pres Front', 'Brake Pres Rear'] },
      { id: 'pane-unit:km/h', series: ['Ground Speed'] },
      { id: 'pane-unit:%', series: ['Throttle Pos'] },
    ]);
    // Hovering the shared pane: both pressures have a value in its legend, the same as the values line above.
    const over = page.locator('[data-testid="pane-unit:kPa"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /Brake Pres Rear: \d/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const legend = await page.locator('[data-testid="pane-unit:kPa"] .u-legend .u-value').allTextContents();
    const line = (await page.textContent('[data-testid=cursor-values]')) as string;
    expect(line).toContain(`Brake Pres Front: ${legend[1]}`);
    expect(line).toContain(`Brake Pres Rear: ${legend[2]}`);
    expect(new URL(page.url()).hash).toContain('panes=unit');
    // Its y scale set by hand: the status names the pane by its channels, as its control is named (not `unit:kPa`).
    await page.click('[data-testid="pane-unit:kPa"] [data-testid=y-scale]');
    const form = page.locator('[data-testid="pane-unit:kPa"] [data-testid=y-scale-form]');
    await form.locator('[data-testid=y-min]').fill('0');
    await form.locator('[data-testid=y-max]').fill('5000');
    await andDrawn(page, 'panes', () => form.locator('[data-testid=y-set]').click());
    expect(await page.textContent('[data-testid=status]')).toBe('The y scale of Brake Pres Front, Brake Pres Rear is set to 0 to 5000.');
    await andDrawn(page, 'panes', () => page.uncheck('[data-testid=panes-by-unit]'));
    expect(await page.locator('[data-testid=panes] .pane').count()).toBe(4);
    expect(new URL(page.url()).hash).not.toContain('panes=unit');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a lap is plotted on the lap time axis, then its ticks and the values line count from the lap\'s start (0 to its lap time) with the same values, and a zoom stays on that axis', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    // The status names the lap's range in file time: "1 channel(s), 159.310 s to 222.990 s".
    const lapStart = Number((/, ([\d.]+) s to /.exec((await page.textContent('[data-testid=status]')) ?? '') as RegExpExecArray)[1]);
    const over = page.locator('[data-testid="pane-Ground Speed"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await page.waitForFunction(() => /t = \d/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const [, fileTime, fileValue] = /^t = ([\d.]+) s.*Ground Speed: (\S+)/.exec((await page.textContent('[data-testid=cursor-values]')) as string) as RegExpExecArray;

    await andDrawn(page, 'panes', () => page.selectOption('[data-testid=time-axis]', 'lap'));
    const ticks = ((await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks')) ?? '').split(' ').map(Number);
    expect(ticks[0]).toBeGreaterThanOrEqual(0);
    expect(ticks[0]).toBeLessThan(15);
    expect(ticks.at(-1)).toBeLessThan(70);
    expect(await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-label')).toBe('lap time (s)');
    await page.mouse.move(box.x + box.width * 0.4 + 1, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await page.waitForFunction(() => /lap t = \d/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const [, lapTime, lapValue] = /^lap t = ([\d.]+) s.*Ground Speed: (\S+)/.exec((await page.textContent('[data-testid=cursor-values]')) as string) as RegExpExecArray;
    // The same place: its file time less the lap's start, and the same value.
    expect(Math.abs(Number(lapTime) - (Number(fileTime) - lapStart))).toBeLessThan(0.002);
    expect(lapValue).toBe(fileValue);
    expect(new URL(page.url()).hash).toContain('axis=lap');
    // A zoom inside the lap: still lap time.
    await andDrawn(page, 'panes', () => dragAcross(page, '[data-testid="pane-Ground Speed"]', 0.2, 0.5));
    const zoomed = ((await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks')) ?? '').split(' ').map(Number);
    expect(zoomed[0]).toBeGreaterThan(5);
    expect(zoomed.at(-1)).toBeLessThan(40);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a math channel is edited from the page, then its new expression is what the plot reads and the list says it; when deleted (confirmed), it leaves the list and the catalogue; a dismissed confirm deletes nothing', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Laps run');
    await pickDataset(page, 'Laps run / DataFile (laps.csv)');
    // The expression's tooltip says how lapNumber() counts against this page's lap numbers.
    expect(await page.getAttribute('[data-testid=math-expression]', 'title')).toContain("lapNumber() counts as the API's lapIndex: lap 1 on this page is 0");
    await page.fill('[data-testid=math-name]', 'Throttle x2');
    await page.fill('[data-testid=math-expression]', '"Throttle Pos" * 2');
    await page.click('[data-testid=math-save]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '') === 'Math channel Throttle x2 saved.');
    await page.click('[data-testid=math-defined] summary');
    expect(await page.textContent('[data-testid="math-item-Throttle x2"]')).toContain('Throttle x2 = "Throttle Pos" * 2');

    // Edit: the form filled with it, Update saves the new expression (and a new name, still ticked).
    await page.click('[data-testid="math-edit-Throttle x2"]');
    expect(await page.inputValue('[data-testid=math-expression]')).toBe('"Throttle Pos" * 2');
    expect(await page.textContent('[data-testid=math-heading]')).toBe('Edit math channel Throttle x2');
    await page.fill('[data-testid=math-name]', 'Throttle x3');
    await page.fill('[data-testid=math-expression]', '"Throttle Pos" * 3');
    await page.click('[data-testid=math-save]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '') === 'Math channel Throttle x3 saved.');
    expect(await page.textContent('[data-testid=math-heading]')).toBe('New math channel');
    expect(await page.locator('[data-testid="math-item-Throttle x2"]').count()).toBe(0);
    expect(await page.isChecked('[data-testid="channel-Throttle x3"]')).toBe(true);
    await page.check('[data-testid="channel-Throttle Pos"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    // The values line at one place: the math channel is three times the throttle there.
    const over = page.locator('[data-testid="pane-Throttle x3"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.37, box.y + box.height / 2);
    await page.waitForFunction(() => /Throttle x3: \d/.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const line = (await page.textContent('[data-testid=cursor-values]')) as string;
    const tripled = Number(/Throttle x3: (-?[\d.]+)/.exec(line)?.[1]);
    const throttle = Number(/Throttle Pos: (-?[\d.]+)/.exec(line)?.[1]);
    expect(Math.abs(tripled - 3 * throttle)).toBeLessThan(0.05 * Math.max(1, Math.abs(tripled)));

    // Delete, dismissed: nothing goes; accepted: gone from the list and the catalogue.
    page.once('dialog', (d) => void d.dismiss());
    await page.click('[data-testid="math-delete-Throttle x3"]');
    expect(await page.locator('[data-testid="math-item-Throttle x3"]').count()).toBe(1);
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-testid="math-delete-Throttle x3"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '') === 'Math channel Throttle x3 deleted.');
    expect(await page.locator('[data-testid="math-item-Throttle x3"]').count()).toBe(0);
    expect(await page.locator('[data-testid="channel-Throttle x3"]').count()).toBe(0);
    const listed = await fetch(`${stack.baseUrl}/MathChannels?parametersToInclude=Name`, { headers: { ApiKey: stack.apiKey, AccountId: stack.accountId } });
    expect(((await listed.json()) as { Parameters: { Name: string } }[]).map((m) => m.Parameters.Name)).not.toContain('Throttle x3');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a plot is scrolled into view (as focus or a link into the page does), then its top stops below the messages and values line, not under them', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack, { width: 1280, height: 700 });
    await plotTwoChannelsOfLap2(page);
    const over = page.locator('[data-testid="pane-Throttle Pos"] .u-over');
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    // The values line filled (its full height) by a hover.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /Throttle Pos: /.test(document.querySelector('[data-testid=cursor-values]')?.textContent ?? ''));
    const { messagesBottom, paneTop, scrolled } = await page.evaluate(() => {
      const pane = document.querySelector('[data-testid="pane-Throttle Pos"]') as HTMLElement;
      pane.scrollIntoView();
      return {
        messagesBottom: (document.querySelector('[data-testid=messages]') as HTMLElement).getBoundingClientRect().bottom,
        paneTop: pane.getBoundingClientRect().top,
        scrolled: window.scrollY,
      };
    });
    expect(scrolled).toBeGreaterThan(0);
    expect(paneTop).toBeGreaterThanOrEqual(messagesBottom);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when lap 4 is plotted, then the track map defaults to lap 4 (not the best lap); when the map shows another lap, then its caption says so and hovering it leaves the plots\' cursor inside their range', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    // Lap 4 (index 3, from 222.99 s); Sample1's best is lap 3 (index 2).
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-3]'));
    expect(await page.inputValue('[data-testid=trackmap-lap]')).toBe('3');
    await andDrawn(page, 'trackmap-canvas', () => page.click('[data-testid=trackmap-plot]'));
    expect(await page.textContent('[data-testid=trackmap-caption]')).not.toContain('time plots');

    // The map of lap 3 beside plots of lap 4: said, and the map's points are not put on the plots' axis.
    await page.selectOption('[data-testid=trackmap-lap]', '2');
    await andDrawn(page, 'trackmap-canvas', () => page.click('[data-testid=trackmap-plot]'));
    expect(await page.textContent('[data-testid=trackmap-caption]')).toContain('The time plots show lap 4, not lap 3: hovering the map does not move their cursor.');
    const canvas = page.locator('[data-testid=trackmap-canvas]');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox()) as { x: number; y: number; width: number; height: number };
    // Wherever on the map the marker lands, the values line says no time (lap 3's times are not on lap 4's axis).
    for (const [fx, fy] of [[0.3, 0.3], [0.5, 0.5], [0.7, 0.6]]) {
      await andDrawn(page, 'trackmap-canvas', () => page.mouse.move(box.x + box.width * (fx as number), box.y + box.height * (fy as number)));
      expect(await page.textContent('[data-testid=cursor-values]')).not.toMatch(/t = [\d.]+ s|: [\d.]+/);
    }
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a lap\'s read fails (the service out of reach), then the Lap picker goes back to the lap still plotted', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    const shown = await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks');

    await page.route('**/channels**', (route) => route.abort('connectionrefused'));
    await page.click('[data-testid=plot-lap-2]');
    expect(await shownError(page)).toContain('could not be reached');
    expect(await page.inputValue('[data-testid=scope]')).toBe('lap');
    expect(await page.inputValue('[data-testid=scope-lap]')).toBe('1');
    expect(await page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks')).toBe(shown);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when the reference lap is removed from the comparison, then the overlay is drawn again without it, each trace in its list swatch\'s colour, and the delta, left with one lap, is cleared and said', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await compareThreeLaps(page);

    /** Each list item's swatch colour and text, and each trace of the overlay pane's legend with its colour. */
    const listed = () => page.$$eval('[data-testid^=overlay-item-]', (items) => items.map((li) => ({ colour: getComputedStyle(li.querySelector('span') as HTMLElement).color, label: li.textContent ?? '' })));
    const traces = () =>
      page.$$eval('[data-testid="pane-overlay-Ground Speed"] .u-legend .u-series', (rows) =>
        rows.slice(1).map((r) => ({ colour: getComputedStyle(r.querySelector('.u-marker') as HTMLElement).borderColor, label: r.querySelector('.u-label')?.textContent ?? '' })),
      );
    const agree = async () => {
      const [list, drawn] = [await listed(), await traces()];
      expect(drawn).toHaveLength(list.length);
      list.forEach((item, i) => {
        expect(item.label).toContain(drawn[i]?.label);
        expect(drawn[i]?.colour).toBe(item.colour);
      });
    };
    await agree();

    await Promise.all([andDrawn(page, 'overlay-panes', async () => undefined), andDrawn(page, 'delta-panes', () => page.click('[data-testid=overlay-remove-0]'))]);
    expect(await page.$$eval('[data-testid=pane-delta] .u-legend .u-series', (rows) => rows.slice(1).map((r) => r.querySelector('.u-label')?.textContent))).toEqual([expect.stringContaining('lap 4')]);
    expect((await traces()).map((t) => t.label)).toEqual([expect.stringContaining('lap 3'), expect.stringContaining('lap 4')]);
    await agree();
    await page.waitForSelector('[data-testid=pane-delta]');

    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-remove-0]'));
    await agree();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=pane-delta]').length === 0);
    expect(await page.textContent('[data-testid=status]')).toContain('Delta cleared: it needs two or more laps');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a lap is removed while the delta of the laps before is still being read, then that late answer is not drawn: the delta left with one lap stays cleared', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await compareThreeLaps(page);

    // The delta's reads held: the first remove's delta (two laps left) is still on its way at the second remove.
    const held: Route[] = [];
    let heldOne: () => void = () => undefined;
    const oneHeld = new Promise<void>((resolve) => (heldOne = resolve));
    await page.route('**/delta?**', (route) => {
      held.push(route);
      heldOne();
    });
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-remove-0]'));
    await oneHeld;
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-remove-0]'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=pane-delta]').length === 0);

    const finished = held.map((route) => page.waitForEvent('requestfinished', (r) => r === route.request()));
    for (const route of held) await route.continue();
    await page.unroute('**/delta?**');
    await Promise.all(finished);
    await page.waitForTimeout(300);
    expect(await page.$$('[data-testid=pane-delta]')).toHaveLength(0);
    expect(await page.textContent('[data-testid=status]')).toContain('Delta cleared: it needs two or more laps');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when two laps are picked one after the other and the first one\'s answer comes last, then the plot shows the lap picked last, as the Lap picker says', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Ground Speed"]');
    const ticks = () => page.getAttribute('[data-testid="pane-Ground Speed"]', 'data-x-ticks');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-3]'));
    const lap3 = await ticks();
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-1]'));
    expect(await ticks()).not.toBe(lap3);

    const held: Route[] = [];
    let heldTwo: () => void = () => undefined;
    const twoHeld = new Promise<void>((resolve) => (heldTwo = resolve));
    await page.route('**/channels**', (route) => {
      if (held.push(route) === 2) heldTwo();
    });
    await page.click('[data-testid=plot-lap-2]');
    await page.click('[data-testid=plot-lap-3]');
    await twoHeld;
    const [lap2Read, lap3Read] = held as [Route, Route];
    // Lap 3's answer first (drawn), then lap 2's, late: not drawn.
    await andDrawn(page, 'panes', () => lap3Read.continue());
    const late = page.waitForEvent('requestfinished', (r) => r === lap2Read.request());
    await lap2Read.continue();
    await late;
    await page.unroute('**/channels**');
    await page.waitForTimeout(300);
    expect(await ticks()).toBe(lap3);
    expect(await page.inputValue('[data-testid=scope-lap]')).toBe('3');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a math channel is saved that this file cannot list (an input it lacks, no input and no Rate, a logged channel\'s name), then the status says it was saved but this file cannot evaluate it, and why', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Laps run');
    await pickDataset(page, 'Laps run / DataFile (laps.csv)');
    const save = async (name: string, expression: string) => {
      await page.fill('[data-testid=math-name]', name);
      await page.fill('[data-testid=math-expression]', expression);
      await page.click('[data-testid=math-save]');
      await page.waitForFunction((n) => (document.querySelector('[data-testid=status]')?.textContent ?? '').startsWith(`Math channel ${n} saved`), name);
      expect(await page.isHidden('[data-testid=error]')).toBe(true);
      expect(await page.locator(`[data-testid="channel-${name}"]`).count()).toBe(expression.includes('Throttle') ? 1 : 0);
      return page.textContent('[data-testid=status]');
    };
    expect(await save('Twice nope', '"Nope" * 2')).toBe('Math channel Twice nope saved, but this file cannot evaluate it: math channel Twice nope reads Nope, which this file does not have.');
    expect(await save('Lap clock', 'lapTime()')).toMatch(/^Math channel Lap clock saved, but this file cannot evaluate it: math channel Lap clock reads no channel: give it a Rate/);
    expect(await save('Lap', '"Throttle Pos" * 2')).toBe('Math channel Lap saved, but this file cannot evaluate it: a channel of the file is named Lap, and a logged channel wins over a math channel of the same name.');
    // The same expression with a Rate from the form: listed, ticked and plotted; a Rate the service refuses is said.
    await page.fill('[data-testid=math-name]', 'Lap clock 10 Hz');
    await page.fill('[data-testid=math-expression]', 'lapTime()');
    await page.fill('[data-testid=math-rate]', '10');
    await page.click('[data-testid=math-save]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '').startsWith('Math channel Lap clock 10 Hz saved'));
    expect(await page.textContent('[data-testid=status]')).not.toContain('cannot evaluate');
    expect(await page.isChecked('[data-testid="channel-Lap clock 10 Hz"]')).toBe(true);
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    expect(await page.locator('[data-testid="pane-Lap clock 10 Hz"]').count()).toBe(1);
    await page.fill('[data-testid=math-name]', 'Too fast');
    await page.fill('[data-testid=math-rate]', '5000000');
    await page.click('[data-testid=math-save]');
    expect(await shownError(page)).toContain('Rate');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a dataset is opened, then the scatter\'s X and Y are two different channels', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    const x = await page.inputValue('[data-testid=scatter-x]');
    const y = await page.inputValue('[data-testid=scatter-y]');
    expect(x).not.toBe('');
    expect(y).not.toBe('');
    expect(y).not.toBe(x);
    await andDrawn(page, 'scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    expect(await page.textContent('[data-testid=scatter-caption]')).toContain(y);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when decimal places of 2.5 or 9 are typed for a math channel, then the old "saved" status goes and the page says decimal places are a whole number from 0 to 6', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/MathChannels')) writes.push(r.url());
    });
    await pickRun(page, 'Consistency Cup', 'Laps run');
    await pickDataset(page, 'Laps run / DataFile (laps.csv)');
    await page.fill('[data-testid=math-name]', 'Half throttle');
    await page.fill('[data-testid=math-expression]', '"Throttle Pos" / 2');
    await page.fill('[data-testid=math-decimals]', '1');
    await page.click('[data-testid=math-save]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'Math channel Half throttle saved.');

    for (const decimals of ['2.5', '9']) {
      await page.fill('[data-testid=math-name]', `Half throttle ${decimals}`);
      await page.fill('[data-testid=math-decimals]', decimals);
      await page.click('[data-testid=math-save]');
      expect(await shownError(page)).toBe(`The math channel was not saved: decimal places "${decimals}" must be a whole number from 0 to 6 (empty: full precision).`);
      expect(await page.textContent('[data-testid=status]')).toBe('');
      await page.fill('[data-testid=math-decimals]', '');
      await page.evaluate(() => {
        (document.querySelector('[data-testid=error]') as HTMLElement).hidden = true;
      });
    }
    expect(writes).toHaveLength(1);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
  test('when a channel\'s name is 300 characters and its unit 250, then the page is no wider than the window after it is opened and plotted, and the cut texts are whole in their tooltips', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await page.selectOption('[data-testid=pick-run]', { label: 'Long names run' });
    await pickDataset(page, 'Long names run / DataFile (long.csv)');
    await page.check(`[data-testid="channel-${LONG_NAME}"]`);
    await page.check('[data-testid="channel-Short"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    expect(await page.getAttribute(`[data-testid="channel-${LONG_NAME}"] >> xpath=..`, 'title')).toContain(LONG_NAME);
    expect(await page.getAttribute(`[data-testid=scatter-x] option[value="${LONG_NAME}"]`, 'title')).toBe(LONG_NAME);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when the key\'s role in the account is reader, then the math channel form is disabled and says why; an editor\'s is not', async () => {
    const { page } = await openSignedIn(browser, stack, undefined, { role: 'reader' });
    const context = page.context();
    // The form is in the channel panel of an open dataset.
    await pickRun(page, 'Consistency Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.waitForSelector('[data-testid=math-role]', { state: 'visible' });
    expect(await page.textContent('[data-testid=math-role]')).toBe('Your role in this account is reader: math channels are saved by its editors and admins.');
    expect(await page.isDisabled('[data-testid=math-save]')).toBe(true);
    expect(await page.isDisabled('[data-testid=math-expression]')).toBe(true);
    await context.close();

    // The stack's own key is an admin's: the form is offered.
    const { page: editor } = await openSignedIn(browser, stack);
    await pickRun(editor, 'Consistency Cup', 'Run 1');
    await pickDataset(editor, 'Run 1 / DataFile');
    await editor.waitForSelector('[data-testid=math-form]', { state: 'visible' });
    expect(await editor.isHidden('[data-testid=math-role]')).toBe(true);
    expect(await editor.isEnabled('[data-testid=math-save]')).toBe(true);
    await editor.context().close();
  });

  test('when the key is refused (401) after signing in, then the stored key is forgotten, the sign-in is shown with the reason, and a reload does not try the key again', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Consistency Cup', 'Run 1');
    // The key revoked meanwhile: every answer of the service is now its 401.
    await page.route('**/RunSheets/**', (route) => route.fulfill({ status: 401, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'invalid API key' }) }));
    await page.selectOption('[data-testid=pick-dataset]', { index: 1 });
    expect(await shownError(page)).toBe('The API key was not accepted (401): check the key, or ask an administrator for a new one. Sign in again.');
    expect(await page.isVisible('[data-testid=sign-in]')).toBe(true);
    expect(await page.isHidden('#app')).toBe(true);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(stack.apiKey);
    // The sign-in shown empty, not holding the key refused.
    expect(await page.inputValue('[data-testid=api-key]')).toBe('');

    const withKey: string[] = [];
    page.on('request', (r) => {
      if (r.headers()['apikey']) withKey.push(r.url());
    });
    await page.reload();
    await page.waitForSelector('[data-testid=sign-in]');
    expect(await page.isHidden('#app')).toBe(true);
    expect(withKey).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
