/**
 * `pnpm bench preview`: how fast the preview page shows its first frame in headless Chromium
 * (Debian's /usr/bin/chromium, WebGL on SwiftShader, i.e. software rendering: a slower path
 * than any artist's GPU) for a 250,000-triangle model, and how long `slmesh preview` takes to
 * write the page. Target: first frame within 2 s.
 *
 * The model is generated here: a torus of 500 x 250 quads (250,000 triangles, 125,000 vertices,
 * one material), which the uploader splits into two faces at 65,525 vertices. The chair
 * (test-assets/chair.glb) is measured alongside for scale.
 *
 * First frame = performance.now() once the page's first frame (main view and the four LOD
 * panes) has really been drawn (the page waits for the rasteriser with a one-pixel readPixels),
 * i.e. from the start of navigation; it includes parsing the page, decoding the embedded
 * geometry, pricing and building the scene. Medians of 5 page loads, each in a fresh page.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const RUNS = 5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A torus of `u` x `v` quads (2uv triangles), radii 0.5 m and 0.18 m, as a GLB. */
async function torusGlb(root, u, v) {
  const require = createRequire(join(root, 'packages/gltf-plugin/package.json'));
  const { Document, NodeIO } = require('@gltf-transform/core');
  const positions = new Float32Array(u * v * 3);
  const normals = new Float32Array(u * v * 3);
  const R = 0.5,
    r = 0.18;
  for (let i = 0; i < u; i++) {
    const a = (i / u) * Math.PI * 2;
    for (let j = 0; j < v; j++) {
      const b = (j / v) * Math.PI * 2;
      const k = (i * v + j) * 3;
      const nx = Math.cos(a) * Math.cos(b),
        ny = Math.sin(b),
        nz = Math.sin(a) * Math.cos(b);
      positions.set([(R + r * Math.cos(b)) * Math.cos(a), r * Math.sin(b), (R + r * Math.cos(b)) * Math.sin(a)], k);
      normals.set([nx, ny, nz], k);
    }
  }
  const indices = new Uint32Array(u * v * 6);
  let o = 0;
  for (let i = 0; i < u; i++) {
    for (let j = 0; j < v; j++) {
      const a = i * v + j,
        b = ((i + 1) % u) * v + j,
        c = ((i + 1) % u) * v + ((j + 1) % v),
        d = i * v + ((j + 1) % v);
      indices.set([a, d, b, b, d, c], o);
      o += 6;
    }
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
    .setMaterial(doc.createMaterial('TorusGlaze'));
  doc.createScene().addChild(doc.createNode('Torus').setMesh(doc.createMesh('Torus').addPrimitive(prim)));
  return new NodeIO().writeBinary(doc);
}

export async function run({ root, log }) {
  const { launchChromium, openPreview } = await import(pathToFileURL(join(root, 'packages/preview/chromium.mjs')).href);
  const work = mkdtempSync(join(tmpdir(), 'slmesh-bench-preview-'));
  const torus = join(work, 'torus-250k.glb');
  writeFileSync(torus, await torusGlb(root, 500, 250));
  const models = [
    { label: 'torus, 250,000 triangles (generated)', path: torus },
    { label: 'test-assets/chair.glb, 6 prims, 456 triangles', path: join(root, 'test-assets/chair.glb') },
  ];

  const browser = await launchChromium();
  const rows = [];
  try {
    for (const m of models) {
      // 1. slmesh preview: read, price, encode, write the page.
      const html = join(work, `${m.path.split('/').pop()}.html`);
      const cli = [];
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'preview', m.path, '-o', html], {
          encoding: 'utf8',
        });
        cli.push(performance.now() - t0);
        if (r.status !== 0) throw new Error(r.stderr);
      }
      // 2. First frame in headless Chromium, fresh page each time.
      const first = [];
      const ready = [];
      let triangles = 0;
      for (let k = 0; k < RUNS; k++) {
        const t0 = performance.now();
        const { page, errors } = await openPreview(browser, pathToFileURL(html).href, { timeout: 120_000 });
        ready.push(performance.now() - t0);
        const s = await page.evaluate(() => ({
          ff: window.slmeshPreview.firstFrameMs,
          err: window.slmeshPreview.error,
        }));
        if (s.err || errors.length) throw new Error(`${m.label}: ${s.err ?? errors.join('; ')}`);
        triangles = await page.evaluate(() =>
          Number(document.querySelector('[data-lod-pane=high]').getAttribute('data-triangles')),
        );
        first.push(s.ff);
        await page.close();
      }
      const row = {
        model: m.label,
        triangles,
        file: statSync(m.path).size,
        page: statSync(html).size,
        cli: median(cli),
        first: median(first),
        firstMax: Math.max(...first),
        ready: median(ready),
      };
      log(
        `${m.label}: first frame ${row.first.toFixed(0)} ms (max ${row.firstMax.toFixed(0)}), slmesh preview ${row.cli.toFixed(0)} ms, page ${(row.page / 2 ** 20).toFixed(1)} MiB`,
      );
      rows.push(row);
    }
  } finally {
    await browser.close();
  }

  const mib = (n) => `${(n / 2 ** 20).toFixed(2)} MiB`;
  const torusRow = rows[0];
  const markdown = [
    `Target: first frame within 2 s for a 250k-triangle model. Result: **${(torusRow.first / 1000).toFixed(2)} s** (median of ${RUNS}; slowest ${(torusRow.firstMax / 1000).toFixed(2)} s): ${torusRow.first <= 2000 ? 'met' : 'NOT met'}.`,
    '',
    'Headless Chromium (`/usr/bin/chromium`, `--headless --disable-gpu`: WebGL on SwiftShader, software rendering). First frame = `performance.now()` once the first frame (main view and four LOD panes) has really been drawn (a one-pixel `readPixels` waits for the rasteriser), counted from the start of navigation: parse the page, decode the embedded geometry, price with core, build the scene, draw. Page ready = wall clock from `page.goto` until the page reports ready, as seen by the test driver.',
    '',
    '| model | triangles (high) | model file | page (self-contained HTML) | `slmesh preview` (write page) | first frame, median | first frame, slowest | page ready (from `goto`), median |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.model} | ${r.triangles.toLocaleString('en-US')} | ${mib(r.file)} | ${mib(r.page)} | ${r.cli.toFixed(0)} ms | ${r.first.toFixed(0)} ms | ${r.firstMax.toFixed(0)} ms | ${r.ready.toFixed(0)} ms |`,
    ),
    '',
    '`slmesh preview` times are medians of 3 runs of the built CLI (Node start-up included); they include encoding the asset exactly as the uploader does, which the cost report needs.',
  ].join('\n');
  return { title: 'Preview: first frame of a 250k-triangle model', markdown };
}
