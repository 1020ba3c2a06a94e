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
import { editGlbJson, isGlbWithJson } from './glb-json.mjs';

const MODEL_EXTENSIONS = new Set(
  'obj 3ds ase ac b3d cob dae lwo md2 ms3d off ply q3d smd stl x xgl 3mf'.split(' ').map((e) => `.${e}`),
);

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

/** Drops images, textures, samplers and every material's texture reference from the GLB at `file`; false when it had none. */
function withoutTextures(file) {
  const b = readFileSync(file);
  if (!isGlbWithJson(b)) return false;
  let had = false;
  const glb = editGlbJson(b, (json) => {
    if (!json.images && !json.textures) return;
    had = true;
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
  });
  if (had) writeFileSync(file, glb);
  return had;
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
