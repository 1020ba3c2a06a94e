#!/usr/bin/env node
/**
 * Remakes the preview screenshots in docs/img (the README and docs/preview.md show them):
 * runs the built `slmesh preview` on test assets and photographs the pages in headless
 * Chromium. Run after `pnpm build`:
 *
 *   node packages/preview/screenshots.mjs
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium, openPreview } from './chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'docs/img');
const work = mkdtempSync(join(tmpdir(), 'slmesh-shots-'));
mkdirSync(out, { recursive: true });

const shots = [
  { model: 'test-assets/chair.glb', file: 'preview-chair.png', fullPage: true, act: async () => {} },
  {
    model: 'test-assets/vase.glb',
    file: 'preview-vase-physics.png',
    act: async (page) => {
      await page.check('#physics-hull');
      await page.evaluate(() => window.slmeshPreview.setSize(2));
    },
  },
  {
    model: 'test-assets/lod-authored.glb',
    file: 'preview-lod-authored.png',
    act: async (page) => {
      await page.selectOption('#lod-factor', '1');
      await page.evaluate(() => window.slmeshPreview.setCameraDistance(6));
      await page.check('#wireframe');
    },
  },
];

const browser = await launchChromium();
try {
  for (const s of shots) {
    const html = join(work, `${s.file}.html`);
    const r = spawnSync(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'preview', s.model, '-o', html], {
      cwd: root,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(r.stderr);
    const { page, errors } = await openPreview(browser, pathToFileURL(html).href, { width: 1400, height: 1000 });
    await page.waitForSelector('#chart svg');
    await s.act(page);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, s.file), fullPage: !!s.fullPage });
    if (errors.length) throw new Error(`${s.model}: ${errors.join('; ')}`);
    console.log(`docs/img/${s.file}`);
    await page.close();
  }
} finally {
  await browser.close();
}
