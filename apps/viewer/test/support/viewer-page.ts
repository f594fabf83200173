import type { Browser, Page } from 'playwright-core';
import type { Embedded } from './embedded';

/** A page of the viewer, signed in and driven the way a user does, for the browser tests. */
export interface ViewerPage {
  page: Page;
  /** Uncaught errors of the page's script. */
  pageErrors: string[];
}

/**
 * A fresh page (its own session storage) at /viewer, signed in with the stack's key. With `role`, the account list
 * reaches the page as the service answers it with the key's role made that one (the page's own view of its rights).
 */
export async function openSignedIn(browser: Browser, stack: Embedded, viewport = { width: 1280, height: 1000 }, { role }: { role?: string } = {}): Promise<ViewerPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  if (role) {
    await page.route('**/Accounts/GetAll', async (route) => {
      const answer = await route.fetch();
      const accounts = (await answer.json()) as { Id: string; Role: string }[];
      await route.fulfill({ response: answer, json: accounts.map((a) => ({ ...a, Role: role })) });
    });
  }
  await page.goto(`${stack.baseUrl}/viewer`);
  await page.fill('[data-testid=api-key]', stack.apiKey);
  await page.fill('[data-testid=account-id]', stack.accountId);
  await page.click('[data-testid=connect]');
  return { page, pageErrors };
}

/** Championship → event (Round 1) → session (Race) → car (Car 7) → run sheet, then the dataset whose label starts with `dataset`. */
export async function pickRun(page: Page, championship: string, runSheet: string): Promise<void> {
  await page.selectOption('[data-testid=pick-championship]', { label: championship });
  await page.selectOption('[data-testid=pick-event]', { label: 'Round 1' });
  await page.selectOption('[data-testid=pick-session]', { label: 'Race' });
  await page.selectOption('[data-testid=pick-car]', { label: 'Car 7' });
  await page.selectOption('[data-testid=pick-run]', { label: runSheet });
}

/** Picks the dataset whose label starts with `label` and waits until the File panel shows it. */
export async function pickDataset(page: Page, label: string): Promise<void> {
  const option = page.locator('[data-testid=pick-dataset] option', { hasText: label });
  await option.waitFor({ state: 'attached' });
  const value = (await option.getAttribute('value')) as string;
  const full = (await option.textContent()) as string;
  await page.selectOption('[data-testid=pick-dataset]', value);
  await page.waitForFunction((text) => document.querySelector('[data-testid=file-properties] tr')?.textContent === `dataset${text}`, full);
}

/**
 * Ticks the channels of the list (the first `count` listed, or those `named`, in that order) as many clicks on their
 * checkboxes would, in one step: each box's click() in the page (its change event as from the mouse). Playwright's
 * check() of each box took 50-100 ms of round trips, seconds a test for every channel of Sample1 (78). Those already
 * ticked stay ticked; each one is checked after. Returns how many it ticked.
 */
export async function tickChannels(page: Page, which: { count?: number; named?: readonly string[] } = {}): Promise<number> {
  const testids = which.named?.map((name) => `channel-${name}`) ?? null;
  // The boxes named, once the list shows them all (as check() waits for each).
  if (testids) {
    await page.waitForFunction((ids) => {
      const listed = new Set([...document.querySelectorAll<HTMLInputElement>('[data-testid=channels] input[type=checkbox]')].map((b) => b.dataset['testid']));
      return ids.every((id) => listed.has(id));
    }, testids);
  }
  const ticked = await page.evaluate(
    ([ids, count]) => {
      const all = [...document.querySelectorAll<HTMLInputElement>('[data-testid=channels] input[type=checkbox]')];
      const boxes = ids ? ids.map((id) => all.find((b) => b.dataset['testid'] === id) as HTMLInputElement) : all.slice(0, count ?? all.length);
      for (const box of boxes) if (!box.checked) box.click();
      return boxes.filter((b) => b.checked).length === boxes.length ? boxes.length : -1;
    },
    [testids, which.count ?? null] as const,
  );
  if (ticked < 0) throw new Error('a channel clicked was not ticked');
  return ticked;
}

/** Runs `action` and waits until the element `testid` says (data-drawn) it has drawn once more. */
export async function andDrawn(page: Page, testid: string, action: () => Promise<unknown>): Promise<void> {
  const before = Number((await page.getAttribute(`[data-testid=${testid}]`, 'data-drawn')) ?? 0);
  await action();
  try {
    await page.waitForFunction(([id, n]) => Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-drawn') ?? 0) > Number(n), [testid, before] as const);
  } catch (err) {
    throw new Error(`${testid} did not draw: error "${await page.textContent('[data-testid=error]')}", status "${await page.textContent('[data-testid=status]')}" (${String(err)})`);
  }
}

/** The error shown, once one is (its text). */
export async function shownError(page: Page): Promise<string> {
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  return (await page.textContent('[data-testid=error]')) ?? '';
}

/**
 * Drags across the plot of the pane `selector` (its `.u-over`, brought into the viewport first) from `from` to `to`
 * of its width, at half its height, as a user zooms: the mouse moves in steps, so the drag is seen as one.
 */
export async function dragAcross(page: Page, selector: string, from: number, to: number): Promise<void> {
  const over = page.locator(`${selector} .u-over`).first();
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
  await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
}
