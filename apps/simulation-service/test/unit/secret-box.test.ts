import { randomBytes } from 'node:crypto';
import { previousSecretKeys, SealedUnderAnotherKey, SecretBox } from '../../src/domain/secret-box';

describe('SecretBox with previous keys', () => {
  const [a, b, c, other] = [randomBytes(32), randomBytes(32), randomBytes(32), randomBytes(32)];
  const value = { clientId: 'client-1', password: 'correct horse' };

  test('when values were sealed under any configured key, then they open, and new values are sealed under the current key only', () => {
    const box = new SecretBox(c, [b, a]);
    for (const key of [a, b, c]) expect(box.open(new SecretBox(key).seal(value))).toEqual(value);
    const sealed = box.seal(value);
    expect(new SecretBox(c).open(sealed)).toEqual(value);
    expect(() => new SecretBox(a).open(sealed)).toThrow(SealedUnderAnotherKey);
    expect(box.rotating).toBe(true);
    expect(new SecretBox(c).rotating).toBe(false);
  });

  test('when a value is under no configured key, or is no sealed value, then it does not open (never garbage) and is said to be under none', () => {
    const box = new SecretBox(c, [a]);
    const foreign = new SecretBox(other).seal(value);
    expect(() => box.open(foreign)).toThrow(SealedUnderAnotherKey);
    expect(box.sealedUnder(foreign)).toBe('none');
    expect(box.sealedUnder(Buffer.from('short'))).toBe('none');
    const tampered = Buffer.from(new SecretBox(a).seal(value));
    tampered[tampered.length - 1] ^= 1;
    expect(box.sealedUnder(tampered)).toBe('none');
  });

  test('when no configured key opens a value, then the error (for the operator\'s log) says which keys were tried, never a key', () => {
    const refusal = (box: SecretBox): string => {
      try {
        box.open(new SecretBox(other).seal(value));
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('the value opened');
    };
    const tried = [refusal(new SecretBox(c, [b, a])), refusal(new SecretBox(c, [a])), refusal(new SecretBox(c))];
    expect(tried).toEqual([
      'sealed under none of the keys configured: tried the current key (SIMULATION_SECRET_KEY, or its key file) and the 2 keys of SIMULATION_SECRET_KEY_PREVIOUS',
      'sealed under none of the keys configured: tried the current key (SIMULATION_SECRET_KEY, or its key file) and the 1 key of SIMULATION_SECRET_KEY_PREVIOUS',
      'sealed under none of the keys configured: tried the current key (SIMULATION_SECRET_KEY, or its key file) and no previous key (SIMULATION_SECRET_KEY_PREVIOUS is not set)',
    ]);
  });

  test('when asked which key a value is under, then the current, a previous or none; a re-sealed value is under the current one and holds the same', () => {
    const box = new SecretBox(c, [b, a]);
    expect(box.sealedUnder(new SecretBox(c).seal(value))).toBe('current');
    expect(box.sealedUnder(new SecretBox(a).seal(value))).toBe('previous');
    const { under, resealed } = box.resealFromPrevious(new SecretBox(a).seal(value));
    expect(under).toBe('previous');
    if (!resealed) throw new Error('a value under a previous key is re-sealed');
    expect(box.sealedUnder(resealed)).toBe('current');
    expect(box.resealFromPrevious(resealed)).toEqual({ under: 'current', resealed: null });
    expect(new SecretBox(c).open(resealed)).toEqual(value);
  });

  test('when a previous key is the current key, then it is refused naming SIMULATION_SECRET_KEY_PREVIOUS and its place, never the key', () => {
    expect(previousSecretKeys(c, [a, b])).toEqual([a, b]);
    expect(() => previousSecretKeys(c, [a, Buffer.from(c)])).toThrow(/SIMULATION_SECRET_KEY_PREVIOUS: key 2 of 2 is the current key/);
    expect(() => previousSecretKeys(c, [c])).not.toThrow(new RegExp(c.toString('base64').replace(/[+/]/g, '.')));
    expect(() => new SecretBox(c, [Buffer.alloc(16)])).toThrow(/32-byte/);
  });
});
