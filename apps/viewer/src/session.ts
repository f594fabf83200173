import { ViewerApi } from './api';
import { entityName } from './catalogue';
import { clearCredentials, loadCredentials, saveCredentials, type Credentials } from './credentials';
import type { DatasetPanel } from './dataset-panel';
import { el, focusAfter } from './dom';
import type { LayoutsPanel } from './layouts-panel';
import type { MathChannels } from './math-channels';
import type { Page } from './page';
import type { PageLink } from './page-link';
import type { Pickers } from './pickers';

/** The session: signed in with an API key (kept for the tab), signed out, or forgotten when the service refuses the key. */
export class Session {
  constructor(
    private readonly page: Page,
    private readonly pickers: Pickers,
    private readonly math: MathChannels,
    private readonly link: PageLink,
    private readonly datasetPanel: DatasetPanel,
    private readonly layouts: LayoutsPanel,
  ) {}

  start(): void {
    el<HTMLFormElement>('sign-in').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.signIn();
    });
    el('sign-out').addEventListener('click', () => this.signOut());
  }

  /** Signs in with the credentials kept for the tab, if any (a reload). */
  resume(): void {
    const stored = loadCredentials(sessionStorage);
    if (stored) void this.connect(stored);
  }

  private async signIn(): Promise<void> {
    const apiKey = el<HTMLInputElement>('api-key').value.trim();
    const accountId = el<HTMLInputElement>('account-id').value.trim();
    const origin = document.activeElement;
    // The key stays in its field when the sign-in fails (tried again without typing it again); connect() clears it
    // once signed in.
    await this.connect({ apiKey, accountId });
    // The sign-in form (and its Connect button, which had the focus) hidden: the focus goes to the first picker,
    // unless the user has put it elsewhere meanwhile.
    if (this.page.api) focusAfter(origin, el('pick-championship'));
  }

  private async connect(credentials: Credentials): Promise<void> {
    // A link in the address is opened once signed in; until then the address keeps it as given.
    const fragment = location.hash;
    this.link.applyingLink = fragment.length > 1;
    // Other credentials: nothing of the account signed in before (its math channels' names, its layouts) is used or
    // shown, whether this sign-in succeeds or fails part way.
    this.math.forget();
    this.layouts.forget();
    await this.page.run(async () => {
      const accounts = await new ViewerApi({ apiKey: credentials.apiKey, accountId: '' }).listAccounts();
      // A GUID in either case (one copied from a tool that prints them upper-case): the service's own spelling is kept.
      const account = credentials.accountId ? accounts.find((a) => a.Id.toLowerCase() === credentials.accountId.trim().toLowerCase()) : accounts[0];
      if (!account) throw new Error(credentials.accountId ? 'This API key is not a member of that account.' : 'This API key belongs to no account.');
      const stored = { apiKey: credentials.apiKey, accountId: account.Id };
      saveCredentials(sessionStorage, stored);
      this.page.api = new ViewerApi(stored);
      // Signed in: the key is no longer kept in the (hidden) field.
      el<HTMLInputElement>('api-key').value = '';
      el('account-label').textContent = `Account: ${account.Name}`;
      this.math.applyRole(account.Role);
      el('sign-in').hidden = true;
      el('signed-in').hidden = false;
      el('app').hidden = false;
      this.pickers.fill('pick-championship', await this.page.api.championships(), entityName);
      await this.math.listMathChannels();
      await this.layouts.signedIn(account.Role);
    });
    if (this.page.api && fragment.length > 1) await this.link.applyLink(fragment);
    else this.link.applyingLink = false;
  }

  private signOut(): void {
    clearCredentials(sessionStorage);
    location.reload();
  }

  /** Signed out by the service: the sign-in shown, nothing of the account left on the page. */
  forgetKey(): void {
    this.page.api = null;
    this.page.opening++;
    this.datasetPanel.close();
    this.math.forget();
    this.layouts.forget();
    // The sign-in shown empty, not with the key just refused.
    el<HTMLInputElement>('api-key').value = '';
    el('sign-in').hidden = false;
    el('signed-in').hidden = true;
    el('app').hidden = true;
  }
}
