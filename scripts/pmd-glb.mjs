#!/usr/bin/env node
/**
 * `node scripts/pmd-glb.mjs <out-folder> <file.pmd>...`: converts 0 A.D.'s cached meshes (PMD, the
 * binary format the game caches its COLLADA art as; Debian's `0ad-data` ships only these, inside
 * /usr/share/games/0ad/mods/public/public.zip) to GLB files in <out-folder>, one mesh each:
 * positions, normals, the first UV set, one material. A held-out set for
 * `SLMESH_BENCH_EXTRA=<out-folder> node scripts/bench-subset.mjs land-impact|physics extra/`.
 *
 * PMD (versions 1 to 4): "PSMD", version, data size; vertex count, (version 4) UV-set count;
 * per vertex position, normal (3 floats each), UV sets (2 floats each), four bone indices (bytes)
 * and four weights (floats); face count, three u16 indices a face; bones and prop points follow
 * (not read: the meshes are taken in their rest pose). The game is left-handed (x right, y up,
 * z forward): z is mirrored, and the triangles wound so that most agree with the vertex normals.
 * A mesh with no area is skipped (0 A.D.'s foundation placeholders, one 4 mm triangle, are not:
 * leave them out by name).
 */

import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// glTF-Transform as the gltf-plugin package has it (the monorepo's root does not list it).
const plugin = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'gltf-plugin', 'package.json');
const { Document, NodeIO } = await import(pathToFileURL(createRequire(plugin).resolve('@gltf-transform/core')).href);

const [outArg, ...files] = process.argv.slice(2);
if (!outArg || files.length === 0) {
  console.error('usage: node scripts/pmd-glb.mjs <out-folder> <file.pmd>...');
  process.exit(2);
}
const out = resolve(outArg);
mkdirSync(out, { recursive: true });

/** The mesh of a PMD file: positions and normals (3 a vertex), uvs (2), indices; or why not. */
function readPmd(bytes) {
  if (bytes.length < 20 || bytes.toString('latin1', 0, 4) !== 'PSMD') return 'not a PMD file';
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(4, true);
  if (version < 1 || version > 4) return `PMD version ${version} (1 to 4 are read)`;
  let o = 12;
  const n = dv.getUint32(o, true);
  o += 4;
  const uvSets = version >= 4 ? dv.getUint32(o, true) : 1;
  if (version >= 4) o += 4;
  const stride = 24 + 8 * uvSets + 20;
  if (uvSets < 1 || o + n * stride + 4 > bytes.length) return 'truncated vertices';
  const positions = new Float32Array(n * 3),
    normals = new Float32Array(n * 3),
    uvs = new Float32Array(n * 2);
  for (let i = 0; i < n; i++, o += stride) {
    for (let k = 0; k < 3; k++) {
      positions[i * 3 + k] = dv.getFloat32(o + 4 * k, true);
      normals[i * 3 + k] = dv.getFloat32(o + 12 + 4 * k, true);
    }
    uvs[i * 2] = dv.getFloat32(o + 24, true);
    uvs[i * 2 + 1] = dv.getFloat32(o + 28, true);
    // Left-handed to right-handed.
    positions[i * 3 + 2] = -positions[i * 3 + 2];
    normals[i * 3 + 2] = -normals[i * 3 + 2];
  }
  const faces = dv.getUint32(o, true);
  o += 4;
  if (o + faces * 6 > bytes.length) return 'truncated faces';
  const indices = new Uint32Array(faces * 3);
  for (let i = 0; i < faces * 3; i++) {
    indices[i] = dv.getUint16(o + 2 * i, true);
    if (indices[i] >= n) return `face ${Math.floor(i / 3)} names vertex ${indices[i]} of ${n}`;
  }
  return { positions, normals, uvs, indices };
}

/** Turns every triangle over when most disagree with their vertex normals (the mirror flipped them); false when the mesh has no area. */
function windWithNormals({ positions: p, normals: nm, indices }) {
  let agree = 0,
    area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t] * 3, indices[t + 1] * 3, indices[t + 2] * 3];
    const e1 = [0, 1, 2].map((k) => p[b + k] - p[a + k]);
    const e2 = [0, 1, 2].map((k) => p[c + k] - p[a + k]);
    const cross = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    area += Math.hypot(...cross);
    let dot = 0;
    for (let k = 0; k < 3; k++) dot += cross[k] * (nm[a + k] + nm[b + k] + nm[c + k]);
    agree += dot >= 0 ? 1 : -1;
  }
  if (agree < 0)
    for (let t = 0; t < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
  return area > 0;
}

const io = new NodeIO();
let converted = 0;
for (const file of files) {
  const name = basename(file).replace(/(\.dae)?(\.cached)?\.pmd$/i, '');
  const mesh = readPmd(readFileSync(file));
  if (typeof mesh === 'string') {
    console.log(`${file}: skipped (${mesh})`);
    continue;
  }
  if (!windWithNormals(mesh)) {
    console.log(`${file}: skipped (no area: a placeholder)`);
    continue;
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', mesh.positions))
    .setAttribute('NORMAL', accessor('VEC3', mesh.normals))
    .setAttribute('TEXCOORD_0', accessor('VEC2', mesh.uvs))
    .setIndices(accessor('SCALAR', mesh.indices))
    .setMaterial(doc.createMaterial(`${name}_material`));
  doc.createScene().addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
  await io.write(join(out, `${name}.glb`), doc);
  converted++;
  console.log(`${file}: ${name}.glb, ${mesh.indices.length / 3} triangles`);
}
console.log(`${converted} of ${files.length} converted into ${out}`);
