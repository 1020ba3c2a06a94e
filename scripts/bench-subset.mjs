#!/usr/bin/env node
/**
 * `node scripts/bench-subset.mjs <bench> [name,name]`: runs one benchmark (after `pnpm build`)
 * and prints its table without writing bench/results or docs/benchmarks.md; the names limit the
 * land-impact and physics corpora (SLMESH_BENCH_ONLY). For quick checks while working; `pnpm bench`
 * is the record. `SLMESH_BENCH_EXTRA=/a/folder` adds every .glb in that folder as held-out models
 * (land-impact: at 2 m and 8 m; physics: at 2 m, against V-HACD); with the names `extra/`, only
 * those are run.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, only] = process.argv.slice(2);
if (!name) {
  console.error('usage: node scripts/bench-subset.mjs <bench> [name,name]');
  process.exit(2);
}
if (only) process.env.SLMESH_BENCH_ONLY = only;
const mod = await import(pathToFileURL(join(root, 'bench', `${name}.bench.mjs`)).href);
const { markdown } = await mod.run({ root, log: (s) => console.error(`  ${s}`) });
console.log(markdown);
