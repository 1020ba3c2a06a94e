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
const sources = Math.max(
  ...tsPackages.map((p) => newest(join(root, 'packages', p, 'src'))),
  newest(join(root, 'packages/preview/src')),
);
const tsBuilt = Math.min(
  ...tsPackages.map((p) => built(join(root, 'packages', p, 'tsconfig.tsbuildinfo'))),
  built(join(root, 'packages/preview/dist/app.js')),
);
// `pnpm build`'s order: the CLI depends on the preview package's build.
if (process.argv.includes('--force') || sources > tsBuilt) {
  const tsc = require.resolve('typescript/bin/tsc');
  const tscBuild = (...pkgs) =>
    execFileSync(process.execPath, [tsc, '-b', ...pkgs.map((p) => join(root, 'packages', p))], { stdio: 'inherit' });
  tscBuild('core', 'gltf-plugin');
  execFileSync(process.execPath, [join(root, 'packages/preview/build.mjs')], { stdio: 'inherit' });
  tscBuild('cli');
}
