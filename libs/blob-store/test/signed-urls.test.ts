import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UrlSigner, urlSigningSecret } from '../src';

const grant = { method: 'PUT' as const, path: '/blobs/0b6f1a52-93c4-4a5e-9b0e-6a1d2c3e4f50', attachedFileId: '0b6f1a52-93c4-4a5e-9b0e-6a1d2c3e4f50' };

describe('UrlSigner', () => {
  const signer = new UrlSigner('a secret of sixteen or more');
  const expires = Math.floor(Date.now() / 1000) + 60;
  const sig = signer.signature({ ...grant, expires });

  test('when the signature, method, path, id and expiry are the ones signed, then it verifies', () => {
    expect(signer.verify(grant, String(expires), sig)).toBeNull();
  });

  test('when any signed part differs, then it is invalid', () => {
    expect(signer.verify({ ...grant, method: 'GET' }, String(expires), sig)).toBe('invalid');
    expect(signer.verify({ ...grant, path: '/blobs/other' }, String(expires), sig)).toBe('invalid');
    expect(signer.verify({ ...grant, attachedFileId: '1b6f1a52-93c4-4a5e-9b0e-6a1d2c3e4f50' }, String(expires), sig)).toBe('invalid');
    expect(signer.verify(grant, String(expires + 1), sig)).toBe('invalid');
    expect(signer.verify(grant, String(expires), `${sig.slice(0, -1)}x`)).toBe('invalid');
    expect(new UrlSigner('another secret of sixteen+').verify(grant, String(expires), sig)).toBe('invalid');
  });

  test('when the expiry has passed, then it is expired; when a part is missing, then it is missing', () => {
    const past = Math.floor(Date.now() / 1000) - 1;
    expect(signer.verify(grant, String(past), signer.signature({ ...grant, expires: past }))).toBe('expired');
    expect(signer.verify(grant, undefined, sig)).toBe('missing');
    expect(signer.verify(grant, String(expires), undefined)).toBe('missing');
    expect(signer.verify(grant, 'soon', sig)).toBe('invalid');
  });

  test('when a URL is signed to last longer than the signer\'s longest lifetime (with a minute for clocks), then it is invalid', () => {
    const fifteenMinutes = new UrlSigner('a secret of sixteen or more', 900);
    const now = Date.now();
    const at = (seconds: number) => Math.floor(now / 1000) + seconds;
    const signed = (seconds: number) => fifteenMinutes.verify(grant, String(at(seconds)), fifteenMinutes.signature({ ...grant, expires: at(seconds) }), now);
    expect([signed(900), signed(960), signed(961), signed(7 * 24 * 3600)]).toEqual([null, null, 'invalid', 'invalid']);
    // The default: UPLOAD_URL_TTL_S's own bound, 7 days.
    const week = at(7 * 24 * 3600);
    expect(signer.verify(grant, String(week), signer.signature({ ...grant, expires: week }), now)).toBeNull();
    expect(signer.verify(grant, String(week + 3600), signer.signature({ ...grant, expires: week + 3600 }), now)).toBe('invalid');
  });

  test('when the secret is shorter than 16 characters, then the signer refuses it', () => {
    expect(() => new UrlSigner('short')).toThrow(/at least 16/);
  });
});

describe('urlSigningSecret', () => {
  test('when none is configured, then one is generated once under the data directory (0600) and read back after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pitwall-secret-'));
    try {
      const first = urlSigningSecret(undefined, dir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(urlSigningSecret(undefined, dir)).toBe(first);
      expect(statSync(join(dir, 'url-signing-secret')).mode & 0o777).toBe(0o600);
      expect(urlSigningSecret('configured secret value', dir)).toBe('configured secret value');
      const warned: string[] = [];
      const logger = { warn: (_fields: object, message: string) => void warned.push(message) };
      expect(urlSigningSecret('configured secret value', dir, logger)).toBe('configured secret value');
      expect(warned).toEqual([]);
      expect(urlSigningSecret('pitwall-compose-local-url-signing-secret', dir, logger)).toBe('pitwall-compose-local-url-signing-secret');
      expect(warned).toEqual([expect.stringMatching(/^URL_SIGNING_SECRET is the public default of docker\/compose.yaml: anyone who knows an attached file id can sign a URL/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
