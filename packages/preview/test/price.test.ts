/**
 * The page's re-pricing (priceAtSize, core in the page) gives exactly the numbers of
 * `slmesh cost --json --size X` (the built CLI, run as a user runs it): every object's scale,
 * position, radius, download weight, physics, server weight, land impact and switch distances,
 * the whole linkset block and the diagnostics, at sizes from 1 cm to 64 m, on the Blender exports.
 */

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCostReport, readModelFile, reportModel } from '@slmesh/gltf-plugin/node';
import { makePreviewPayload } from '../../cli/src/preview/payload.js';
import { decodeGeometry, type DecodedPreview, type PreviewData } from '../src/payload.js';
import { logSizes, priceAtSize, scaleFactorsForLongestSide } from '../src/price.js';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const ASSETS = [
  'chair.glb',
  'lod-authored.glb',
  'vase.glb',
  'two-cubes-60m.glb',
  'column-10m.glb',
  'bead-5cm.glb',
  'rotated-scaled.glb',
  'beveled-cube-3mat.glb',
  'prims-300.glb',
];
const paths = ASSETS.map((a) => join('test-assets', a));

function costJson(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, 'cost', '--json', ...args, ...paths], {
    encoding: 'utf8',
    cwd: root,
    maxBuffer: 1 << 28,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

/** What the page shows, as JSON carries it (so -0 and 0 compare as the CLI prints them). */
const asJson = <T>(x: T): T => JSON.parse(JSON.stringify(x));

async function previewOf(path: string, lodFactor = 2): Promise<DecodedPreview> {
  const read = await readModelFile(path); // relative, as the CLI is given it (vitest runs in the root), so diagnostics name the same path
  const { report: file } = reportModel(read, path, {
    lodFactor,
    animesh: false,
    scripts: 0,
    linkability: { rule: 'current' },
  });
  const report = makeCostReport([file], { lodFactor, animesh: false, linkabilityRule: 'current' }, 'test');
  const { data, geometry } = makePreviewPayload(read.model, report, lodFactor);
  const json = asJson(data) as unknown as PreviewData;
  return { data: json, objects: decodeGeometry(json, geometry) };
}

function expectSame(
  page: ReturnType<typeof priceAtSize>,
  file: { objects: unknown[]; linkset: unknown; diagnostics: unknown[] },
) {
  const cli = file as { objects: Record<string, unknown>[]; linkset: unknown; diagnostics: unknown[] };
  expect(page.objects).toHaveLength(cli.objects.length);
  page.objects.forEach((o, i) => {
    const c = cli.objects[i];
    expect(
      asJson({
        name: o.name,
        scale: o.scale,
        position: o.position,
        radius: o.radius,
        streaming: o.streaming,
        physics: o.physics,
        server: o.server,
        landImpact: o.landImpact,
        switchDistances: o.switchDistances,
      }),
    ).toEqual({
      name: c.name,
      scale: c.scale,
      position: c.position,
      radius: c.radius,
      streaming: c.streaming,
      physics: c.physics,
      server: c.server,
      landImpact: c.landImpact,
      switchDistances: c.switchDistances,
    });
  });
  expect(asJson(page.linkset)).toEqual(cli.linkset);
  expect(asJson(page.diagnostics)).toEqual(cli.diagnostics);
}

describe('priceAtSize against slmesh cost --json', () => {
  const previews: DecodedPreview[] = [];
  beforeAll(async () => {
    for (const p of paths) previews.push(await previewOf(p));
  });

  it('reproduces the report at the model’s own size', () => {
    const report = costJson();
    previews.forEach((pv, k) => expectSame(priceAtSize(pv, undefined, 2), report.files[k]));
  });

  for (const size of [0.01, 0.137, 1, 3, 17.5, 63.9]) {
    it(`matches --size ${size} exactly`, () => {
      const report = costJson('--size', String(size));
      previews.forEach((pv, k) => {
        const page = priceAtSize(pv, size, 2);
        expect(page.longestSide).toBeCloseTo(size, 9);
        expectSame(page, report.files[k]);
      });
    });
  }

  it('matches --size 150 exactly, where the uploader caps the Scale (63.9 m an object, 240 m a model)', () => {
    const report = costJson('--size', '150');
    let capped = 0;
    previews.forEach((pv, k) => {
      const page = priceAtSize(pv, 150, 2);
      expectSame(page, report.files[k]);
      const largest = Math.max(...page.objects.flatMap((o) => o.scale));
      expect(largest).toBeLessThanOrEqual(63.9 * (1 + 1e-9));
      if (page.longestSide < 150 - 1e-9) {
        capped++;
        expect(page.diagnostics.some((d) => d.code === 'scale-capped')).toBe(true);
      }
    });
    expect(capped).toBeGreaterThan(0);
  });

  it('matches --lod-factor 1 switch distances (and the rest) at --size 5', () => {
    const report = costJson('--size', '5', '--lod-factor', '1');
    previews.forEach((pv, k) => expectSame(priceAtSize(pv, 5, 1), report.files[k]));
  });

  it('changes with size where the formulas say it should', () => {
    const vase = previews[ASSETS.indexOf('vase.glb')];
    const small = priceAtSize(vase, 0.1, 2);
    const big = priceAtSize(vase, 10, 2);
    // Download weight grows with the radius (its LODs differ); the physics mesh gets dearer as it shrinks.
    expect(big.linkset.streaming).toBeGreaterThan(small.linkset.streaming);
    // (vase_PHYS is a closed cylinder, priced as the hull Analyze keeps; its mesh weight still scales.)
    expect(small.objects[0].physics.mesh!.weight).toBeGreaterThan(big.objects[0].physics.mesh!.weight);
    // Two cubes 60 m apart link once shrunk (the span follows the size), with the diagnostic gone.
    const cubes = previews[ASSETS.indexOf('two-cubes-60m.glb')];
    expect(priceAtSize(cubes, undefined, 2).linkset.linkable.ok).toBe(false);
    const shrunk = priceAtSize(cubes, 30, 2);
    expect(shrunk.linkset.linkable.ok).toBe(true);
    expect(shrunk.diagnostics.some((d) => d.code === 'not-linkable')).toBe(false);
  });
});

describe('helpers', () => {
  it('scale factors follow the longest side, as gltf-plugin scaleFactorsFor', () => {
    expect(scaleFactorsForLongestSide([1, 2, 4], 8)).toEqual([2, 2, 2]);
    expect(scaleFactorsForLongestSide([1, 2, 4], undefined)).toEqual([1, 1, 1]);
    expect(scaleFactorsForLongestSide([0, 0, 0], 3)).toEqual([1, 1, 1]);
  });

  it('logSizes spans its ends exactly, evenly in log', () => {
    const s = logSizes(0.01, 64, 5);
    expect(s[0]).toBe(0.01);
    expect(s[4]).toBe(64);
    expect(Math.log(s[2] / s[1])).toBeCloseTo(Math.log(s[1] / s[0]), 12);
  });
});
