#!/usr/bin/env node
/**
 * Builds the workspace (`pnpm build`'s steps) when any package's source is newer than its build,
 * so tests that spawn the built `slmesh` never run stale code after an edit. Used by vitest's
 * global setup; cheap when nothing changed (one walk of the source trees).
 *
 * Usage: node scripts/build-if-stale.mjs [--force]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Newest modification time of the files below `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let t = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else t = Math.max(t, statSync(p).mtimeMs);
    }
  }
  return t;
}

/** Oldest build output a package has: its marker file's time, 0 when missing. */
const built = (marker) => (existsSync(marker) ? statSync(marker).mtimeMs : 0);

const tsPackages = ['core', 'gltf-plugin', 'cli'];
const sources = Math.max(...tsPackages.map((p) => newest(join(root, 'packages', p, 'src'))));
const tsBuilt = Math.min(...tsPackages.map((p) => built(join(root, 'packages', p, 'tsconfig.tsbuildinfo'))));
const force = process.argv.includes('--force');
if (force || sources > tsBuilt) {
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', ...tsPackages.map((p) => join(root, 'packages', p))], { stdio: 'inherit' });
}
// The preview page bundles core's source too.
const pageSources = Math.max(newest(join(root, 'packages/preview/src')), newest(join(root, 'packages/core/src')));
if (force || pageSources > built(join(root, 'packages/preview/dist/app.js'))) {
  execFileSync(process.execPath, [join(root, 'packages/preview/build.mjs')], { stdio: 'inherit' });
}
