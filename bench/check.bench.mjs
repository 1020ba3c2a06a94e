/**
 * `pnpm bench check`: `slmesh check` on 1,000 assets of mixed size, as a CI job of a large
 * repository runs it: cold (empty cache, every core), warm (every asset from the cache), and
 * cold on one thread for comparison. Peak memory is the child's max RSS (worker threads share
 * its process, so they are included), from /usr/bin/time.
 *
 * The assets are variants of the bundled Blender exports written with glTF-Transform: each is
 * scaled by its own factor and has one vertex nudged, so every file's bytes (and hash) differ.
 * Targets (from issue #5): cold under 60 s on a 2-core machine, warm under 5 s, peak memory
 * under 1 GB.
 */

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '@slmesh/core';

const COUNT = 1000;

/** Bundled models and how often each appears (heavier ones rarer, as in a real repository). */
const MIX = [
  { file: 'cube.glb', weight: 20, folder: 'props/small' },
  { file: 'bead-5cm.glb', weight: 15, folder: 'props/small' },
  { file: 'beveled-cube-3mat.glb', weight: 15, folder: 'props/blocks' },
  { file: 'chair.glb', weight: 15, folder: 'furniture' },
  { file: 'column-10m.glb', weight: 8, folder: 'architecture' },
  { file: 'vase.glb', weight: 10, folder: 'deco', siblings: ['_LOD2', '_LOD1', '_LOD0', '_PHYS'] },
  { file: 'lod-authored.glb', weight: 8, folder: 'deco' },
  { file: 'suzanne.glb', weight: 6, folder: 'characters' },
  { file: 'two-cubes-60m.glb', weight: 2, folder: 'architecture' },
  { file: 'prims-300.glb', weight: 1, folder: 'architecture/big' },
];

const BUDGET = {
  '//': 'Budget of the benchmark repository.',
  defaults: { uploadable: true },
  rules: [
    {
      name: 'small props',
      files: 'props/**/*.glb',
      maxLandImpact: 5,
      maxDownload: 4,
      maxPhysics: 2,
      maxTriangles: { high: 20000 },
    },
    { name: 'furniture', files: 'furniture/**/*.glb', maxLandImpact: 30, linkable: true, atSizes: ['asset', 0.5, 4] },
    { name: 'deco', files: 'deco/**/*.glb', maxLandImpact: 60, maxHullVertices: 256 },
    { name: 'architecture', files: 'architecture/**/*.glb', maxLandImpact: 200, maxPrims: 300 },
    { name: 'characters', files: 'characters/**/*.glb', maxDownload: 500, maxTriangles: { high: 10000 } },
  ],
};

const random = mulberry32;

async function generate(root, dir, log) {
  const { createNodeIO } = await import(pathToFileURL(join(root, 'packages/gltf-plugin/dist/node.js')).href);
  const io = await createNodeIO({ draco: false });
  const bases = MIX.map((m) => ({ ...m, bytes: new Uint8Array(readFileSync(join(root, 'test-assets', m.file))) }));
  const total = MIX.reduce((n, m) => n + m.weight, 0);
  const rand = random(5);
  let bytes = 0;
  const counts = new Map();
  for (let i = 0; i < COUNT; i++) {
    // 1. Pick a model by weight.
    let r = rand() * total;
    const base = bases.find((b) => (r -= b.weight) < 0) ?? bases[0];
    counts.set(base.file, (counts.get(base.file) ?? 0) + 1);
    // 2. A variant: scaled, and one vertex nudged, so its bytes differ from every other.
    const doc = await io.readBinary(base.bytes);
    const scale = 0.5 + rand() * 1.5;
    const nudge = (rand() - 0.5) * 0.01;
    for (const mesh of doc.getRoot().listMeshes()) {
      for (const prim of mesh.listPrimitives()) {
        const pos = prim.getAttribute('POSITION');
        if (!pos) continue;
        const a = pos.getArray().slice();
        for (let k = 0; k < a.length; k++) a[k] *= scale;
        a[Math.floor(rand() * (a.length / 3)) * 3] += nudge;
        pos.setArray(a);
      }
    }
    const out = await io.writeBinary(doc);
    const folder = join(dir, base.folder, `set-${String(i % 20).padStart(2, '0')}`);
    mkdirSync(folder, { recursive: true });
    const stem = `${base.file.replace(/\.glb$/, '')}-${String(i).padStart(4, '0')}`;
    writeFileSync(join(folder, `${stem}.glb`), out);
    bytes += out.length;
    for (const s of base.siblings ?? []) {
      copyFileSync(join(root, 'test-assets', base.file.replace(/\.glb$/, `${s}.glb`)), join(folder, `${stem}${s}.glb`));
    }
  }
  writeFileSync(join(dir, 'slmesh.budget.json'), JSON.stringify(BUDGET, null, 2));
  log(`generated ${COUNT} assets (${(bytes / 2 ** 20).toFixed(1)} MiB of main files) in ${dir}`);
  return { bytes, counts };
}

/** Runs slmesh check; wall time, peak RSS of the process (workers included), output. */
function timed(root, dir, args) {
  const bin = join(root, 'packages/cli/dist/bin.js');
  const rssFile = join(dir, '.rss');
  const hasTime = existsSync('/usr/bin/time');
  const cmd = hasTime ? '/usr/bin/time' : process.execPath;
  const argv = hasTime
    ? ['-o', rssFile, '-f', '%M %U %S', process.execPath, bin, 'check', ...args]
    : [bin, 'check', ...args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`slmesh check ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [rssKiB, user, sys] = hasTime
    ? readFileSync(rssFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number)
    : [NaN, NaN, NaN];
  return { seconds, cpu: user + sys, rssMiB: rssKiB / 1024, stdout: r.stdout, stderr: r.stderr, status: r.status };
}

export async function run({ root, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-bench-check-'));
  try {
    const { bytes, counts } = await generate(root, dir, log);
    const cache = join(dir, '.slmesh-cache');
    const cores = availableParallelism();
    const load = loadavg()[0];

    log('cold, every core ...');
    const cold = timed(root, dir, ['--format', 'json', '--cache', cache, '--verbose']);
    log(`  ${cold.seconds.toFixed(1)} s (CPU ${cold.cpu.toFixed(1)} s), ${cold.rssMiB.toFixed(0)} MiB`);
    log('warm ...');
    const warm = timed(root, dir, ['--format', 'json', '--cache', cache, '--verbose']);
    log(`  ${warm.seconds.toFixed(1)} s, ${warm.rssMiB.toFixed(0)} MiB`);
    if (warm.stdout !== cold.stdout) throw new Error("the warm run's report differs from the cold run's");
    if (!/1000 cached, 0 to price/.test(warm.stderr))
      throw new Error(`warm run was not all cache hits: ${warm.stderr}`);
    log('cold, one thread ...');
    const single = timed(root, dir, ['--format', 'json', '--jobs', '1']);
    log(`  ${single.seconds.toFixed(1)} s (CPU ${single.cpu.toFixed(1)} s), ${single.rssMiB.toFixed(0)} MiB`);
    if (single.stdout !== cold.stdout) throw new Error("the one-thread report differs from the pool's");

    const report = JSON.parse(cold.stdout);
    const s = report.check;
    const mix = MIX.map((m) => `${m.file} ${counts.get(m.file) ?? 0}`).join(', ');
    const na = (x, f) => (Number.isFinite(x) ? f(x) : 'n/a');
    const row = (what, r, target) =>
      `| ${what} | ${r.seconds.toFixed(1)} s | ${na(r.cpu, (x) => `${x.toFixed(1)} s`)} | ${na(r.rssMiB, (x) => `${x.toFixed(0)} MiB`)} | ${target} |`;
    const markdown = [
      `${COUNT} assets (${(bytes / 2 ** 20).toFixed(1)} MiB of main files, plus sibling LOD files), variants of the bundled Blender exports,`,
      `each scaled and nudged with glTF-Transform so no two hash alike: ${mix}.`,
      `Budget: 5 rules, one checking 3 sizes (\`atSizes\`). Result: ${s.passed} within budget, ${s.failed} over.`,
      '',
      `Machine load when the runs started: load average ${load.toFixed(1)} on ${cores} cores (the cores are shared with other work, so`,
      'wall time can exceed CPU time / cores).',
      '',
      '| run | wall time | CPU time (user + sys) | peak memory (max RSS, workers included) | target |',
      '| --- | ---: | ---: | ---: | --- |',
      row(`cold: empty \`--cache\`, ${cores} worker threads (default \`--jobs\`)`, cold, 'under 60 s, under 1 GB'),
      row('warm: every asset from the cache', warm, 'under 5 s'),
      row('cold, `--jobs 1` (no workers), for comparison', single, ''),
      '',
      'The warm and one-thread reports are byte-identical to the cold one (checked by the benchmark).',
    ].join('\n');
    return { title: 'slmesh check: 1,000 assets', markdown };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
