import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

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

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install the Debian package (apt-get install -y chromium); .ci/run does`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: OFFLINE_FLAGS });
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
