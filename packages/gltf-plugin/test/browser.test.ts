/**
 * The browser-safe root entry: bundled with esbuild for the browser (no Node module of slmesh's
 * reachable; glTF-Transform's own lazy `node:fs` import in NodeIO is external, as for any
 * glTF-Transform page) and run in Chromium, where it reads a GLB with WebIO and prices it with
 * slReport and an injected deflate (fflate's zlib). Node, with the same deflate, gives the same
 * report.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { zlibSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module
import { hasChromium, launchChromium } from '../../preview/chromium.mjs';
import { readDocument } from '../src/read-file.js';
import { slReport } from '../src/index.js';

const root = resolve(__dirname, '../../..');
const ENTRY = `
import { WebIO } from '@gltf-transform/core';
import { slReport } from '@slmesh/gltf-plugin';
import { zlibSync } from 'fflate';
window.priceGlb = async (base64) => {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const document = await new WebIO().readBinary(bytes);
  return slReport(document, { path: 'chair.glb', deflate: (data, level) => zlibSync(data, { level }) });
};
`;

async function bundle() {
  return build({
    stdin: { contents: ENTRY, resolveDir: join(root, 'packages/gltf-plugin'), loader: 'js' },
    nodePaths: [join(root, 'node_modules')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['node:*'],
    alias: {
      '@slmesh/gltf-plugin': join(root, 'packages/gltf-plugin/src/index.ts'),
      '@slmesh/core': join(root, 'packages/core/src/index.ts'),
    },
  });
}

let browser: Browser | undefined;
beforeAll(async () => {
  if (hasChromium()) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('@slmesh/gltf-plugin in a browser', () => {
  it('bundles for the browser with no Node import reachable from slmesh code', async () => {
    const result = await bundle();
    const nodeImports = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => i.path.startsWith('node:')).map((i) => `${file} -> ${i.path}`),
    );
    expect(nodeImports.filter((s) => s.includes('packages/'))).toEqual([]);
    expect(Object.keys(result.metafile.inputs).some((f) => f.includes('node-zlib'))).toBe(false);
  });

  it.runIf(hasChromium())('prices a GLB in Chromium exactly as Node does with the same deflate', async () => {
    const js = (await bundle()).outputFiles[0].text;
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setContent('<!doctype html><title>slmesh</title>');
    await page.addScriptTag({ content: js, type: 'module' });
    await page.waitForFunction(() => typeof (window as never as { priceGlb?: unknown }).priceGlb === 'function');
    const glb = readFileSync(join(root, 'test-assets/chair.glb')).toString('base64');
    const inBrowser = await page.evaluate(
      (b64) => (window as never as { priceGlb: (s: string) => Promise<unknown> }).priceGlb(b64),
      glb,
    );
    const inNode = slReport(await readDocument(join(root, 'test-assets/chair.glb')), {
      path: 'chair.glb',
      deflate: (data, level) => zlibSync(data, { level }),
    });
    expect(errors).toEqual([]);
    expect(inBrowser).toEqual(JSON.parse(JSON.stringify(inNode)));
    expect((inBrowser as typeof inNode).files[0].linkset.prims).toBe(6);
  });
});
