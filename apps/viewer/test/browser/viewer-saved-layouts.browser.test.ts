import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request, Route } from 'playwright-core';
import type { Embedded } from '../support/embedded';
import { seedRun, seedRunSheet, type SeededRun } from '../support/seed';
import { andDrawn, openSignedIn, pickDataset, pickRun, shownError, tickChannels } from '../support/viewer-page';
import { useViewerStack } from '../support/viewer-stack';

/**
 * Saved layouts (ViewerLayouts): the channels, panes and scales set up once on one outing and applied to another, as
 * MoTeC i2's workbooks and ATLAS's displays are; saved for the account through the API, so a colleague's page lists
 * them at sign-in.
 */
const LAYOUT_CHANNELS = ['Throttle Pos', 'Brake Pres Front', 'Ground Speed', 'Brake Pres Rear'];
/** The channels of a wide logger: Ch 01 to Ch 70. */
const WIDE_CHANNELS = Array.from({ length: 70 }, (_, i) => `Ch ${String(i + 1).padStart(2, '0')}`);

describe('the viewer\'s saved layouts, in headless Chromium against npm start', () => {
  let stack: Embedded;
  let browser: Browser;
  let run: SeededRun;

  useViewerStack('pitwall-viewer-saved-layouts-', async (parts) => {
    ({ stack, browser } = parts);
    run = await seedRun(stack, { championship: 'Layouts Cup', runSheet: 'Run 1' });
    // Another car's outing: a minute at 10 Hz with three of the layout's channels (no rear brake pressure sensor).
    const other = join(parts.dataDir, 'other-car.csv');
    const rows = Array.from({ length: 600 }, (_, i) => `${(i / 10).toFixed(1)},${(50 + 40 * Math.sin(i / 20)).toFixed(2)},${(20 + 20 * Math.cos(i / 15)).toFixed(2)},${(150 + 80 * Math.sin(i / 30)).toFixed(2)}`);
    writeFileSync(other, `Time,Throttle Pos [%],Brake Pres Front [kPa],Ground Speed [km/h]\n${rows.join('\n')}\n`);
    await seedRunSheet(stack, run, 'Other car run', other);
    // A logger of more channels than a layout holds (64): 70, ten seconds at 10 Hz.
    const wide = join(parts.dataDir, 'wide.csv');
    const header = ['Time', ...WIDE_CHANNELS.map((c) => `${c} [V]`)].join(',');
    const lines = Array.from({ length: 100 }, (_, i) => [(i / 10).toFixed(1), ...WIDE_CHANNELS.map((_c, j) => (j + Math.sin(i / 10)).toFixed(3))].join(','));
    writeFileSync(wide, `${header}\n${lines.join('\n')}\n`);
    await seedRunSheet(stack, run, 'Wide run', wide);
  });

  /** The account's layouts as the API lists them. */
  async function savedLayouts(): Promise<{ Id: string; Parameters: { Name: string; Layout: string; Description: string | null } }[]> {
    const response = await fetch(`${stack.baseUrl}/ViewerLayouts?parametersToInclude=Name,Layout,Description`, { headers: { ApiKey: stack.apiKey, AccountId: stack.accountId } });
    expect(response.status).toBe(200);
    return response.json();
  }

  /** The channels ticked in the catalogue, in its order. */
  const tickedChannels = (page: Page) => page.$$eval('[data-testid=channels] input[type=checkbox]:checked', (boxes) => boxes.map((b) => (b as HTMLElement).dataset['testid']?.replace(/^channel-/, '')));
  /** The time panes drawn, top to bottom, with their titles. */
  const panes = (page: Page) => page.$$eval('[data-testid=panes] .pane', (list) => list.map((p) => (p as HTMLElement).dataset['testid']));
  const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']);

  /** Opens the Save as… form with the keyboard and submits `name` with Enter. */
  async function saveAs(page: Page, name: string, description = ''): Promise<void> {
    await page.focus('[data-testid=layout-save-as]');
    await page.keyboard.press('Enter');
    expect(await page.isVisible('[data-testid=layout-form]')).toBe(true);
    expect(await focused(page)).toBe('layout-name');
    await page.keyboard.type(name);
    if (description) await page.fill('[data-testid=layout-description]', description);
    await page.focus('[data-testid=layout-name]');
    await page.keyboard.press('Enter');
  }

  test('when a layout is saved on one outing and applied to another car\'s, then the same channels are ticked in its order and plotted in its panes and scales, the one the outing lacks is said, and a name taken is refused with the service\'s reason', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    expect(await page.textContent('[data-testid=layout-pick]')).toBe('none saved yet');
    for (const name of LAYOUT_CHANNELS) await page.check(`[data-testid="channel-${name}"]`);
    await page.check('[data-testid=panes-by-unit]');
    await andDrawn(page, 'panes', () => page.click('[data-testid=plot]'));
    // The speed pane's y scale set by hand: 0 to 400 km/h.
    const speedPane = '[data-testid="pane-unit:km/h"]';
    await page.click(`${speedPane} [data-testid=y-scale]`);
    await page.fill(`${speedPane} [data-testid=y-min]`, '0');
    await page.fill(`${speedPane} [data-testid=y-max]`, '400');
    await andDrawn(page, 'panes', () => page.click(`${speedPane} [data-testid=y-set]`));
    expect(await panes(page)).toEqual(['pane-unit:%', 'pane-unit:kPa', 'pane-unit:km/h']);

    await saveAs(page, 'Qualifying view', 'Pedals and speed, one pane a unit');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('Layout Qualifying view saved'));
    expect(await page.textContent('[data-testid=status]')).toBe('Layout Qualifying view saved for the account: 4 channels, one pane per unit, 1 y scale set by hand.');
    expect(await page.isHidden('[data-testid=layout-form]')).toBe(true);
    // The new layout picked, the focus on the picker (the form that had it is hidden).
    expect(await page.$eval('[data-testid=layout-pick]', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Qualifying view');
    expect(await focused(page)).toBe('layout-pick');
    expect(await page.getAttribute('[data-testid=layout-apply]', 'aria-label')).toBe('Apply layout Qualifying view');
    // Saved through the API: the view part of the page's link, with its version.
    expect((await savedLayouts()).map((l) => l.Parameters)).toEqual([
      { Name: 'Qualifying view', Layout: 'v=1&ch=Throttle%20Pos&ch=Brake%20Pres%20Front&ch=Ground%20Speed&ch=Brake%20Pres%20Rear&panes=unit&y=0%2C400%2Cunit%3Akm%2Fh', Description: 'Pedals and speed, one pane a unit' },
    ]);

    // A name taken, whatever its case: the service's 400 said, nothing saved; Escape leaves the form for Save as….
    await saveAs(page, 'QUALIFYING VIEW');
    expect(await shownError(page)).toBe('The layout was not saved (400: The viewer layout is not valid; Name: another layout is named Qualifying view).');
    expect(await page.getAttribute('[data-testid=error]', 'data-status')).toBe('400');
    expect(await savedLayouts()).toHaveLength(1);
    await page.keyboard.press('Escape');
    expect(await page.isHidden('[data-testid=layout-form]')).toBe(true);
    expect(await focused(page)).toBe('layout-save-as');

    // A colleague's page, signed in afresh: the layout listed; another car's outing opened, nothing ticked.
    const { page: other, pageErrors: otherErrors } = await openSignedIn(browser, stack);
    await pickRun(other, 'Layouts Cup', 'Other car run');
    await pickDataset(other, 'Other car run / DataFile (other-car.csv)');
    expect(await tickedChannels(other)).toEqual([]);
    expect(await other.isDisabled('[data-testid=layout-apply]')).toBe(true);
    expect(await other.$$eval('[data-testid=layout-pick] option', (options) => options.map((o) => o.textContent))).toEqual(['choose…', 'Qualifying view']);
    await other.selectOption('[data-testid=layout-pick]', { label: 'Qualifying view' });
    // Apply with the keyboard.
    await other.focus('[data-testid=layout-apply]');
    await andDrawn(other, 'panes', () => other.keyboard.press('Enter'));
    await other.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('Layout Qualifying view applied'));
    expect(await other.textContent('[data-testid=status]')).toBe('Layout Qualifying view applied: 3 channels ticked; this dataset lacks "Brake Pres Rear".');
    expect(await other.isHidden('[data-testid=error]')).toBe(true);
    // The layout's channels this outing has, in the layout's order (the page's link lists them in it), in its panes and scales.
    expect((await tickedChannels(other))?.sort()).toEqual(['Brake Pres Front', 'Ground Speed', 'Throttle Pos']);
    expect(new URL(other.url()).hash).toContain('ch=Throttle%20Pos&ch=Brake%20Pres%20Front&ch=Ground%20Speed&panes=unit&y=0%2C400%2Cunit%3Akm%2Fh');
    expect(await other.isChecked('[data-testid=panes-by-unit]')).toBe(true);
    expect(await panes(other)).toEqual(['pane-unit:%', 'pane-unit:kPa', 'pane-unit:km/h']);
    expect(await other.textContent('[data-testid="pane-unit:kPa"] .u-legend')).toContain('Brake Pres Front');
    expect(await other.textContent('[data-testid="pane-unit:kPa"] .u-legend')).not.toContain('Brake Pres Rear');
    expect(await other.textContent(`${speedPane} [data-testid=y-scale]`)).toBe('y: fixed');
    const ticks = ((await other.getAttribute(speedPane, 'data-y-ticks')) ?? '').split(' ');
    expect([ticks[0], ticks.at(-1)]).toEqual(['0', '400']);

    expect(pageErrors).toEqual([]);
    expect(otherErrors).toEqual([]);
    await other.context().close();
    await page.context().close();
  });

  /** Saves a layout through the API (as a colleague's script might), its id. */
  async function saveThroughApi(name: string, layout: string): Promise<string> {
    const response = await fetch(`${stack.baseUrl}/ViewerLayouts`, {
      method: 'POST',
      headers: { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Layout', Value: layout }] }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { Id: string }).Id;
  }

  test('when a layout holds parts the page does not know or of another version, then the rest is applied and what was left out said; Update overwrites the chosen one and Delete asks first', async () => {
    await saveThroughApi('Hand written', 'v=1&ch=Ground%20Speed&lap=3&colour=red&axis=lap');
    await saveThroughApi('From the future', 'v=1&ch=Throttle%20Pos');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');

    await page.selectOption('[data-testid=layout-pick]', { label: 'Hand written' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('Layout Hand written applied'));
    expect(await page.textContent('[data-testid=status]')).toBe('Layout Hand written applied: 1 channel ticked; "lap" is part of a link, not of a layout; "colour" is not part of a layout; its lap time axis applies when a lap is plotted: the whole file is plotted on file time.');
    expect(await tickedChannels(page)).toEqual(['Ground Speed']);
    expect(await page.inputValue('[data-testid=time-axis]')).toBe('lap');

    // A layout of a version this page does not read (written by a newer page, since refused by the service): nothing
    // of it applied, said; the view on screen stays.
    await page.route('**/ViewerLayouts/*', async (route) => {
      const answer = await route.fetch();
      const entity = (await answer.json()) as { Parameters: Record<string, unknown> };
      await route.fulfill({ response: answer, json: { ...entity, Parameters: { ...entity.Parameters, Layout: 'v=2&ch=Throttle%20Pos' } } });
    });
    await page.selectOption('[data-testid=layout-pick]', { label: 'From the future' });
    await page.click('[data-testid=layout-apply]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('Layout From the future'));
    expect(await page.textContent('[data-testid=status]')).toBe('Layout From the future was not applied: it is of version 2, and this page reads layouts of version 1.');
    expect(await tickedChannels(page)).toEqual(['Ground Speed']);
    await page.unroute('**/ViewerLayouts/*');

    // Update: the chosen layout overwritten with the view on screen, its name kept.
    await page.selectOption('[data-testid=layout-pick]', { label: 'Hand written' });
    await page.check('[data-testid="channel-Gear"]');
    await page.click('[data-testid=layout-update]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.startsWith('Layout Hand written updated'));
    expect(await page.textContent('[data-testid=status]')).toBe('Layout Hand written updated: 2 channels, lap time axis.');
    expect((await savedLayouts()).find((l) => l.Parameters.Name === 'Hand written')?.Parameters.Layout).toBe('v=1&ch=Ground%20Speed&ch=Gear&axis=lap');

    // Delete asks first: dismissed, it stays; accepted, it is gone from the account and the picker.
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.click('[data-testid=layout-delete]');
    expect(asked).toEqual(['Delete the layout Hand written for the whole account? No one will be able to apply it again.']);
    expect((await savedLayouts()).map((l) => l.Parameters.Name)).toContain('Hand written');
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-testid=layout-delete]');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'Layout Hand written deleted.');
    expect((await savedLayouts()).map((l) => l.Parameters.Name)).not.toContain('Hand written');
    expect(await page.$$eval('[data-testid=layout-pick] option', (options) => options.map((o) => o.textContent))).not.toContain('Hand written');
    expect(await page.inputValue('[data-testid=layout-pick]')).toBe('');
    expect(await page.isDisabled('[data-testid=layout-delete]')).toBe(true);
    expect(await focused(page)).toBe('layout-pick');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  /** Answers the reads of the layout `id` with `layout` for its Layout (as the service held it before it refused such ones, or a writer that bypassed it). */
  async function answerLayoutAs(page: Page, id: string, layout: string): Promise<void> {
    await page.route(`**/ViewerLayouts/${id}?*`, async (route) => {
      const answer = await route.fetch();
      const entity = (await answer.json()) as { Parameters: Record<string, unknown> };
      await route.fulfill({ response: answer, json: { ...entity, Parameters: { ...entity.Parameters, Layout: layout } } });
    });
  }

  /** The status line once it starts with `start`. */
  async function statusStartingWith(page: Page, start: string): Promise<string> {
    await page.waitForFunction((text) => document.querySelector('[data-testid=status]')?.textContent?.startsWith(text), start);
    return (await page.textContent('[data-testid=status]')) ?? '';
  }

  test('when a layout, a link or the y scale form sets a y range too narrow for its size (1e16 to 1e16 + 4), then it is left out saying why, and the page does not freeze or fail', async () => {
    const id = await saveThroughApi('Narrow scale', 'v=1&ch=Ground%20Speed');
    const narrow = 'y=10000000000000000%2C10000000000000004%2CGround%20Speed';
    const said = 'the y scale of "Ground Speed" is too narrow for its size to be plotted (the max must exceed the min by more than 1e-12 of their size): auto-scaled';
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await answerLayoutAs(page, id, `v=1&ch=Ground%20Speed&${narrow}`);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    const speedPane = '[data-testid="pane-Ground Speed"]';

    // A layout: applied without the scale, said.
    await page.selectOption('[data-testid=layout-pick]', { label: 'Narrow scale' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Narrow scale applied')).toBe(`Layout Narrow scale applied: 1 channel ticked; ${said}.`);
    expect(await page.textContent(`${speedPane} [data-testid=y-scale]`)).toBe('y: auto');

    // A link: the same.
    const link = new URL(page.url()).hash;
    await page.evaluate((hash) => (location.hash = hash), `${link}&${narrow}`);
    expect(await statusStartingWith(page, 'The link was opened in part')).toBe(`The link was opened in part: ${said}.`);
    expect(await page.textContent(`${speedPane} [data-testid=y-scale]`)).toBe('y: auto');

    // The pane's form: refused in it, saying why.
    await page.click(`${speedPane} [data-testid=y-scale]`);
    await page.fill(`${speedPane} [data-testid=y-min]`, '10000000000000000');
    await page.fill(`${speedPane} [data-testid=y-max]`, '10000000000000004');
    await page.click(`${speedPane} [data-testid=y-set]`);
    expect(await page.textContent(`${speedPane} [data-testid=y-scale-problem]`)).toBe(
      'The range is too narrow for numbers this large: the max must exceed the min by more than a millionth of a millionth (1e-12) of their size, or the axis has no value to put a tick at.',
    );
    expect(await page.textContent(`${speedPane} [data-testid=y-scale]`)).toBe('y: auto');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a layout or a link holds thousands of parts the page does not know, then the status line says the first few and how many more, not each', async () => {
    // 32 KiB of pairs no viewer writes (the service takes them: what they say is the viewer's to read).
    let unknown = 'v=1&ch=Ground%20Speed';
    let count = 0;
    while (unknown.length + `&u${count}=1`.length <= 32 * 1024) unknown += `&u${count++}=1`;
    await saveThroughApi('Unknown parts', unknown);
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Unknown parts' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    const first = '"u0" is not part of a layout; "u1" is not part of a layout; "u2" is not part of a layout; "u3" is not part of a layout; "u4" is not part of a layout';
    expect(await statusStartingWith(page, 'Layout Unknown parts applied')).toBe(`Layout Unknown parts applied: 1 channel ticked; ${first}; and ${count - 5} more.`);
    // The message bar stays a line or two: the controls under it are not buried.
    expect(await page.$eval('[data-testid=status]', (e) => (e as HTMLElement).offsetHeight)).toBeLessThan(100);

    // A link: the same words.
    const link = new URL(page.url()).hash;
    const parts = Array.from({ length: 3000 }, (_, i) => `u${i}=1`).join('&');
    await page.evaluate((hash) => (location.hash = hash), `${link}&${parts}`);
    expect(await statusStartingWith(page, 'The link was opened in part')).toBe(
      'The link was opened in part: "u0" is not part of a viewer link; "u1" is not part of a viewer link; "u2" is not part of a viewer link; "u3" is not part of a viewer link; "u4" is not part of a viewer link; and 2995 more.',
    );
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when more channels are ticked than a layout holds (64), then Save as and Update say what was saved and name what was left out', async () => {
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Wide run');
    await pickDataset(page, 'Wide run / DataFile');
    await tickChannels(page, { named: WIDE_CHANNELS.slice(0, 66) });
    const leftOut = (n: number, names: string) => `left out, past what a layout holds (64 channels, 32,768 characters): ${n} channels (${names})`;
    await saveAs(page, 'Every channel');
    expect(await statusStartingWith(page, 'Layout Every channel saved')).toBe(`Layout Every channel saved for the account: 64 channels; ${leftOut(2, '"Ch 65", "Ch 66"')}.`);
    const saved = (await savedLayouts()).find((l) => l.Parameters.Name === 'Every channel')?.Parameters.Layout ?? '';
    expect(new URLSearchParams(saved).getAll('ch')).toEqual(WIDE_CHANNELS.slice(0, 64));

    await tickChannels(page, { named: WIDE_CHANNELS.slice(66) });
    await page.click('[data-testid=layout-update]');
    expect(await statusStartingWith(page, 'Layout Every channel updated')).toBe(`Layout Every channel updated: 64 channels; ${leftOut(6, '"Ch 65", "Ch 66", "Ch 67", "Ch 68", "Ch 69" and 1 more')}.`);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when the page signs in, then it lists the layouts\' names and descriptions, not their Layouts (Apply reads the one picked whole)', async () => {
    await saveThroughApi('Listed lightly', `v=1&ch=Ground%20Speed&${Array.from({ length: 500 }, (_, i) => `u${i}=1`).join('&')}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${stack.baseUrl}/viewer`);
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/ViewerLayouts' && r.request().method() === 'GET');
    await page.fill('[data-testid=api-key]', stack.apiKey);
    await page.fill('[data-testid=account-id]', stack.accountId);
    await page.click('[data-testid=connect]');
    const layouts = (await (await listed).json()) as { Parameters: Record<string, unknown> }[];
    expect(layouts.length).toBeGreaterThan(0);
    for (const layout of layouts) expect(Object.keys(layout.Parameters).sort()).toEqual(['Description', 'Name']);

    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Listed lightly' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Listed lightly applied')).toContain('Layout Listed lightly applied: 1 channel ticked; "u0" is not part of a layout;');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  test('when a layout picked is updated or deleted after someone else deleted it, then the page says so and lists the layouts again without it', async () => {
    const updated = await saveThroughApi('Gone before update', 'v=1&ch=Ground%20Speed');
    const deleted = await saveThroughApi('Gone before delete', 'v=1&ch=Ground%20Speed');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.check('[data-testid="channel-Gear"]');
    const listed = () => page.$$eval('[data-testid=layout-pick] option', (options) => options.map((o) => o.textContent));
    const deleteThroughApi = async (id: string) => expect((await fetch(`${stack.baseUrl}/ViewerLayouts/${id}`, { method: 'DELETE', headers: { ApiKey: stack.apiKey, AccountId: stack.accountId } })).status).toBe(204);

    await page.selectOption('[data-testid=layout-pick]', { label: 'Gone before update' });
    await deleteThroughApi(updated);
    await page.click('[data-testid=layout-update]');
    expect(await shownError(page)).toBe('The layout was not updated (404): it is no longer saved in this account (deleted since the list was read); the list is read again.');
    expect(await listed()).not.toContain('Gone before update');
    expect(await listed()).toContain('Gone before delete');
    expect(await page.inputValue('[data-testid=layout-pick]')).toBe('');

    await page.selectOption('[data-testid=layout-pick]', { label: 'Gone before delete' });
    await deleteThroughApi(deleted);
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-testid=layout-delete]');
    expect(await statusStartingWith(page, 'Layout Gone before delete')).toBe('Layout Gone before delete was already deleted from the account (since the list was read); the list is read again.');
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
    expect(await listed()).not.toContain('Gone before delete');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when another dataset is opened while a layout is read for Apply, then it is not applied to it, and that is said', async () => {
    const id = await saveThroughApi('Slow to read', 'v=1&ch=Ground%20Speed&ch=Throttle%20Pos');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    // The layout's read held until the other dataset is open.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    await page.route(`**/ViewerLayouts/${id}?*`, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.selectOption('[data-testid=layout-pick]', { label: 'Slow to read' });
    await page.click('[data-testid=layout-apply]');
    await arrived;
    await page.selectOption('[data-testid=pick-run]', { label: 'Other car run' });
    await pickDataset(page, 'Other car run / DataFile (other-car.csv)');
    release();
    expect(await statusStartingWith(page, 'Layout Slow to read')).toBe('Layout Slow to read was not applied: another dataset was opened (or the one open closed) while it was read; apply it again.');
    expect(await tickedChannels(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when the service refuses the key and the page signs in again, then the old list is not shown, and a list answered for the old key after the new one is dropped', async () => {
    await saveThroughApi('Listed at sign-in', 'v=1&ch=Ground%20Speed');
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const listed = () => page.$$eval('[data-testid=layout-pick] option', (options) => options.map((o) => o.textContent));
    const signIn = async () => {
      await page.fill('[data-testid=api-key]', stack.apiKey);
      await page.fill('[data-testid=account-id]', stack.accountId);
      await page.click('[data-testid=connect]');
    };
    /** The key refused (a 401 of the service, answered here for the next events read): the sign-in shown again. */
    const refuseKey = async () => {
      await page.route('**/Events?*', (route) => route.fulfill({ status: 401, contentType: 'application/problem+json', json: { title: 'Unauthorized', status: 401, detail: 'The API key is not valid' } }), { times: 1 });
      // (Picked afresh: the page picks an only championship itself.)
      await page.selectOption('[data-testid=pick-championship]', '');
      await page.selectOption('[data-testid=pick-championship]', { label: 'Layouts Cup' });
      await page.waitForSelector('[data-testid=sign-in]:not([hidden])');
    };
    // Each list of the layouts held until released, in the order asked.
    const lists: { release: (answer?: unknown) => void; request: Request }[] = [];
    let asked: () => void = () => undefined;
    await page.route(
      (url) => url.pathname === '/ViewerLayouts',
      async (route) => {
        const answer = await new Promise<unknown>((resolve) => {
          lists.push({ release: resolve, request: route.request() });
          asked();
        });
        if (answer === undefined) await route.continue();
        else await route.fulfill({ json: answer });
      },
    );
    const nextList = async () => {
      const count = lists.length;
      while (lists.length === count) await new Promise<void>((resolve) => (asked = resolve));
      return lists[count] as (typeof lists)[number];
    };
    await page.goto(`${stack.baseUrl}/viewer`);

    // Signed in, the account's layouts listed; the key refused, then signed in again: until its list is read, none of
    // the old one is shown.
    let list = nextList();
    await signIn();
    (await list).release();
    await page.waitForFunction(() => (document.querySelector('[data-testid=layout-pick]')?.childElementCount ?? 0) > 1);
    const before = await listed();
    await refuseKey();
    list = nextList();
    await signIn();
    const second = await list;
    await page.waitForSelector('#app:not([hidden])');
    expect(await listed()).toEqual(['none saved yet']);
    expect(await page.isDisabled('[data-testid=layout-apply]')).toBe(true);
    second.release();
    await page.waitForFunction(() => (document.querySelector('[data-testid=layout-pick]')?.childElementCount ?? 0) > 1);
    expect(await listed()).toEqual(before);

    // The key refused while its list is on its way; signed in again, the new list read; the old key's answer, coming
    // after it, is dropped.
    await refuseKey();
    list = nextList();
    await signIn();
    const stale = await list;
    await refuseKey();
    list = nextList();
    await signIn();
    (await list).release();
    await page.waitForFunction(() => (document.querySelector('[data-testid=layout-pick]')?.childElementCount ?? 0) > 1);
    const finished = page.waitForEvent('requestfinished', (r) => r === stale.request);
    stale.release([{ Id: '00000000-0000-4000-8000-000000000001', Parameters: { Name: 'Stale account layout', Description: null } }]);
    await finished;
    // The answer read and handled (its JSON parsed, the picker filled or not) within a few frames.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(await listed()).toEqual(before);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  test('when the key\'s role in the account is reader, then a layout is applied but Save as, Update and Delete are disabled, saying why; a write the service refuses (403) is said as such', async () => {
    await saveThroughApi('Readers view', 'v=1&ch=Ground%20Speed');
    const { page } = await openSignedIn(browser, stack, undefined, { role: 'reader' });
    const context = page.context();
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.waitForSelector('[data-testid=layout-role]', { state: 'visible' });
    expect(await page.textContent('[data-testid=layout-role]')).toBe('Your role in this account is reader: you may apply layouts; they are saved by its editors and admins.');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Readers view' });
    expect(await page.isDisabled('[data-testid=layout-save-as]')).toBe(true);
    expect(await page.isDisabled('[data-testid=layout-update]')).toBe(true);
    expect(await page.isDisabled('[data-testid=layout-delete]')).toBe(true);
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await tickedChannels(page)).toEqual(['Ground Speed']);
    await context.close();

    // An editor whose role the service no longer lets write (a 403 of the service, answered here by the test).
    const { page: editor } = await openSignedIn(browser, stack);
    await editor.route('**/ViewerLayouts', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fulfill({ status: 403, contentType: 'application/problem+json', json: { title: 'Forbidden', status: 403, detail: 'The role reader may not create ViewerLayouts' } });
    });
    await pickRun(editor, 'Layouts Cup', 'Run 1');
    await pickDataset(editor, 'Run 1 / DataFile');
    expect(await editor.isDisabled('[data-testid=layout-save-as]')).toBe(false);
    await editor.check('[data-testid="channel-Ground Speed"]');
    await saveAs(editor, 'Mine');
    expect(await shownError(editor)).toBe('The layout was not saved (403): your role in this account may not change its layouts; they are saved by its editors and admins.');
    await editor.context().close();
  });

  test('when a layout is updated on a dataset that lacks some of its channels, then those channels and their y scales are kept in their place, an unticked channel the dataset has is removed, and the status says what was kept', async () => {
    // Saved on Run 1: the other car lacks Brake Pres Rear and Gear (and so the rear brake pane's y scale is not on its screen).
    await saveThroughApi('Race view', 'v=1&ch=Throttle%20Pos&ch=Brake%20Pres%20Rear&ch=Gear&ch=Ground%20Speed&y=0%2C100%2CBrake%20Pres%20Rear&y=0%2C300%2CGround%20Speed');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Other car run');
    await pickDataset(page, 'Other car run / DataFile (other-car.csv)');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Race view' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Race view applied')).toBe('Layout Race view applied: 2 channels ticked; this dataset lacks "Brake Pres Rear", "Gear"; the y scale of "Brake Pres Rear" is not of a pane plotted.');
    // One more channel ticked, one of the layout's this dataset has unticked (removed, as before), then Update.
    await page.check('[data-testid="channel-Brake Pres Front"]');
    await page.uncheck('[data-testid="channel-Throttle Pos"]');
    await page.click('[data-testid=layout-update]');
    expect(await statusStartingWith(page, 'Layout Race view updated')).toBe('Layout Race view updated: 4 channels, 2 y scales set by hand; kept 2 channels this dataset lacks: "Brake Pres Rear", "Gear"; kept 1 y scale of panes not on screen: "Brake Pres Rear".');
    const stored = (await savedLayouts()).find((l) => l.Parameters.Name === 'Race view')?.Parameters.Layout ?? '';
    expect(new URLSearchParams(stored).getAll('ch')).toEqual(['Brake Pres Rear', 'Gear', 'Ground Speed', 'Brake Pres Front']);
    expect(new URLSearchParams(stored).getAll('y').sort()).toEqual(['0,100,Brake Pres Rear', '0,300,Ground Speed']);

    // Applied again on Run 1, which has them all: the kept channels are back, in the layout's order.
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Race view' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Race view applied')).toBe('Layout Race view applied: 4 channels ticked.');
    expect(new URL(page.url()).hash).toContain('ch=Brake%20Pres%20Rear&ch=Gear&ch=Ground%20Speed&ch=Brake%20Pres%20Front');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('when a layout holds one of the account\'s math channels that the dataset cannot compute, then Apply says it cannot be computed there, not that the dataset lacks it', async () => {
    const headers = { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' };
    // The rear brake share: the other car has no rear brake pressure, so its catalogue does not list it.
    const created = await fetch(`${stack.baseUrl}/MathChannels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Rear bias' }, { Name: 'Expression', Value: '"Brake Pres Rear" / ("Brake Pres Front" + "Brake Pres Rear" + 1)' }] }),
    });
    expect(created.status).toBe(201);
    const mathId = ((await created.json()) as { Id: string }).Id;
    await saveThroughApi('Bias view', 'v=1&ch=Ground%20Speed&ch=Rear%20bias&ch=Brake%20Pres%20Rear');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Other car run');
    await pickDataset(page, 'Other car run / DataFile (other-car.csv)');
    await page.selectOption('[data-testid=layout-pick]', { label: 'Bias view' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Bias view applied')).toBe('Layout Bias view applied: 1 channel ticked; this dataset lacks "Brake Pres Rear"; "Rear bias" (a math channel) cannot be computed on this dataset: its inputs or constants are missing.');
    expect(pageErrors).toEqual([]);
    await page.context().close();
    expect((await fetch(`${stack.baseUrl}/MathChannels/${mathId}`, { method: 'DELETE', headers })).status).toBe(204);
  });

  test('when a colleague saves a layout after the page listed the account\'s layouts, then Refresh lists it, the layout picked staying picked', async () => {
    const picked = await saveThroughApi('Picked before refresh', 'v=1&ch=Ground%20Speed');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await pickRun(page, 'Layouts Cup', 'Run 1');
    await pickDataset(page, 'Run 1 / DataFile');
    const listed = () => page.$$eval('[data-testid=layout-pick] option', (options) => options.map((o) => o.textContent));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=layout-pick] option')].some((o) => o.textContent === 'Picked before refresh'));
    await page.selectOption('[data-testid=layout-pick]', { label: 'Picked before refresh' });
    // Saved elsewhere (a colleague's page, a script) once the page has listed the account's layouts.
    const elsewhere = await saveThroughApi('Saved elsewhere', 'v=1&ch=Gear');
    expect(await listed()).not.toContain('Saved elsewhere');

    await page.click('[data-testid=refresh-datasets]');
    expect(await statusStartingWith(page, '1 dataset(s) listed')).toBe('1 dataset(s) listed; the open dataset\'s channels read again: no change.');
    expect(await listed()).toContain('Saved elsewhere');
    expect(await page.$eval('[data-testid=layout-pick]', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Picked before refresh');
    // And applied from there, read whole.
    await page.selectOption('[data-testid=layout-pick]', { label: 'Saved elsewhere' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Saved elsewhere applied')).toBe('Layout Saved elsewhere applied: 1 channel ticked.');
    expect(pageErrors).toEqual([]);
    await page.context().close();
    for (const id of [picked, elsewhere]) expect((await fetch(`${stack.baseUrl}/ViewerLayouts/${id}`, { method: 'DELETE', headers: { ApiKey: stack.apiKey, AccountId: stack.accountId } })).status).toBe(204);
  });

  test('when the page signs in again after its key was refused and the account\'s math channels cannot be read, then neither the list under the form nor Apply uses the names of the sign-in before', async () => {
    const headers = { ApiKey: stack.apiKey, AccountId: stack.accountId, 'Content-Type': 'application/json' };
    // A math channel of the rear brake pressure, which the other car's outing does not have.
    const created = await fetch(`${stack.baseUrl}/MathChannels`, { method: 'POST', headers, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Rear share' }, { Name: 'Expression', Value: '"Brake Pres Rear" * 2' }] }) });
    expect(created.status).toBe(201);
    const mathId = ((await created.json()) as { Id: string }).Id;
    const layoutId = await saveThroughApi('Share view', 'v=1&ch=Ground%20Speed&ch=Rear%20share');
    const { page, pageErrors } = await openSignedIn(browser, stack);
    await page.waitForSelector('[data-testid="math-item-Rear share"]', { state: 'attached' });

    // The key refused (a 401 answered here for the next events read): the sign-in shown again.
    await page.route('**/Events?*', (route) => route.fulfill({ status: 401, contentType: 'application/problem+json', json: { title: 'Unauthorized', status: 401, detail: 'The API key is not valid' } }), { times: 1 });
    await page.selectOption('[data-testid=pick-championship]', { label: 'Layouts Cup' });
    await page.waitForSelector('[data-testid=sign-in]:not([hidden])');
    // Signed in again (another key or account, as far as the page knows), whose math channels cannot be read now.
    const unavailable = (route: Route) => route.fulfill({ status: 503, contentType: 'application/problem+json', json: { title: 'Service Unavailable', status: 503, detail: 'the entity-service is not answering' } });
    const mathList = (url: URL) => url.pathname === '/MathChannels';
    await page.route(mathList, unavailable);
    await page.fill('[data-testid=api-key]', stack.apiKey);
    await page.fill('[data-testid=account-id]', stack.accountId);
    await page.click('[data-testid=connect]');
    await page.waitForFunction(() => document.querySelector('[data-testid=error]')?.textContent?.includes('(503)'));
    expect(await shownError(page)).toMatch(/^The service is unavailable for now, nothing was done \(503\)/);
    await page.waitForSelector('#app:not([hidden])');
    expect(await page.$$('[data-testid^=math-item-]')).toEqual([]);
    expect(await page.textContent('[data-testid=math-count]')).toBe('0');

    // Refresh lists the layouts (the math channels still unreadable): Apply does not take "Rear share" for a math
    // channel of this account, which the page could not read.
    await pickRun(page, 'Layouts Cup', 'Other car run');
    await pickDataset(page, 'Other car run / DataFile (other-car.csv)');
    await page.click('[data-testid=refresh-datasets]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=layout-pick] option')].some((o) => o.textContent === 'Share view'));
    await page.selectOption('[data-testid=layout-pick]', { label: 'Share view' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Share view applied')).toBe('Layout Share view applied: 1 channel ticked; this dataset lacks "Rear share".');

    // Once the account's math channels are read, Apply knows it for one.
    await page.unroute(mathList, unavailable);
    await page.click('[data-testid=refresh-datasets]');
    await page.waitForSelector('[data-testid="math-item-Rear share"]', { state: 'attached' });
    await andDrawn(page, 'panes', () => page.click('[data-testid=layout-apply]'));
    expect(await statusStartingWith(page, 'Layout Share view applied')).toBe('Layout Share view applied: 1 channel ticked; "Rear share" (a math channel) cannot be computed on this dataset: its inputs or constants are missing.');
    expect(pageErrors).toEqual([]);
    await page.context().close();
    expect((await fetch(`${stack.baseUrl}/ViewerLayouts/${layoutId}`, { method: 'DELETE', headers })).status).toBe(204);
    expect((await fetch(`${stack.baseUrl}/MathChannels/${mathId}`, { method: 'DELETE', headers })).status).toBe(204);
  });
});
