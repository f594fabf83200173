import { createHash } from 'node:crypto';
import { startGateway, type Harness } from '../support/gateway-harness';

/** The policy's directives by name: `script-src` → its sources. */
function directives(csp: string | null): Map<string, string[]> {
  return new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name as string, sources]));
}

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('GET /swagger and /swagger/v1/swagger.json', () => {
  let gateway: Harness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.stop();
  });

  test('when the page is asked, then it is never sniffed, and its policy runs its own inline script and style only, fetches from this origin and cannot be framed', async () => {
    const r = await fetch(`${gateway.baseUrl}/swagger`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await r.text();
    const policy = directives(r.headers.get('content-security-policy'));
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] as string;
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] as string;
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual([hashOf(script)]);
    expect(policy.get('style-src')).toEqual([hashOf(style)]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // One script and one style, both covered: nothing inline escapes the policy.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page.match(/<style/g)).toHaveLength(1);
  });

  test('when the document is asked, then it is JSON that is never sniffed and runs nothing', async () => {
    const r = await fetch(`${gateway.baseUrl}/swagger/v1/swagger.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = directives(r.headers.get('content-security-policy'));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(((await r.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
