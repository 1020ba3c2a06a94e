/**
 * `slmesh preview` end to end: the built command writes or serves the page, and headless
 * Chromium (Debian's /usr/bin/chromium, WebGL on SwiftShader) opens it as an artist would.
 *
 * Checked: no console errors; the main view draws the model (screenshot pixels); the LOD label
 * changes where the spec's formula (section 2, written out here independently of core) says;
 * the numbers on the page are those of `slmesh cost --json`, and after the size control those
 * of `slmesh cost --json --size X`; the physics toggle draws the hull / physics mesh; a node
 * named with markup is shown as text and runs nothing; --serve --watch reloads the page on a
 * re-export and reports a broken one; bad input is one line, exit 2, no file.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPreview } from '../../preview/chromium.mjs';
import { shelfModel } from '../../preview/test/fixtures.js';
import { previewPageOf } from '../src/preview/page.js';
import { colourStats, countColour, decodePng } from './preview/png.js';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const asset = (name: string) => join(root, 'test-assets', name);
const dir = mkdtempSync(join(tmpdir(), 'slmesh-preview-'));
const HOSTILE_NODE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
const HOSTILE_MATERIAL = '<script>window.__pwned = 1</script>"\'&amp;\u2028';

function slmesh(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function costJson(file: string, ...args: string[]) {
  const r = slmesh('cost', '--json', ...args, file);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).files[0];
}

/** Writes the preview page of `model` and returns its file URL. */
function pageOf(model: string, name: string, ...args: string[]): string {
  const out = join(dir, name);
  const r = slmesh('preview', model, '-o', out, ...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^wrote .*\.html \(\d+ objects?, \d+ KiB\)\n$/);
  return pathToFileURL(out).href;
}

/**
 * Spec section 2, inverted: the camera distance from which the tangent F * r / d' falls to
 * `threshold`, with d' = ramp(d * (1 - 0.1F)) * pi / 3 and ramp(x) = x below 2F metres is
 * (x / 2F)^2 * 2F.
 */
function specSwitch(radius: number, lodFactor: number, threshold: number): number {
  const adjusted = (lodFactor * radius) / threshold / (Math.PI / 3);
  const ramp = 2 * lodFactor;
  const beforeRamp = adjusted >= ramp ? adjusted : Math.sqrt(adjusted * ramp);
  return beforeRamp / (1 - 0.1 * lodFactor);
}

async function mainViewPixels(page: Page) {
  const box = (await page.locator('#view-main').boundingBox())!;
  return decodePng(await page.screenshot({ clip: box }));
}

async function values(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (els) => els.map((e) => Number(e.getAttribute('data-value'))));
}

/** The linkset costs and per-object numbers the page shows, from their data-value attributes. */
async function pageNumbers(page: Page) {
  const one = async (id: string) => Number(await page.getAttribute(`#${id}`, 'data-value'));
  return {
    landImpact: await one('cost-land-impact'),
    landImpactRounded: Number(await page.getAttribute('#cost-land-impact', 'data-rounded')),
    streaming: await one('cost-download'),
    physics: await one('cost-physics'),
    server: await one('cost-server'),
    physical: await one('cost-physical'),
    span: Number(await page.getAttribute('#cost-linkable', 'data-span')),
    objects: {
      streaming: await values(page, '#objects td[data-field=streaming]'),
      physics: await values(page, '#objects td[data-field=physics]'),
      landImpact: await values(page, '#objects td[data-field=landImpact]'),
      radius: await values(page, '#objects td[data-field=radius]'),
      medium: await values(page, '#objects td[data-field=medium]'),
      lowest: await values(page, '#objects td[data-field=lowest]'),
    },
  };
}

function cliNumbers(file: { linkset: Record<string, any>; objects: Record<string, any>[] }) {
  const ls = file.linkset;
  return {
    landImpact: ls.landImpact,
    landImpactRounded: ls.landImpactRounded,
    streaming: ls.streaming,
    physics: ls.physics,
    server: ls.server,
    physical: ls.physical.weight,
    span: ls.linkable.span,
    objects: {
      streaming: file.objects.map((o) => o.streaming),
      physics: file.objects.map((o) => o.physics.weight),
      landImpact: file.objects.map((o) => o.landImpact),
      radius: file.objects.map((o) => o.radius),
      medium: file.objects.map((o) => o.switchDistances.medium),
      lowest: file.objects.map((o) => o.switchDistances.lowest),
    },
  };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('slmesh preview page', () => {
  it('opens without errors and draws the chair (the canvas is not blank)', async () => {
    const { page, errors } = await openPreview(browser, pageOf(asset('chair.glb'), 'chair.html'));
    expect(await page.evaluate(() => window.slmeshPreview.error)).toBeUndefined();
    const state = await page.evaluate(() => window.slmeshPreview.state!());
    expect(state.webgl).toBe(true);
    expect(state.frames).toBeGreaterThan(0);
    const img = await mainViewPixels(page);
    const stats = colourStats(img);
    // A flat background would be one colour; the chair adds shaded wood and fabric.
    expect(stats.dominantShare).toBeLessThan(0.95);
    expect(stats.distinct).toBeGreaterThan(20);
    // The fabric back (#6f9bd1, lit) is there: blue-dominant pixels well away from the grey background.
    let blue = 0;
    for (let i = 0; i < img.rgba.length; i += 4)
      if (img.rgba[i + 2] > img.rgba[i] + 40 && img.rgba[i + 2] > 120) blue++;
    expect(blue).toBeGreaterThan(500);
    await page.waitForSelector('#chart svg');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the numbers of slmesh cost --json, and those of --size X after the size control', async () => {
    for (const [model, size] of [
      ['chair.glb', '3'],
      ['vase.glb', '0.05'],
      ['two-cubes-60m.glb', '20'],
    ] as const) {
      const { page, errors } = await openPreview(browser, pageOf(asset(model), `${model}.html`));
      const own = costJson(asset(model));
      expect(await pageNumbers(page)).toEqual(cliNumbers(own));
      expect(await page.textContent('#cost-download')).toBe(own.linkset.streaming.toFixed(3));
      expect(await page.textContent('#cost-land-impact')).toBe(
        `${own.linkset.landImpact.toFixed(3)} → ${own.linkset.landImpactRounded}`,
      );
      expect(await page.textContent('#cost-linkable')).toBe(own.linkset.linkable.ok ? 'linkable' : 'NOT linkable');

      // The size control, as a user types it.
      await page.fill('#size-input', size);
      await page.press('#size-input', 'Enter');
      const sized = costJson(asset(model), '--size', size);
      const shown = await pageNumbers(page);
      expect(shown).toEqual(cliNumbers(sized));
      expect(await page.textContent('#cost-linkable')).toBe(sized.linkset.linkable.ok ? 'linkable' : 'NOT linkable');
      const codes = await page.$$eval('#diagnostics li[data-code]', (els) =>
        els.map((e) => e.getAttribute('data-code')),
      );
      expect(codes).toEqual(sized.diagnostics.map((d: { code: string }) => d.code));
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('the sizes change the numbers the way the formulas say (vase: download weight follows the radius; its closed-cylinder _PHYS is priced as a hull, which does not)', async () => {
    const { page } = await openPreview(browser, pageOf(asset('vase.glb'), 'vase-size.html'));
    const before = await pageNumbers(page);
    await page.evaluate(() => window.slmeshPreview.setSize!(0.04));
    const small = await pageNumbers(page);
    expect(small.streaming).toBeLessThan(before.streaming);
    expect(small.physics).toBe(before.physics);
    await page.evaluate(() => window.slmeshPreview.setSize!(null));
    expect(await pageNumbers(page)).toEqual(before);
    await page.close();
  });

  it('switches LOD at the distances the spec formula gives (single object, F = 2 and 1)', async () => {
    const { page, errors } = await openPreview(browser, pageOf(asset('vase.glb'), 'lod.html'));
    const radius = costJson(asset('vase.glb')).objects[0].radius;
    for (const F of [2, 1]) {
      await page.selectOption('#lod-factor', String(F));
      const steps = [
        ['high', 'medium', 0.24],
        ['medium', 'low', 0.06],
        ['low', 'lowest', 0.03],
      ] as const;
      for (const [nearer, farther, threshold] of steps) {
        const d = specSwitch(radius, F, threshold);
        await page.evaluate((x) => window.slmeshPreview.setCameraDistance!(x), d * (1 - 1e-4));
        expect(await page.getAttribute('#active-lod', 'data-lod')).toBe(nearer);
        expect(Number(await page.getAttribute('#camera-distance', 'data-value'))).toBeCloseTo(d * (1 - 1e-4), 6);
        await page.evaluate((x) => window.slmeshPreview.setCameraDistance!(x), d * (1 + 1e-4));
        expect(await page.getAttribute('#active-lod', 'data-lod')).toBe(farther);
        expect(await page.textContent('#active-lod')).toBe(farther);
        // The LOD drawn is the file's own (vase.glb's sibling files give all four).
        expect((await page.evaluate(() => window.slmeshPreview.state!())).objects[0].drawn).toBe(farther);
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('measures each object of a linkset from its own centre (chair: Leg_FL at F = 1.5; a missing LOD shows high)', async () => {
    const { page } = await openPreview(browser, pageOf(asset('chair.glb'), 'chair-lod.html'));
    const file = costJson(asset('chair.glb'));
    const leg = file.objects.findIndex((o: { name: string }) => o.name === 'Leg_FL');
    await page.selectOption('#lod-factor', '1.5');
    const d = specSwitch(file.objects[leg].radius, 1.5, 0.06);
    let s = await page.evaluate(([x, i]) => window.slmeshPreview.setCameraDistance!(x, i), [d * 0.999, leg]);
    expect(s.focusName).toBe('Leg_FL');
    expect(s.objects[leg].distance).toBeCloseTo(d * 0.999, 6);
    expect(s.objects[leg].lod).toBe('medium');
    s = await page.evaluate(([x, i]) => window.slmeshPreview.setCameraDistance!(x, i), [d * 1.001, leg]);
    expect(s.objects[leg].lod).toBe('low');
    // The chair has no lower LODs: the viewer draws high in the low slot, and the label says so.
    expect(s.objects[leg].drawn).toBe('high');
    expect(await page.textContent('#active-lod')).toBe('low (shows high)');
    expect(await page.textContent(`#objects tr[data-object="${leg}"] td[data-field=lod]`)).toBe('low (shows high)');
    await page.close();
  });

  it('draws the physics shapes over the model when toggled', async () => {
    const { page, errors } = await openPreview(browser, pageOf(asset('vase.glb'), 'vase-physics.html'));
    const orange: [number, number, number] = [255, 138, 28];
    const cyan: [number, number, number] = [30, 230, 200];
    const off = await mainViewPixels(page);
    expect(countColour(off, orange, 40)).toBeLessThan(50);
    await page.check('#physics-hull');
    const hull = await mainViewPixels(page);
    expect(countColour(hull, orange, 40)).toBeGreaterThan(1000);
    await page.check('#physics-mesh');
    const mesh = await mainViewPixels(page);
    expect(countColour(mesh, cyan, 40)).toBeGreaterThan(1000);
    expect(countColour(mesh, orange, 40)).toBeLessThan(50);
    // The vase's _PHYS is one closed convex piece, so it also counts as a one-hull decomposition.
    expect(await page.isDisabled('#physics-decomposition')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows what a model carries beyond the file: a convex decomposition (weight marked estimate) and a generated LOD', async () => {
    const { html } = await previewPageOf({ model: shelfModel(), diagnostics: [] }, 'shelf.glb');
    const out = join(dir, 'shelf.html');
    writeFileSync(out, html);
    const { page, errors } = await openPreview(browser, pathToFileURL(out).href);
    expect(await page.isDisabled('#physics-decomposition')).toBe(false);
    expect(await page.textContent('#cost-physics-note')).toBe('estimate');
    expect(await page.textContent('#objects tr[data-object="0"] td[data-field=physics]')).toMatch(
      /decomposition\s*estimate\s*assumes Analyze$/,
    );
    // The medium LOD is the model's own; low and lowest show it, as the viewer would.
    expect(await page.getAttribute('[data-lod-pane=medium]', 'data-triangles')).toBe('12');
    expect(await page.textContent('[data-lod-pane=low] .pane-info')).toContain('not in the file: shows medium');
    const red: [number, number, number] = [240, 66, 66]; // the first hull's colour, hsl(0, 85%, 60%)
    expect(countColour(await mainViewPixels(page), red, 40)).toBeLessThan(50);
    await page.check('#physics-decomposition');
    expect(countColour(await mainViewPixels(page), red, 40)).toBeGreaterThan(500);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a node and material named with markup as text, and runs nothing', async () => {
    const require = createRequire(join(root, 'packages/gltf-plugin/package.json'));
    const { Document, NodeIO } = require('@gltf-transform/core') as typeof import('@gltf-transform/core');
    const doc = new Document();
    const buffer = doc.createBuffer();
    const positions = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
    const indices = doc
      .createAccessor()
      .setType('SCALAR')
      .setBuffer(buffer)
      .setArray(new Uint16Array([0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2]));
    const material = doc.createMaterial(HOSTILE_MATERIAL);
    const prim = doc.createPrimitive().setAttribute('POSITION', positions).setIndices(indices).setMaterial(material);
    const node = doc.createNode(HOSTILE_NODE).setMesh(doc.createMesh('m').addPrimitive(prim));
    doc.createScene().addChild(node);
    const model = join(dir, 'hostile.glb');
    writeFileSync(model, await new NodeIO().writeBinary(doc));

    const url = pageOf(model, 'hostile.html');
    const html = readFileSync(join(dir, 'hostile.html'), 'utf8');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(2)');
    const { page, errors, dialogs } = await openPreview(browser, url);
    expect(await page.textContent('#focus-name')).toBe(HOSTILE_NODE);
    expect(await page.textContent('#objects tr[data-object="0"] td[data-field=name]')).toBe(HOSTILE_NODE);
    expect(await page.textContent('#materials')).toContain(HOSTILE_MATERIAL);
    expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(3);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('slmesh preview command', () => {
  it('refuses bad input in one line, exit 2, and writes nothing', () => {
    for (const [args, message] of [
      [['preview', 'missing.glb', '-o', 'a.html'], /^slmesh: missing\.glb: no such file\n$/],
      [['preview', asset('broken/truncated.glb'), '-o', 'b.html'], /^slmesh: .*truncated\.glb: .+\n$/],
      [['preview', asset('cube.glb'), '--port', '80'], /^slmesh: --port needs --serve\n$/],
      [['preview', asset('cube.glb'), '--serve', '--port', 'x'], /^slmesh: --port must be a whole number/],
      [['preview', asset('broken/not-a-glb.glb'), '--serve'], /^slmesh: .*not-a-glb\.glb: .+\n$/],
    ] as const) {
      const r = slmesh(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(join(dir, 'a.html'))).toBe(false);
    expect(existsSync(join(dir, 'b.html'))).toBe(false);
  });

  it('writes <model>.preview.html by default', () => {
    const r = slmesh('preview', asset('cube.glb'));
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'cube.preview.html'))).toBe(true);
  });

  it('--serve --watch: serves on 127.0.0.1, reloads the page on a re-export, reports a broken one, stops on SIGTERM', async () => {
    const work = mkdtempSync(join(tmpdir(), 'slmesh-serve-'));
    const model = join(work, 'model.glb');
    copyFileSync(asset('cube.glb'), model);
    const child: ChildProcess = spawn(process.execPath, [bin, 'preview', model, '--serve', '--watch'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const started = Date.now();
      while (!/http:\/\/127\.0\.0\.1:\d+\//.test(stdout)) {
        if (Date.now() - started > 30_000 || child.exitCode !== null) throw new Error(`no URL: ${stdout} ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout)![0];
      const { page, errors } = await openPreview(browser, url);
      expect((await page.evaluate(() => window.slmeshPreview.state!())).objects[0].name).toBe('Cube');
      await page.waitForFunction(() => /live/.test(document.getElementById('live-status')?.textContent ?? ''));
      await page.evaluate(() => window.slmeshPreview.setLodFactor!(4));

      // Re-export: another model in the same file. The page reloads itself and keeps the LOD factor.
      const navigated = page.waitForEvent('framenavigated', { timeout: 30_000 });
      copyFileSync(asset('bead-5cm.glb'), model);
      await navigated;
      await page.waitForFunction(
        () => window.slmeshPreview?.ready && window.slmeshPreview.state!().objects[0].name === 'Bead',
        null,
        { timeout: 30_000 },
      );
      expect((await page.evaluate(() => window.slmeshPreview.state!())).lodFactor).toBe(4);
      expect(stdout).toMatch(/updated \(version 2, 1 object\)/);

      // A broken export: the page says so and keeps the last good version.
      writeFileSync(model, 'not a model');
      await page.waitForSelector('.banner.error', { timeout: 30_000 });
      expect(await page.textContent('.banner.error')).toMatch(/model\.glb/);
      expect((await page.evaluate(() => window.slmeshPreview.state!())).objects[0].name).toBe('Bead');
      expect(stderr).toMatch(/model\.glb.*the page keeps the last good version/);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
