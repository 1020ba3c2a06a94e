/**
 * `pnpm bench deflate`: the TypeScript zlib-ng 2.2.2 level-9 deflate (core zlibNgDeflate, what
 * the viewer's zip_llsd produces) against node:zlib level 9 (Chromium's zlib, what slmesh used to
 * size blocks) on the same blocks, in the same process:
 * - every block the cost report deflates for the bundled test assets (test-assets/*.glb);
 * - large generated blocks (test/vectors/zlib-ng/inputs.mjs): binary-LLSD meshes up to 1.5 MB,
 *   text, mixed, window-edge data, incompressible and biased two-symbol data.
 * Each set is compressed in 7 rounds by each implementation, alternating; the table gives medians.
 * Target (issue #16): at most 3x node:zlib's time. Also reported: compressed sizes (node:zlib's
 * are the overestimate the issue is about). Every output is checked to inflate back.
 */

import { deflateSync, inflateSync } from 'node:zlib';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { zlibNgDeflate } from '@slmesh/core';
import { reportFile } from '@slmesh/gltf-plugin/node';

const ROUNDS = 7;

const LARGE = [
  { kind: 'llsd-mesh', seed: 1001, length: 1_200_000 },
  { kind: 'llsd-mesh', seed: 13, length: 300_000 },
  { kind: 'llsd-mesh', seed: 11, length: 100_000 },
  { kind: 'text', seed: 104, length: 250_000 },
  { kind: 'mixed', seed: 3, length: 400_000 },
  { kind: 'window-edge', seed: 100, length: 1_100_000 },
  { kind: 'random', seed: 6, length: 100_000 },
  { kind: 'biased', seed: 3, length: 70_000 },
];

async function assetBlocks(root) {
  const seen = new Set();
  const blocks = [];
  for (const file of readdirSync(join(root, 'test-assets'))
    .filter((f) => f.endsWith('.glb'))
    .sort()) {
    const deflate = (data, level) => {
      const key = Buffer.from(data).toString('base64');
      if (!seen.has(key)) {
        seen.add(key);
        blocks.push(data.slice());
      }
      return zlibNgDeflate(data, level);
    };
    await reportFile(join(root, 'test-assets', file), { deflate });
  }
  return blocks;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Median ms to compress every block of the set once, for each implementation, and the median of
 * the per-round time ratios (robust when the machine is shared: both sides of a ratio ran back to
 * back). A round repeats the set enough times to take about 50 ms with node:zlib.
 */
function timeSet(blocks) {
  const impls = { node: (b) => deflateSync(b, { level: 9 }), zlibng: (b) => zlibNgDeflate(b, 9) };
  const bytes = { node: 0, zlibng: 0 };
  for (const [name, f] of Object.entries(impls)) {
    for (const b of blocks) {
      const out = f(b);
      bytes[name] += out.length;
      if (Buffer.compare(inflateSync(out), b) !== 0) throw new Error(`${name} output does not inflate back`);
    }
  }
  const once = (f) => {
    const t0 = process.hrtime.bigint();
    for (const b of blocks) f(b);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const reps = Math.max(1, Math.ceil(50 / Math.max(0.01, once(impls.node))));
  const times = { node: [], zlibng: [] };
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ['zlibng', 'node'] : ['node', 'zlibng'];
    const t = {};
    for (const name of order) {
      let ms = 0;
      for (let k = 0; k < reps; k++) ms += once(impls[name]);
      t[name] = ms / reps;
      times[name].push(t[name]);
    }
    ratios.push(t.zlibng / t.node);
  }
  return { node: median(times.node), zlibng: median(times.zlibng), ratio: median(ratios), bytes };
}

export async function run({ root, log }) {
  const { makeInput } = await import(pathToFileURL(join(root, 'packages/core/test/vectors/zlib-ng/inputs.mjs')).href);
  const assets = await assetBlocks(root);
  const large = LARGE.map((c) => ({ ...c, input: makeInput(c) }));
  // Warm up both (JIT) on everything once.
  for (const b of [...assets, ...large.map((c) => c.input)]) {
    deflateSync(b, { level: 9 });
    zlibNgDeflate(b, 9);
  }

  const rows = [];
  const row = (what, blocks) => {
    const input = blocks.reduce((n, b) => n + b.length, 0);
    const t = timeSet(blocks);
    log(`${what}: node ${t.node.toFixed(1)} ms, zlib-ng TS ${t.zlibng.toFixed(1)} ms (${t.ratio.toFixed(2)}x)`);
    rows.push({ what, count: blocks.length, input, ...t });
    return t;
  };
  row('test-asset blocks (all)', assets);
  for (const c of large) row(`${c.kind} (seed ${c.seed})`, [c.input]);
  row(
    'large generated blocks (all above)',
    large.map((c) => c.input),
  );

  const kib = (n) => (n / 1024).toFixed(1);
  const fmtMs = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
  const table = [
    '| blocks | count | input KiB | node:zlib 9 ms | zlibNgDeflate ms | time ratio | node:zlib KiB | zlib-ng KiB | size ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.what} | ${r.count} | ${kib(r.input)} | ${fmtMs(r.node)} | ${fmtMs(r.zlibng)} | ${r.ratio.toFixed(2)}x | ${kib(r.bytes.node)} | ${kib(r.bytes.zlibng)} | ${(r.bytes.zlibng / r.bytes.node).toFixed(3)} |`,
    ),
  ];
  const worst = Math.max(...rows.map((r) => r.ratio));
  const all = rows.find((r) => r.what.startsWith('test-asset'));
  const markdown = [
    "core `zlibNgDeflate` (pure TypeScript, byte-identical to zlib-ng 2.2.2 level 9, the viewer's compressor) against node:zlib level 9",
    `(zlib ${process.versions.zlib}) on the same blocks in one process: the ${assets.length} distinct blocks the cost report deflates for test-assets/*.glb,`,
    'and large generated blocks (packages/core/test/vectors/zlib-ng/inputs.mjs). Times are medians of 7 alternating rounds (each repeating the set for',
    'about 50 ms) of the time to compress the whole set once; the time ratio is the median of the per-round ratios, which stays meaningful on a loaded machine;',
    "every output is checked to inflate back. Target (issue #16): at most 3x node:zlib's time.",
    '',
    ...table,
    '',
    `Time ratio on the test-asset blocks (the real workload): **${all.ratio.toFixed(2)}x**; worst single set: ${worst.toFixed(2)}x. The size ratio is zlib-ng's output over node:zlib's: below 1 where node:zlib overestimates the download weight.`,
  ].join('\n');
  return { title: 'deflate: zlib-ng 2.2.2 in TypeScript vs node:zlib', markdown };
}
