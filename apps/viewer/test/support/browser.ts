import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** A Chromium binary of Debian's and the package that installs it (named when the binary is missing). */
export interface ChromiumBinary {
  path: string;
  package: string;
}

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell`, the same engine (Blink, V8, Skia) as the `chromium`
 * package built without the browser's own interface, as Playwright drives it for headless runs. Full `chromium` in
 * headless mode runs the whole browser unseen at more than twice the CPU: a page opened, signed in and a dataset picked
 * took 3.7 s of CPU against 1.4 s with the shell, and the viewer's suites 696 core-seconds against 353 (1 December, same
 * machine); the browser suites were the largest part of CI's CPU.
 */
export const CHROMIUM_HEADLESS_SHELL: ChromiumBinary = { path: '/usr/bin/chromium-headless-shell', package: 'chromium-headless-shell' };
/** The full browser (Debian's `chromium`), the one a user runs: the viewer bench measures the page in it. */
export const CHROMIUM: ChromiumBinary = { path: '/usr/bin/chromium', package: 'chromium' };

/**
 * Flags that keep the browser off the network: every host name resolves to nothing except the loopback address
 * the stack listens on, no proxy, and none of Chromium's background traffic (updates, sync, metrics, safe browsing).
 */
export const OFFLINE_FLAGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--no-proxy-server',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-sync',
  '--disable-extensions',
  '--disable-breakpad',
  '--no-first-run',
  '--no-pings',
  '--metrics-recording-only',
  '--safebrowsing-disable-auto-update',
  '--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
];

/** Headless Chromium kept off the network: the headless shell (the tests'), or `binary` (the bench's full browser). */
export async function launchChromium(binary = CHROMIUM_HEADLESS_SHELL): Promise<Browser> {
  if (!existsSync(binary.path)) throw new Error(`${binary.path} is missing: install the Debian package (apt-get install -y ${binary.package}); npm test does when run as root`);
  return chromium.launch({ executablePath: binary.path, headless: true, args: OFFLINE_FLAGS });
}

/** Every request the page made that did not go to `origin` (the page must load nothing from elsewhere). */
export function foreignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) foreign.push(url);
  });
  return foreign;
}
