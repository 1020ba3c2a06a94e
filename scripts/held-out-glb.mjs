#!/usr/bin/env node
/**
 * `node scripts/held-out-glb.mjs <out-folder> <file or folder>...`: converts every model file found
 * (OBJ, 3DS, ASE, AC, B3D, COB, DAE, LWO, MD2, MS3D, OFF, PLY, Q3D, SMD, STL, X, XGL, 3MF) to a GLB
 * in <out-folder> with Debian's `assimp export <file> <out>.glb -fglb2` (package assimp-utils),
 * then drops its images and texture references: the land-impact benchmark measures geometry, and
 * optimize refuses a model whose texture files are missing. The folder is then a held-out set for
 * `SLMESH_BENCH_EXTRA=<out-folder> node scripts/bench-subset.mjs land-impact extra/`.
 *
 * Each GLB is named <parent folder>_<file name>.glb (numbered when two files share that). Prints one line per file (converted, or why
 * not) and a count.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

const MODEL_EXTENSIONS = new Set(
  'obj 3ds ase ac b3d cob dae lwo md2 ms3d off ply q3d smd stl x xgl 3mf'.split(' ').map((e) => `.${e}`),
);
const GLB_MAGIC = 0x46546c67;
const JSON_CHUNK = 0x4e4f534a;

const [outArg, ...inputs] = process.argv.slice(2);
if (!outArg || inputs.length === 0) {
  console.error('usage: node scripts/held-out-glb.mjs <out-folder> <file or folder>...');
  process.exit(2);
}
const out = resolve(outArg);
mkdirSync(out, { recursive: true });

/** Model files under `path` (or `path` itself), sorted. */
function modelFiles(path) {
  if (!statSync(path).isDirectory()) return MODEL_EXTENSIONS.has(extname(path).toLowerCase()) ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => modelFiles(join(path, name)));
}

/** The GLB at `file` without images, textures, samplers or any material's texture reference. */
function withoutTextures(file) {
  const b = readFileSync(file);
  if (b.length < 20 || b.readUInt32LE(0) !== GLB_MAGIC || b.readUInt32LE(16) !== JSON_CHUNK) return false;
  const jsonLength = b.readUInt32LE(12);
  const json = JSON.parse(b.subarray(20, 20 + jsonLength).toString('utf8'));
  if (!json.images && !json.textures) return false;
  delete json.images;
  delete json.textures;
  delete json.samplers;
  const strip = (o) => {
    if (!o || typeof o !== 'object') return;
    for (const k of Object.keys(o)) {
      if (k.endsWith('Texture')) delete o[k];
      else strip(o[k]);
    }
  };
  strip(json.materials);
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const rest = b.subarray(20 + jsonLength);
  const glb = Buffer.alloc(20 + text.length + rest.length);
  glb.writeUInt32LE(GLB_MAGIC, 0);
  glb.writeUInt32LE(2, 4);
  glb.writeUInt32LE(glb.length, 8);
  glb.writeUInt32LE(text.length, 12);
  glb.writeUInt32LE(JSON_CHUNK, 16);
  text.copy(glb, 20);
  rest.copy(glb, 20 + text.length);
  writeFileSync(file, glb);
  return true;
}

let converted = 0,
  failed = 0;
const used = new Set();
for (const input of inputs) {
  for (const file of modelFiles(resolve(input))) {
    const stem = `${basename(dirname(file))}_${basename(file, extname(file))}`.replace(/[^A-Za-z0-9._-]/g, '_');
    let name = stem;
    for (let i = 2; used.has(name); i++) name = `${stem}_${i}`;
    used.add(name);
    const glb = join(out, `${name}.glb`);
    try {
      // assimp resolves a model's companion files (materials, textures) from its own folder.
      execFileSync('assimp', ['export', file, glb, '-fglb2'], { cwd: dirname(file), stdio: 'pipe', timeout: 60_000 });
      if (!existsSync(glb)) throw new Error('assimp wrote nothing');
      const stripped = withoutTextures(glb);
      converted++;
      console.log(`${file} -> ${glb}${stripped ? ' (textures dropped)' : ''}`);
    } catch (e) {
      rmSync(glb, { force: true });
      failed++;
      const why = String(e.stderr ?? e.message ?? e)
        .trim()
        .split('\n')
        .pop();
      console.log(`${file}: not converted (${why})`);
    }
  }
}
console.log(`${converted} converted, ${failed} not, into ${out}`);
process.exit(converted > 0 ? 0 : 1);
