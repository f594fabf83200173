import { clearCredentials, loadCredentials, saveCredentials } from '../../src/credentials';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

test('when credentials are saved, then they load back, and after clearing (or when the stored value is damaged) there are none', () => {
  const storage = memoryStorage();
  expect(loadCredentials(storage)).toBeNull();
  saveCredentials(storage, { apiKey: 'k', accountId: 'a' });
  expect(loadCredentials(storage)).toEqual({ apiKey: 'k', accountId: 'a' });
  clearCredentials(storage);
  expect(loadCredentials(storage)).toBeNull();
  storage.setItem('pitwall.viewer.credentials', '{not json');
  expect(loadCredentials(storage)).toBeNull();
  storage.setItem('pitwall.viewer.credentials', JSON.stringify({ apiKey: 1 }));
  expect(loadCredentials(storage)).toBeNull();
});
