/** The API key and account, kept in the browser session (sessionStorage: gone with the tab), never in a URL. */
export interface Credentials {
  apiKey: string;
  accountId: string;
}

const KEY = 'pitwall.viewer.credentials';

export function loadCredentials(storage: Pick<Storage, 'getItem'>): Credentials | null {
  const raw = storage.getItem(KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Credentials>;
    return typeof parsed.apiKey === 'string' && typeof parsed.accountId === 'string' ? { apiKey: parsed.apiKey, accountId: parsed.accountId } : null;
  } catch {
    return null;
  }
}

export function saveCredentials(storage: Pick<Storage, 'setItem'>, credentials: Credentials): void {
  storage.setItem(KEY, JSON.stringify(credentials));
}

export function clearCredentials(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(KEY);
}
