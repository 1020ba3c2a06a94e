#!/usr/bin/env node
/**
 * `pnpm pack-all`: one installable tarball per public package in artifacts/ (gitignored):
 * @slmesh/core, @slmesh/gltf-plugin, @slmesh/preview (the built preview page) and @slmesh/cli.
 *
 * 1. Builds everything (tsc -b and the preview bundle), unless --no-build.
 * 2. Copies the JSON schemas the reports and budgets point to (docs/*.schema.json) into the
 *    packages that produce those files: cost-report into gltf-plugin and cli, budget into cli.
 * 3. `pnpm pack` per package: pnpm replaces `workspace:*` with the real version (`0.1.0`);
 *    the packed package.json files are checked for any `workspace:` left, which plain npm
 *    cannot install.
 *
 * Install the result with plain npm: `npm install -g ./artifacts/*.tgz` (the `./` matters: npm
 * reads `artifacts/x.tgz` as a GitHub repository). `--out DIR` writes elsewhere.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'artifacts');
const PACKAGES = ['core', 'gltf-plugin', 'preview', 'cli'];
const SCHEMAS = { 'gltf-plugin': ['cost-report.schema.json'], cli: ['cost-report.schema.json', 'budget.schema.json'] };
const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';

// 1. Build.
if (!process.argv.includes('--no-build')) {
  const r = spawnSync(pnpm, ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// 2. Schemas.
for (const [pkg, files] of Object.entries(SCHEMAS)) {
  const dir = join(root, 'packages', pkg, 'schemas');
  mkdirSync(dir, { recursive: true });
  for (const f of files) copyFileSync(join(root, 'docs', f), join(dir, f));
}

// 3. Pack.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const pkg of PACKAGES) {
  execFileSync(pnpm, ['pack', '--pack-destination', out], {
    cwd: join(root, 'packages', pkg),
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
}
const tarballs = readdirSync(out)
  .filter((f) => f.endsWith('.tgz'))
  .sort();
for (const t of tarballs) {
  const manifest = execFileSync('tar', ['-xOzf', join(out, t), 'package/package.json'], { encoding: 'utf8' });
  if (manifest.includes('workspace:')) {
    console.error(`pack-all: ${t} still has a workspace: range, which npm cannot install`);
    process.exit(1);
  }
}
console.log(tarballs.map((t) => join(out, t)).join('\n'));
