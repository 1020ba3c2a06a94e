/**
 * Headless Chromium for the preview's browser tests, benchmark and screenshots: Debian's
 * /usr/bin/chromium (`apt-get install -y chromium`; .ci/run installs it) driven by
 * playwright-core. WebGL runs on SwiftShader (software), which headless Chromium picks by
 * itself; --enable-unsafe-swiftshader keeps it available where newer builds would refuse the
 * software fallback.
 */

import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.SLMESH_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
];

export function hasChromium() {
  return existsSync(CHROMIUM);
}

/** Launches headless Chromium; close it with `await browser.close()`. */
export async function launchChromium() {
  if (!hasChromium()) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Opens a preview page and waits until it is ready (window.slmeshPreview.ready) or failed.
 * Returns the page and the console errors and page errors seen so far (the arrays keep filling).
 */
export async function openPreview(browser, url, { width = 1400, height = 1000, timeout = 30_000 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  const dialogs = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await page.goto(url);
  await page.waitForFunction(
    () => window.slmeshPreview && (window.slmeshPreview.ready || window.slmeshPreview.error),
    null,
    { timeout },
  );
  return { page, errors, dialogs };
}
