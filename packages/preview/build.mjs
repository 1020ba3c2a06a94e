#!/usr/bin/env node
/**
 * Builds the preview page's script and style: type-checks src/ (tsc --noEmit), then bundles
 * src/main.ts with three.js and @slmesh/core (from source) into one minified browser script,
 * dist/app.js, and src/style.css into dist/app.css. `slmesh preview` inlines both into its
 * self-contained HTML file. src/payload.ts is also compiled to dist/lib (`@slmesh/preview/payload`).
 *
 * The page is inlined in a <script> element, so the bundle must not contain `</script` or `<!--`
 * (either would end or derail the element): the build fails if it does.
 *
 * Usage: node packages/preview/build.mjs [--no-typecheck]
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const require = createRequire(import.meta.url);

// 1. Type-check (the bundler only strips types).
if (!process.argv.includes('--no-typecheck')) {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('preview: type errors (see above)');
    process.exit(1);
  }
}

// 1b. The payload module (the page's data format: types, version, encoder, decoder) as a Node/ESM
//     library with declarations, dist/lib/payload.js: `@slmesh/preview/payload`, used by the CLI.
{
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.lib.json')], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('preview: the payload library did not compile (see above)');
    process.exit(1);
  }
}

// 2. Bundle the page script: one IIFE, core from source, three from the root node_modules.
mkdirSync(dist, { recursive: true });
const result = await build({
  entryPoints: [join(here, 'src/main.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'eof',
  charset: 'utf8',
  alias: { '@slmesh/core': join(here, '../core/src/index.ts') },
  write: false,
  logLevel: 'warning',
});
const js = result.outputFiles[0].text;
for (const bad of ['</script', '<!--']) {
  if (js.toLowerCase().includes(bad)) {
    console.error(`preview: the bundle contains "${bad}", which would break the inline <script>`);
    process.exit(1);
  }
}
writeFileSync(join(dist, 'app.js'), js);

// 3. The style sheet, minified.
const css = await build({
  entryPoints: [join(here, 'src/style.css')],
  bundle: true,
  minify: true,
  write: false,
  logLevel: 'warning',
});
const cssText = css.outputFiles[0].text;
if (cssText.toLowerCase().includes('</style')) {
  console.error('preview: the style sheet contains "</style"');
  process.exit(1);
}
writeFileSync(join(dist, 'app.css'), cssText);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`preview: dist/app.js ${kb(Buffer.byteLength(js))}, dist/app.css ${kb(Buffer.byteLength(cssText))}`);
