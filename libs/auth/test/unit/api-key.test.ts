import { randomUUID } from 'node:crypto';
import { hashApiKey, isApiKey } from '../../src';

describe('API key format', () => {
  test('when a key is a canonical lower-case v4 GUID, then it is accepted', () => {
    expect(isApiKey(randomUUID())).toBe(true);
  });

  test.each([
    ['upper case', randomUUID().toUpperCase()],
    ['braces', `{${randomUUID()}}`],
    ['no hyphens', randomUUID().replace(/-/g, '')],
    ['not version 4', '3b241101-e2bb-1255-8caf-4136c566a962'],
    ['empty', ''],
  ])('when a key has %s, then it is rejected', (_case, key) => {
    expect(isApiKey(key)).toBe(false);
  });

  test('when a key is hashed, then the digest is 32 bytes and stable', () => {
    const key = randomUUID();
    expect(hashApiKey(key)).toHaveLength(32);
    expect(hashApiKey(key).equals(hashApiKey(key))).toBe(true);
  });
});
