import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PitwallClient } from '@pitwall/client';
import { COLOURS } from '../../src/colours';
import { ROOT, type Embedded } from '../support/embedded';
import { countColour, decodePng } from '../support/png';
import { seedRun, seedRunSheet, type SeededRun } from '../support/seed';
import { andDrawn, openSignedIn, pickDataset, shownError } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/** Screenshots of the plots drawn, kept for a person to look at (tmp/ is git-ignored). */
const ARTIFACTS = join(ROOT, 'tmp', 'viewer-artifacts');
/** A line 2 px wide across a pane of ~1200 px leaves thousands of pixels of its colour; a blank pane none. */
const MIN_LINE_PIXELS = 500;
/** A lap not drawn on a pane still has its legend's marker (a short CSS border) of its colour: far fewer pixels. */
const MAX_MARKER_PIXELS = 100;

/** Car 7's own speed correction (a rolling radius measured): a constant math channels read with param("SpeedFactor"). */
const SPEED_FACTOR = 1.02;

/**
 * A race engineer's trial of the viewer with the car's constants (docs/math-channels.md, "Constants of the car"): a math
 * channel computed with a constant one car holds and another lacks, compared across the two cars' laps; the constants
 * a plotted math channel uses shown in the channel list; and Refresh catching up with math channels and constants
 * changed elsewhere (curl, another tab) since the dataset was opened.
 */
describe('the viewer with math channels reading the car\'s constants, in headless Chromium against npm start', () => {
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;
  let car9: string;
  const headers = () => ({ ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' });
  const send = (method: string, path: string, body?: unknown) => fetch(`${stack.baseUrl}${path}`, { method, headers: headers(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parameters = (values: Record<string, string>) => ({ ParameterUpdates: Object.entries(values).map(([Name, Value]) => ({ Name, Value })) });

  /** A math channel of the account, written as curl would (`POST /MathChannels`): its id. */
  async function defineMath(values: Record<string, string>): Promise<string> {
    const r = await send('POST', '/MathChannels', parameters(values));
    expect(r.status).toBe(201);
    return ((await r.json()) as { Id: string }).Id;
  }

  /** One of a car's constants set through the API (`PUT /Cars/{id}`), as another tab would. */
  async function setCar(car: string, values: Record<string, string>): Promise<void> {
    expect((await send('PUT', `/Cars/${car}`, parameters(values))).status).toBeLessThan(300);
  }

  /** The math channels the metadata of Car 7's run lists now, with their constants (as the service answers, not the page). */
  async function catalogueNow(): Promise<{ name: string; parameters?: { name: string; value: number; from: string }[] }[]> {
    const r = await send('GET', `/RunSheets/${run.runSheet}/DataFileAccess/DataFile/metadata`);
    expect(r.status).toBe(200);
    return ((await r.json()) as { channels: { name: string; group?: string; parameters?: { name: string; value: number; from: string }[] }[] }).channels.filter((c) => c.group === 'Math');
  }

  /** Waits until the service's metadata says `ready` (a definition written is the next reads' a moment later). */
  async function untilCatalogue(ready: (math: Awaited<ReturnType<typeof catalogueNow>>) => boolean): Promise<void> {
    for (let i = 0; i < 50 && !ready(await catalogueNow()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(ready(await catalogueNow())).toBe(true);
  }

  useViewerStack('pitwall-viewer-constants-', async (parts) => {
    ({ stack, browser } = parts);
    mkdirSync(ARTIFACTS, { recursive: true });
    run = await seedRun(stack, { championship: 'Constants Cup', runSheet: 'Run 7' });
    // Another car in the same session, with its own outing: it holds no SpeedFactor.
    const client = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
    const added = await client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Car 9' }] });
    car9 = (added.returnValue as { Id: string }).Id;
    expect((await client.addEventCar(run.event, car9, {})).success).toBe(true);
    await seedRunSheet(stack, { session: run.session, car: car9 }, 'Run 9');
    for (const name of ['SpeedFactor', 'P1', 'P2', 'P3', 'P4']) {
      expect((await send('POST', '/ParameterDefinitions', parameters({ Name: name, EntityType: 'Cars', ParameterType: 'Double' }))).status).toBe(201);
    }
    await setCar(run.car, { SpeedFactor: String(SPEED_FACTOR), P1: '1', P2: '2', P3: '3', P4: '4' });
    await defineMath({ Name: 'Speed corrected', Expression: '"Ground Speed" * param("SpeedFactor")', Unit: 'km/h' });
    // A constant channel of five constants (it reads no channel: a Rate).
    await defineMath({ Name: 'Constants sum', Expression: 'param("SpeedFactor") + param("P1") + param("P2") + param("P3") + param("P4")', Rate: '1' });
    await untilCatalogue((math) => math.some((c) => c.name === 'Speed corrected') && math.some((c) => c.name === 'Constants sum'));
  });

  /** Championship → event → session → `car` → `runSheet`, then its DataFile dataset, as a user picks them. */
  async function openRun(page: Page, car: string, runSheet: string): Promise<void> {
    await page.selectOption('[data-testid=pick-championship]', { label: 'Constants Cup' });
    await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
    await page.selectOption('[data-testid=pick-session]', { label: 'Race' });
    await page.selectOption('[data-testid=pick-car]', { label: car });
    await page.selectOption('[data-testid=pick-run]', { label: runSheet });
    await pickDataset(page, `${runSheet} / DataFile`);
  }

  /** How many pixels of each colour the element `selector` shows (its screenshot kept as `file`). */
  async function colours(page: Page, selector: string, file: string, wanted: string[]): Promise<number[]> {
    const png = await page.locator(selector).screenshot();
    writeFileSync(join(ARTIFACTS, file), png);
    const image = decodePng(png);
    return wanted.map((c) => countColour(image, c));
  }

  /** The status line once it starts with `start`. */
  async function statusStartingWith(page: Page, start: string): Promise<string> {
    await page.waitForFunction((text) => document.querySelector('[data-testid=status]')?.textContent?.startsWith(text), start);
    return (await page.textContent('[data-testid=status]')) ?? '';
  }

  /** Car 9's lap 2, then Car 7's lap 3 in the comparison, Car 7's run left open with Ground Speed and Speed corrected ticked. */
  async function compareTheTwoCars(page: Page): Promise<void> {
    await openRun(page, 'Car 9', 'Run 9');
    // Car 9 holds no SpeedFactor: its catalogue does not list the math channel.
    expect(await page.$('[data-testid="channel-Speed corrected"]')).toBeNull();
    await page.click('[data-testid=overlay-add-1]');
    await openRun(page, 'Car 7', 'Run 7');
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Speed corrected"]');
    await page.click('[data-testid=overlay-add-2]');
  }

  test('when laps of a car that lacks a math channel\'s constant are overlaid with one that holds it, then every other channel and the laps that can compute it are drawn, the status names the math channel, the lap and the service\'s reason, and it stays ticked', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await compareTheTwoCars(page);

    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    const status = (await page.textContent('[data-testid=status]')) ?? '';
    expect(status).toMatch(/^2 lap\(s\) overlaid on lap time; could not read "Speed corrected" for Run 9 \/ DataFile lap 2 \([\d:.]+\) \(math channel Speed corrected reads param\("SpeedFactor"\), which none of RunSheets [\w-]+ \("Run 9"\), Cars [\w-]+ \("Car 9"\) holds as a number.*\): kept ticked, Overlay reads them again\.$/);
    expect(await page.$$eval('[data-testid=overlay-panes] .pane', (list) => list.map((p) => (p as HTMLElement).dataset['testid']))).toEqual(['pane-overlay-Ground Speed', 'pane-overlay-Speed corrected']);
    // Ground Speed of both laps (the list's colours: Car 9's lap first); Speed corrected of Car 7's lap only.
    const [speed9, speed7] = await colours(page, '[data-testid="pane-overlay-Ground Speed"]', 'constants-overlay-ground-speed.png', [COLOURS[0], COLOURS[1]]);
    expect(speed9).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(speed7).toBeGreaterThan(MIN_LINE_PIXELS);
    const [corrected9, corrected7] = await colours(page, '[data-testid="pane-overlay-Speed corrected"]', 'constants-overlay-speed-corrected.png', [COLOURS[0], COLOURS[1]]);
    expect(corrected9).toBeLessThan(MAX_MARKER_PIXELS);
    expect(corrected7).toBeGreaterThan(MIN_LINE_PIXELS);
    expect(await page.isChecked('[data-testid="channel-Speed corrected"]')).toBe(true);

    // Over distance: read again the same way.
    await page.selectOption('[data-testid=overlay-axis]', 'distance');
    await andDrawn(page, 'overlay-panes', () => page.click('[data-testid=overlay-plot]'));
    expect(await page.textContent('[data-testid=status]')).toMatch(/^2 lap\(s\) overlaid on distance \(source: integrated Ground Speed\); could not read "Speed corrected" for Run 9 \/ DataFile lap 2 .*: kept ticked, Overlay reads them again\.$/);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when the math channel chosen in "Distance from" cannot be computed for a lap of the comparison (its car lacks the constant), then the delta\'s error says it is the "Distance from" channel, with the service\'s reason', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await compareTheTwoCars(page);
    // Car 7's run offers it (its catalogue lists it, in a speed unit): the delta reads both laps' distances from it.
    await page.selectOption('[data-testid=distance-source]', 'Speed corrected');
    await page.click('[data-testid=delta-plot]');
    const error = await shownError(page);
    expect(error).toMatch(/^The "Distance from" channel cannot be computed for a lap's file \(422\): math channel Speed corrected reads param\("SpeedFactor"\), which none of RunSheets [\w-]+ \("Run 9"\), Cars [\w-]+ \("Car 9"\) holds as a number .*\. Choose another in "Distance from", or Automatic\.$/);
    expect(await page.getAttribute('[data-testid=error]', 'data-status')).toBe('422');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a ticked math channel reads the car\'s constants, then its entry in the channel list says each one\'s value and the entity it is taken from, as text its checkbox is described by, cut to the list\'s width when long', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await openRun(page, 'Car 7', 'Run 7');

    const said = page.locator('[data-testid="channel-params-Speed corrected"]');
    expect(await said.textContent()).toBe(`param SpeedFactor = ${SPEED_FACTOR} (Cars Car 7)`);
    expect(await said.isVisible()).toBe(true);
    // A screen reader reads it with the checkbox (its description), the checkbox's name staying the channel's.
    const box = page.locator('[data-testid="channel-Speed corrected"]');
    expect(await box.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(`param SpeedFactor = ${SPEED_FACTOR} (Cars Car 7)`);
    expect(await page.$eval('[data-testid="channel-Speed corrected"]', (b) => (b as HTMLInputElement).labels?.[0]?.textContent?.trim())).toBe('Speed corrected');
    // A logged channel reads no constant: no such line.
    expect(await page.$('[data-testid="channel-params-Ground Speed"]')).toBeNull();

    // Five constants: three said, the others counted, all of them in the tooltip; the line no wider than the list.
    const many = page.locator('[data-testid="channel-params-Constants sum"]');
    expect(await many.textContent()).toBe('param SpeedFactor = 1.02 (Cars Car 7); param P1 = 1 (Cars Car 7); param P2 = 2 (Cars Car 7); and 2 more');
    expect(await many.getAttribute('title')).toBe('param SpeedFactor = 1.02 (Cars Car 7); param P1 = 1 (Cars Car 7); param P2 = 2 (Cars Car 7); param P3 = 3 (Cars Car 7); param P4 = 4 (Cars Car 7)');
    await page.locator('[data-testid="math-group"]').screenshot({ path: join(ARTIFACTS, 'constants-channel-list.png') });
    const fit = await many.evaluate((e) => ({ right: e.getBoundingClientRect().right, list: (document.querySelector('[data-testid=channels]') as HTMLElement).getBoundingClientRect().right, cut: e.scrollWidth > e.clientWidth, overflow: getComputedStyle(e).textOverflow }));
    expect(fit.right).toBeLessThanOrEqual(fit.list);
    expect(fit).toMatchObject({ cut: true, overflow: 'ellipsis' });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when math channels are created and deleted and a car\'s constant changed elsewhere after the dataset was opened, then Refresh lists the catalogue as it is now, says what changed, keeps the ticked channels that remain and lists the account\'s math channels again', async () => {
    const gone = await defineMath({ Name: 'Speed old', Expression: '"Ground Speed" * 3', Unit: 'km/h' });
    await untilCatalogue((math) => math.some((c) => c.name === 'Speed old'));
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await openRun(page, 'Car 7', 'Run 7');
    for (const name of ['Ground Speed', 'Speed corrected', 'Speed old']) await page.check(`[data-testid="channel-${name}"]`);

    // Elsewhere (curl, another tab): a math channel created, the ticked one deleted, the car's constant changed.
    await defineMath({ Name: 'Speed doubled', Expression: '"Ground Speed" * 2', Unit: 'km/h' });
    expect((await send('DELETE', `/MathChannels/${gone}`)).status).toBe(204);
    await setCar(run.car, { SpeedFactor: '1.05' });
    await untilCatalogue((math) => math.some((c) => c.name === 'Speed doubled') && !math.some((c) => c.name === 'Speed old') && math.some((c) => c.parameters?.[0]?.value === 1.05));
    // The page still shows the catalogue it opened.
    expect(await page.$('[data-testid="channel-Speed doubled"]')).toBeNull();

    await page.click('[data-testid=refresh-datasets]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.includes('read again'));
    expect(await page.$('[data-testid="channel-Speed old"]')).toBeNull();
    expect(await page.textContent('[data-testid=status]')).toBe('1 dataset(s) listed; the open dataset\'s channels read again: added "Speed doubled"; gone "Speed old" ("Speed old" unticked); changed "Constants sum", "Speed corrected" (definition or constants).');
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid="channel-params-Speed corrected"]')).toBe('param SpeedFactor = 1.05 (Cars Car 7)');
    expect(await page.$$eval('[data-testid=channels] input:checked', (boxes) => boxes.map((b) => (b as HTMLElement).dataset['testid']))).toEqual(['channel-Ground Speed', 'channel-Speed corrected']);
    // The account's math channels under the form, listed again too; the dataset still open and picked.
    await page.waitForSelector('[data-testid="math-item-Speed doubled"]', { state: 'attached' });
    expect(await page.$('[data-testid="math-item-Speed old"]')).toBeNull();
    expect(await page.textContent('[data-testid=file-properties] tr')).toMatch(/^datasetRun 7 \/ DataFile/);

    // The ticked channels plot as before, the new one ticked and plotted with them.
    await page.check('[data-testid="channel-Speed doubled"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    expect(await page.$$eval('[data-testid=panes] .pane', (list) => list.map((p) => (p as HTMLElement).dataset['testid']))).toEqual(['pane-Ground Speed', 'pane-Speed corrected', 'pane-Speed doubled']);

    // Nothing changed since: Refresh says so.
    await page.click('[data-testid=refresh-datasets]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.includes('read again'));
    expect(await page.textContent('[data-testid=status]')).toBe('1 dataset(s) listed; the open dataset\'s channels read again: no change.');
    expect(pageErrors).toEqual([]);
    await setCar(run.car, { SpeedFactor: String(SPEED_FACTOR) });
    await page.context().close();
  });

  test('when a ticked math channel is refused on its own (its definition now reads a constant the car lacks), then the lap statistics show the other channels and its reason, a scatter and a track map coloured by it are drawn without colour saying why, and a scatter or histogram of it says the channel and the reason', async () => {
    const id = await defineMath({ Name: 'Speed unreadable', Expression: '"Ground Speed" * param("SpeedFactor")', Unit: 'km/h' });
    await untilCatalogue((math) => math.some((c) => c.name === 'Speed unreadable'));
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await openRun(page, 'Car 7', 'Run 7');
    // Changed behind the page's back to read a constant no entity holds: the catalogue open still lists it.
    expect((await send('PUT', `/MathChannels/${id}`, parameters({ Expression: '"Ground Speed" * param("Missing")' }))).status).toBeLessThan(300);
    await untilCatalogue((math) => !math.some((c) => c.name === 'Speed unreadable'));
    const reason = 'math channel Speed unreadable reads param\\("Missing"\\), which none of RunSheets [\\w-]+ \\("Run 7"\\), Cars [\\w-]+ \\("Car 7"\\)';
    await page.check('[data-testid="channel-Ground Speed"]');
    await page.check('[data-testid="channel-Speed unreadable"]');

    // Lap statistics: Ground Speed's figures and threshold; the math channel and its threshold left out, said.
    await page.fill('[data-testid=lapstats-thresholds]', 'Ground Speed=150; Speed unreadable=100');
    await page.click('[data-testid=lapstats-run]');
    await page.waitForSelector('[data-testid=lapstats-lap-5]');
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    const header = await page.locator('[data-testid=lapstats-table] th').allTextContents();
    expect(header.filter((h) => h.includes('Speed'))).toEqual(['Ground Speed min', 'Ground Speed max', 'Ground Speed mean', 'Ground Speed sd', 'Ground Speed > 150 (s)', 'Ground Speed < 150 (s)']);
    expect(await page.textContent('[data-testid=status]')).toMatch(new RegExp(`^Lap statistics of 6 lap\\(s\\), 1 channel\\(s\\); could not read "Speed unreadable" \\(${reason}.*; its threshold left out\\): kept ticked, Lap statistics reads them again\\.$`));
    expect(await page.isChecked('[data-testid="channel-Speed unreadable"]')).toBe(true);

    // A scatter coloured by it: drawn in the plot colour, without a colour scale, the caption and the status saying why.
    await page.selectOption('[data-testid=scatter-x]', 'Ground Speed');
    await page.selectOption('[data-testid=scatter-y]', 'Throttle Pos');
    await page.selectOption('[data-testid=scatter-colour]', 'Speed unreadable');
    await page.selectOption('[data-testid=analysis-lap]', '1');
    await andDrawn(page, 'scatter-canvas', () => page.click('[data-testid=scatter-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid=status]')).toMatch(new RegExp(`^Scatter: \\d+ points; not coloured by "Speed unreadable": the service could not read it \\(${reason}.*\\)\\.$`));
    expect(await page.textContent('[data-testid=scatter-caption]')).toMatch(/^Throttle Pos against Ground Speed: \d+ points, on .*\. Not coloured by "Speed unreadable": the service could not read it \(math channel Speed unreadable reads param\("Missing"\).*\)\.$/);
    expect(await page.isHidden('[data-testid=scatter-colour-bar]')).toBe(true);
    const [points] = await colours(page, '[data-testid=scatter-canvas]', 'constants-scatter-uncoloured.png', [COLOURS[0]]);
    expect(points).toBeGreaterThan(MIN_LINE_PIXELS);

    // The track map coloured by it: the lap drawn, said the same way.
    await page.selectOption('[data-testid=trackmap-colour]', 'Speed unreadable');
    await andDrawn(page, 'trackmap-canvas', () => page.click('[data-testid=trackmap-plot]'));
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid=status]')).toMatch(new RegExp(`^Track map of lap 3; not coloured by "Speed unreadable": the service could not read it \\(${reason}.*\\)\\.$`));
    expect(await page.textContent('[data-testid=trackmap-caption]')).toMatch(/^Lap 3 from .*; not coloured by "Speed unreadable": the service could not read it \(math channel Speed unreadable .*\)\.$/);
    expect(await page.isHidden('[data-testid=trackmap-colour-bar]')).toBe(true);
    const [path] = await colours(page, '[data-testid=trackmap-canvas]', 'constants-trackmap-uncoloured.png', [COLOURS[0]]);
    expect(path).toBeGreaterThan(MIN_LINE_PIXELS);

    // As a scatter's Y, or a histogram's channel, nothing can be drawn: said as the plot's, by the channel and the reason.
    await page.selectOption('[data-testid=scatter-colour]', '');
    await page.selectOption('[data-testid=scatter-y]', 'Speed unreadable');
    await page.click('[data-testid=scatter-plot]');
    expect(await shownError(page)).toMatch(new RegExp(`^The scatter was not drawn: the service could not read its Y channel "Speed unreadable" \\(422: ${reason}.*\\)\\.$`));
    expect(await page.getAttribute('[data-testid=error]', 'data-status')).toBe('422');
    await page.selectOption('[data-testid=histogram-channel]', 'Speed unreadable');
    await page.click('[data-testid=histogram-plot]');
    await page.waitForFunction(() => document.querySelector('[data-testid=error]')?.textContent?.startsWith('The histogram'));
    expect(await shownError(page)).toMatch(new RegExp(`^The histogram was not drawn: the service could not read its channel "Speed unreadable" \\(422: ${reason}.*\\)\\.$`));
    expect(pageErrors).toEqual([]);
    expect((await send('DELETE', `/MathChannels/${id}`)).status).toBe(204);
    await page.context().close();
  });

  test('when an editor sets a constant a math channel reads from the viewer, then the car holds the new value, the channel list and the time plots show the channel computed with it; text that is no number is not sent, and a reader\'s refusal (403) is said in the status line', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await openRun(page, 'Car 7', 'Run 7');
    expect(await page.isVisible('[data-testid=constants]')).toBe(true);
    const field = page.locator('[data-testid="constant-value-SpeedFactor"]');
    expect(await field.inputValue()).toBe(String(SPEED_FACTOR));
    expect(await page.locator('[data-testid=constants-list] label', { hasText: 'SpeedFactor' }).textContent()).toBe('param SpeedFactor (Cars Car 7)');
    expect(await page.getAttribute('[data-testid="constant-set-SpeedFactor"]', 'aria-label')).toBe('Set SpeedFactor of Cars Car 7');
    await page.check('[data-testid="channel-Speed corrected"]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot-lap-2]'));
    const top = async () => Number(((await page.getAttribute('[data-testid="pane-Speed corrected"]', 'data-y-ticks')) ?? '').split(' ').at(-1));
    const before = await top();

    // Twice the speed: set from the page (Enter in its field), the plot drawn again with it.
    await field.fill('2');
    await andDrawn(page, 'panes', () => field.press('Enter'));
    expect(await statusStartingWith(page, 'Constant SpeedFactor')).toBe('Constant SpeedFactor of Cars Car 7 set to 2; the open dataset\'s channels read again: changed "Constants sum", "Speed corrected" (definition or constants); the time plots drawn again with it.');
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid="channel-params-Speed corrected"]')).toBe('param SpeedFactor = 2 (Cars Car 7)');
    expect(await top()).toBeGreaterThan(1.5 * before);
    const car = await send('GET', `/Cars/${run.car}?parametersToInclude=SpeedFactor`);
    expect(((await car.json()) as { Parameters: { SpeedFactor: number } }).Parameters.SpeedFactor).toBe(2);

    // Text that is no number: said, nothing sent.
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await page.locator('[data-testid="constant-value-SpeedFactor"]').fill('fast');
    await page.click('[data-testid="constant-set-SpeedFactor"]');
    expect(await shownError(page)).toBe('The constant SpeedFactor was not set: "fast" is not a number.');
    expect(puts).toEqual([]);

    // A reader (the service's 403, answered here as it answers a reader's PUT): said in the status line, nothing changed.
    await page.route(`**/Cars/${run.car}`, (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 403, contentType: 'application/problem+json', json: { title: 'Forbidden', status: 403, detail: 'The role reader may not update Cars' } }) : route.continue()));
    await page.locator('[data-testid="constant-value-SpeedFactor"]').fill('3');
    await page.click('[data-testid="constant-set-SpeedFactor"]');
    expect(await statusStartingWith(page, 'The constant SpeedFactor')).toBe('The constant SpeedFactor of Cars Car 7 was not set (403): your role in this account may not change Cars Car 7; constants are set by its editors and admins (The role reader may not update Cars).');
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await page.textContent('[data-testid="channel-params-Speed corrected"]')).toBe('param SpeedFactor = 2 (Cars Car 7)');
    expect(pageErrors).toEqual([]);
    await page.context().close();
    await setCar(run.car, { SpeedFactor: String(SPEED_FACTOR) });
  });
});
