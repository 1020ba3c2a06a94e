#!/usr/bin/env node
/**
 * Builds zlib-ng from a local source tree and writes the golden vectors that
 * packages/core/test/asset/zlib-ng-deflate.test.ts checks the TypeScript deflate against.
 *
 *   pnpm build
 *   node tools/zlib-ng-vectors/build-and-write.mjs /path/to/zlib-ng-2.2.2   (or ZLIB_NG_SRC=...)
 *
 * Fetches nothing. Needs cmake, a C compiler (cc / $CC) and the built packages (for the test
 * assets' blocks). Writes packages/core/test/vectors/zlib-ng/{manifest.json,assets.bin}.
 *
 * Guarantees: every vector is the output of zlib-ng built twice, with its default optimisations
 * (SSE2/AVX2 compare256 etc. where the machine has them) and with WITH_OPTIM=OFF (generic C);
 * the script stops if the two builds ever disagree, or if the source is not zlib-ng 2.2.2.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const vectorDir = join(root, 'packages/core/test/vectors/zlib-ng');
const EXPECTED_VERSION = '2.2.2';
/** Outputs up to this size are stored as bytes (base64); larger ones as length + SHA-256. */
const INLINE_MAX = 1024;

const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const log = (s) => console.error(`zlib-ng-vectors: ${s}`);

// 1. The source tree, and its version.
const src = resolve(process.argv[2] ?? process.env.ZLIB_NG_SRC ?? '');
if (!process.argv[2] && !process.env.ZLIB_NG_SRC) {
  console.error('usage: node tools/zlib-ng-vectors/build-and-write.mjs <zlib-ng source dir>   (or ZLIB_NG_SRC=<dir>)');
  process.exit(2);
}
const header = readFileSync(join(src, 'zlib-ng.h.in'), 'utf8');
const version = /#define ZLIBNG_VERSION "([^"]+)"/.exec(header)?.[1];
if (version !== EXPECTED_VERSION) {
  console.error(`zlib-ng-vectors: ${src} is zlib-ng ${version ?? '(unknown)'}, expected ${EXPECTED_VERSION}`);
  process.exit(2);
}

// 2. Two builds (optimised, generic) and the compressor linked against each.
const work = mkdtempSync(join(tmpdir(), 'zlib-ng-vectors-'));
function build(name, extra) {
  const dir = join(work, name);
  log(`building zlib-ng ${version} (${name}) in ${dir}`);
  const common = [
    '-DZLIB_COMPAT=ON',
    '-DBUILD_SHARED_LIBS=OFF',
    '-DCMAKE_BUILD_TYPE=Release',
    '-DZLIB_ENABLE_TESTS=OFF',
    '-DZLIBNG_ENABLE_TESTS=OFF',
    '-DWITH_GTEST=OFF',
  ];
  execFileSync('cmake', ['-S', src, '-B', dir, ...common, ...extra], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('cmake', ['--build', dir, '-j', '8'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const bin = join(dir, 'zng-compress');
  execFileSync(
    process.env.CC ?? 'cc',
    ['-O2', '-I', dir, '-o', bin, join(here, 'zng-compress.c'), join(dir, 'libz.a')],
    { stdio: 'inherit' },
  );
  const reported = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (!reported.includes('zlib-ng')) throw new Error(`${bin} reports ${reported}, not zlib-ng`);
  return bin;
}

/** Compresses blocks in one process: [u32 len][bytes]... in, the same framing out. */
function compressAll(bin, blocks) {
  const parts = [];
  for (const b of blocks) {
    const h = Buffer.alloc(4);
    h.writeUInt32LE(b.length);
    parts.push(h, b);
  }
  const r = spawnSync(bin, { input: Buffer.concat(parts), maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${bin} failed: ${r.stderr}`);
  const out = [];
  for (let p = 0; p < r.stdout.length; ) {
    const n = r.stdout.readUInt32LE(p);
    out.push(r.stdout.subarray(p + 4, p + 4 + n));
    p += 4 + n;
  }
  if (out.length !== blocks.length) throw new Error(`${bin} returned ${out.length} blocks for ${blocks.length}`);
  return out;
}

// 3. The test assets' blocks: everything the cost report hands to deflate, recorded.
async function assetBlocks() {
  const dist = join(root, 'packages/gltf-plugin/dist/node.js');
  if (!existsSync(dist)) throw new Error('run `pnpm build` first (the asset blocks come from the built encoder)');
  const { reportFile } = await import(pathToFileURL(dist).href);
  const { zlibNgDeflate } = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href);
  const seen = new Set();
  const blocks = [];
  const files = readdirSync(join(root, 'test-assets'))
    .filter((f) => f.endsWith('.glb'))
    .sort();
  for (const file of files) {
    let k = 0;
    const deflate = (data, level) => {
      const h = sha256(data);
      if (!seen.has(h)) {
        seen.add(h);
        blocks.push({ name: `${file}#${k++}`, kind: 'asset', input: Buffer.from(data) });
      }
      return zlibNgDeflate(data, level); // the project's deflate, so the planner sees real sizes
    };
    await reportFile(join(root, 'test-assets', file), { deflate });
  }
  return blocks;
}

try {
  const optimised = build('optim', []);
  const generic = build('generic', ['-DWITH_OPTIM=OFF']);

  const { generatedCases, makeInput } = await import(pathToFileURL(join(vectorDir, 'inputs.mjs')).href);
  const assets = await assetBlocks();
  const generated = generatedCases().map((c) => ({ ...c, input: Buffer.from(makeInput(c)) }));
  const all = [...assets, ...generated];
  log(`${assets.length} asset blocks, ${generated.length} generated blocks`);

  // 4. Compress with both builds; they must agree.
  const outA = compressAll(
    optimised,
    all.map((b) => b.input),
  );
  const outB = compressAll(
    generic,
    all.map((b) => b.input),
  );
  all.forEach((b, i) => {
    if (!outA[i].equals(outB[i])) throw new Error(`optimised and generic zlib-ng differ on ${b.name}`);
  });
  log('optimised and generic builds agree on every block');

  // 5. Write: asset outputs as bytes (the input is their inflation), generated ones by seed.
  const assetParts = [];
  let offset = 0;
  const vectors = all.map((b, i) => {
    const out = outA[i];
    const v = {
      name: b.name,
      kind: b.kind,
      inputLength: b.input.length,
      inputSha256: sha256(b.input),
      outputLength: out.length,
      outputSha256: sha256(out),
    };
    if (b.kind === 'asset') {
      assetParts.push(out);
      Object.assign(v, { assetOffset: offset });
      offset += out.length;
    } else {
      Object.assign(v, { seed: b.seed, length: b.length });
      if (out.length <= INLINE_MAX) v.output = out.toString('base64');
    }
    return v;
  });
  const manifest = {
    '//': 'Written by tools/zlib-ng-vectors/build-and-write.mjs; do not edit. Outputs of zlib-ng deflateInit(9) + deflate(Z_FINISH).',
    zlibNg: version,
    builds: ['default optimisations', 'WITH_OPTIM=OFF'],
    vectors,
  };
  writeFileSync(join(vectorDir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  writeFileSync(join(vectorDir, 'assets.bin'), Buffer.concat(assetParts));
  log(`wrote ${vectors.length} vectors (${(offset / 1024).toFixed(0)} KiB of asset outputs) to ${vectorDir}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
