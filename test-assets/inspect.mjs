#!/usr/bin/env node
// Inspect the GLB test assets without Blender and without dependencies.
//
//   node test-assets/inspect.mjs                 # every .glb under test-assets/
//   node test-assets/inspect.mjs a.glb b.glb     # just these
//   node test-assets/inspect.mjs --check         # also run the sanity checks below
//   node test-assets/inspect.mjs --brief         # one line per mesh node
//
// For each file: nodes (hierarchy), meshes + primitive counts, materials,
// accessor count, triangle counts, and the world-space AABB of every mesh
// node (node TRS/matrix chain applied to the 8 corners of the POSITION
// accessor min/max box - conservative but good enough). glTF is Y-up: a
// Blender point (x, y, z) appears here as (x, z, -y).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- GLB parsing

export function parseGlb(buf) {
  if (buf.length < 12) throw new Error(`file too short for a GLB header (${buf.length} bytes)`);
  const magic = buf.toString('latin1', 0, 4);
  if (magic !== 'glTF') throw new Error(`bad magic ${JSON.stringify(magic)}`);
  const version = buf.readUInt32LE(4);
  if (version !== 2) throw new Error(`unsupported GLB version ${version}`);
  const length = buf.readUInt32LE(8);
  if (length !== buf.length) throw new Error(`header length ${length} != file size ${buf.length}`);
  let off = 12;
  let json = null;
  let bin = null;
  while (off < length) {
    if (off + 8 > length) throw new Error(`truncated chunk header at ${off}`);
    const chunkLen = buf.readUInt32LE(off);
    const chunkType = buf.readUInt32LE(off + 4);
    const start = off + 8;
    if (start + chunkLen > length) throw new Error(`chunk at ${off} overruns file`);
    const data = buf.subarray(start, start + chunkLen);
    if (chunkType === 0x4e4f534a)
      json = data; // "JSON"
    else if (chunkType === 0x004e4942) bin = data; // "BIN\0"
    off = start + chunkLen;
  }
  if (!json) throw new Error('no JSON chunk');
  let gltf;
  try {
    gltf = JSON.parse(json.toString('utf8'));
  } catch (e) {
    throw new Error(`JSON chunk does not parse: ${e.message}`);
  }
  return { gltf, bin };
}

// ---------------------------------------------------------------- matrices (column-major, like glTF)

function mul(a, b) {
  const r = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let rI = 0; rI < 4; rI++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + rI] * b[c * 4 + k];
      r[c * 4 + rI] = s;
    }
  return r;
}

function trs(node) {
  if (node.matrix) return node.matrix.slice();
  const [tx, ty, tz] = node.translation ?? [0, 0, 0];
  const [x, y, z, w] = node.rotation ?? [0, 0, 0, 1];
  const [sx, sy, sz] = node.scale ?? [1, 1, 1];
  const r = [
    1 - 2 * (y * y + z * z),
    2 * (x * y + z * w),
    2 * (x * z - y * w),
    2 * (x * y - z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z + x * w),
    2 * (x * z + y * w),
    2 * (y * z - x * w),
    1 - 2 * (x * x + y * y),
  ];
  return [
    r[0] * sx,
    r[1] * sx,
    r[2] * sx,
    0,
    r[3] * sy,
    r[4] * sy,
    r[5] * sy,
    0,
    r[6] * sz,
    r[7] * sz,
    r[8] * sz,
    0,
    tx,
    ty,
    tz,
    1,
  ];
}

function apply(m, [x, y, z]) {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
  ];
}

// ---------------------------------------------------------------- analysis

export function analyse(gltf) {
  const nodes = gltf.nodes ?? [];
  const meshes = gltf.meshes ?? [];
  const accessors = gltf.accessors ?? [];
  const parentOf = new Map();
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => parentOf.set(c, i)));
  const world = new Map();
  const worldOf = (i) => {
    if (!world.has(i)) {
      const local = trs(nodes[i]);
      world.set(i, parentOf.has(i) ? mul(worldOf(parentOf.get(i)), local) : local);
    }
    return world.get(i);
  };
  const meshNodes = [];
  nodes.forEach((n, i) => {
    if (n.mesh === undefined) return;
    const mesh = meshes[n.mesh];
    const m = worldOf(i);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    let tris = 0;
    let verts = 0;
    for (const p of mesh.primitives) {
      const pos = accessors[p.attributes.POSITION];
      verts += pos.count;
      const mode = p.mode ?? 4;
      const n = p.indices !== undefined ? accessors[p.indices].count : pos.count;
      if (mode === 4) tris += n / 3;
      for (let c = 0; c < 8; c++) {
        const corner = [0, 1, 2].map((k) => ((c >> k) & 1 ? pos.max[k] : pos.min[k]));
        const w = apply(m, corner);
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], w[k]);
          hi[k] = Math.max(hi[k], w[k]);
        }
      }
    }
    meshNodes.push({
      index: i,
      name: n.name,
      parent: parentOf.has(i) ? nodes[parentOf.get(i)].name : null,
      mesh: mesh.name,
      meshIndex: n.mesh,
      primitives: mesh.primitives.length,
      materials: mesh.primitives.map((p) => (p.material !== undefined ? gltf.materials[p.material].name : null)),
      attributes: Object.keys(mesh.primitives[0].attributes).sort(),
      verts,
      tris,
      min: lo,
      max: hi,
      size: hi.map((v, k) => v - lo[k]),
      center: hi.map((v, k) => (v + lo[k]) / 2),
    });
  });
  return { nodes, meshes, accessors, meshNodes };
}

// ---------------------------------------------------------------- printing

const f = (v) => (Math.abs(v) < 5e-7 ? 0 : v).toFixed(3);
const vec = (v) => `(${v.map(f).join(', ')})`;

function printFile(rel, size, gltf, a, brief) {
  const scene = gltf.scenes?.[gltf.scene ?? 0];
  console.log(`\n== ${rel}  (${size} bytes, generator: ${gltf.asset?.generator ?? '?'})`);
  console.log(
    `   nodes ${a.nodes.length}, mesh nodes ${a.meshNodes.length}, meshes ${a.meshes.length}, ` +
      `materials ${(gltf.materials ?? []).length} [${(gltf.materials ?? []).map((m) => m.name).join(', ')}], ` +
      `accessors ${a.accessors.length}, triangles ${a.meshNodes.reduce((s, m) => s + m.tris, 0)}`,
  );
  if (!brief) {
    const tree = (i, depth) => {
      const n = a.nodes[i];
      const t = [];
      if (n.translation) t.push(`T${vec(n.translation)}`);
      if (n.rotation) t.push(`R${vec(n.rotation)}`);
      if (n.scale) t.push(`S${vec(n.scale)}`);
      if (n.matrix) t.push('matrix');
      console.log(
        `   ${'  '.repeat(depth)}- ${n.name}${n.mesh !== undefined ? ` [mesh ${n.mesh} "${a.meshes[n.mesh].name}"]` : ''} ${t.join(' ')}`,
      );
      (n.children ?? []).forEach((c) => tree(c, depth + 1));
    };
    const roots = scene?.nodes ?? [];
    if (roots.length > 12) {
      roots.slice(0, 5).forEach((r) => tree(r, 0));
      console.log(`   ... ${roots.length - 5} more root nodes`);
    } else roots.forEach((r) => tree(r, 0));
  }
  const list = a.meshNodes.length > 12 ? [...a.meshNodes.slice(0, 4), null, ...a.meshNodes.slice(-2)] : a.meshNodes;
  for (const m of list) {
    if (!m) {
      console.log(`   ... ${a.meshNodes.length - 6} more mesh nodes`);
      continue;
    }
    console.log(
      `   ${m.name.padEnd(10)} prims ${m.primitives} mats [${m.materials.join(', ')}] ` +
        `verts ${m.verts} tris ${m.tris}  world min ${vec(m.min)} max ${vec(m.max)} size ${vec(m.size)}` +
        (brief ? '' : `  attrs ${m.attributes.join(',')}`),
    );
  }
  if (a.meshNodes.length > 12) {
    const lo = [0, 1, 2].map((k) => Math.min(...a.meshNodes.map((m) => m.min[k])));
    const hi = [0, 1, 2].map((k) => Math.max(...a.meshNodes.map((m) => m.max[k])));
    const shared = new Set(a.meshNodes.map((m) => m.meshIndex)).size;
    console.log(`   all mesh nodes: world min ${vec(lo)} max ${vec(hi)}; distinct meshes used: ${shared}`);
  }
}

// ---------------------------------------------------------------- checks

const near = (a, b, eps = 1e-3) => Math.abs(a - b) <= eps;
const nearV = (a, b, eps) => a.every((v, k) => near(v, b[k], eps));

const CHECKS = {
  'cube.glb': (a) =>
    a.meshNodes.length === 1 && a.meshNodes[0].name === 'Cube' && nearV(a.meshNodes[0].size, [1, 1, 1]),
  'chair.glb': (a, g) => {
    const names = a.meshNodes
      .map((m) => m.name)
      .sort()
      .join();
    const seat = a.meshNodes.find((m) => m.name === 'Seat');
    const leg = a.meshNodes.find((m) => m.name === 'Leg_FL');
    return (
      names === 'Back,Leg_BL,Leg_BR,Leg_FL,Leg_FR,Seat' &&
      g.materials.length === 2 &&
      seat.primitives === 2 &&
      near(seat.max[1], 0.45) && // seat top at 0.45 m (glTF Y-up)
      near(leg.min[1], 0) &&
      leg.tris > 12 // bevel applied
    );
  },
  'two-cubes-60m.glb': (a) => {
    const [A, B] = ['CubeA', 'CubeB'].map((n) => a.meshNodes.find((m) => m.name === n));
    return nearV(A.center, [0, 0, 0]) && nearV(B.center, [60, 0, 0]);
  },
  'prims-300.glb': (a) =>
    a.meshNodes.length === 300 &&
    a.meshNodes.every((m) => /^P\d{3}$/.test(m.name) && nearV(m.size, [0.1, 0.1, 0.1])) &&
    new Set(a.meshNodes.map((m) => m.name)).size === 300,
  'beveled-cube-3mat.glb': (a) =>
    a.meshNodes.length === 1 && a.meshNodes[0].name === 'BevelCube' && a.meshNodes[0].primitives === 3,
  'lod-authored.glb': (a) => {
    const want = { Ball: 3968, Ball_LOD2: 960, Ball_LOD1: 224, Ball_LOD0: 48, Ball_PHYS: 12 };
    return (
      a.meshNodes.length === 5 &&
      a.meshNodes.every((m) => want[m.name] === m.tris && nearV(m.center, [0, 0, 0])) &&
      new Set(a.meshNodes.map((m) => m.materials.join())).size === 1
    );
  },
  'vase.glb': (a) =>
    a.meshNodes.length === 1 &&
    a.meshNodes[0].name === 'Vase' &&
    a.meshNodes[0].tris > 1800 &&
    a.meshNodes[0].tris < 2200,
  'vase_LOD2.glb': (a) => a.meshNodes[0]?.name === 'Vase_LOD2',
  'vase_LOD1.glb': (a) => a.meshNodes[0]?.name === 'Vase_LOD1',
  'vase_LOD0.glb': (a) => a.meshNodes[0]?.name === 'Vase_LOD0',
  'vase_PHYS.glb': (a) =>
    a.meshNodes[0]?.name === 'Vase_PHYS' && a.meshNodes[0].tris === 44 /* 12 side quads + two 12-gon caps */,
  'column-10m.glb': (a) =>
    a.meshNodes[0]?.name === 'Column' && near(a.meshNodes[0].size[1], 10) && near(a.meshNodes[0].size[0], 1),
  'bead-5cm.glb': (a) => a.meshNodes[0]?.name === 'Bead' && nearV(a.meshNodes[0].size, [0.05, 0.05, 0.05], 2e-3),
  'rotated-scaled.glb': (a) => {
    const c = a.meshNodes[0];
    const s = 2 * Math.SQRT2;
    // Blender AABB x,y in [0, 2.828], z in [-0.5, 1.5]  ->  glTF (x, z, -y)
    return c?.name === 'Child' && c.parent === 'Parent' && nearV(c.min, [0, -0.5, -s]) && nearV(c.max, [s, 1.5, 0]);
  },
  'suzanne.glb': (a) => a.meshNodes[0]?.name === 'Suzanne' && a.meshNodes[0].tris > 7000,
  'lower-cabinet.glb': (a) =>
    a.meshNodes[0]?.name === 'Cabinet' &&
    a.meshNodes[0].tris === 498 &&
    a.meshNodes[0].primitives === 7 &&
    nearV(a.meshNodes[0].size, [0.6, 0.885, 0.612], 2e-3),
  'bookcase-shelf.glb': (a) =>
    a.meshNodes[0]?.name === 'Shelf' &&
    a.meshNodes[0].tris === 308 &&
    nearV(a.meshNodes[0].size, [0.919, 1.445, 0.32], 2e-3),
};

// Vase LOD files must get smaller in order.
function checkVaseOrder(results) {
  const t = ['vase.glb', 'vase_LOD2.glb', 'vase_LOD1.glb', 'vase_LOD0.glb'].map(
    (n) => results.get(n)?.meshNodes[0]?.tris,
  );
  return t.every((v, i) => v !== undefined && (i === 0 || v < t[i - 1]));
}

// ---------------------------------------------------------------- main

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.glb') ? [p] : [];
    });
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const brief = args.includes('--brief');
const files = args.filter((x) => !x.startsWith('--'));
const list = files.length ? files : walk(HERE);
const results = new Map();
let failures = 0;

for (const file of list) {
  const rel = relative(HERE, file);
  const buf = readFileSync(file);
  let parsed;
  try {
    parsed = parseGlb(buf);
  } catch (e) {
    console.log(`\n== ${rel}  (${buf.length} bytes)\n   REJECTED: ${e.message}`);
    if (check) {
      const ok = rel.startsWith('broken');
      console.log(`   check: ${ok ? 'PASS (expected to be rejected)' : 'FAIL'}`);
      if (!ok) failures++;
    }
    continue;
  }
  const a = analyse(parsed.gltf);
  results.set(rel, a);
  printFile(rel, buf.length, parsed.gltf, a, brief);
  if (check) {
    const fn = CHECKS[rel];
    const ok = rel.startsWith('broken') ? false : fn ? fn(a, parsed.gltf) : true;
    console.log(`   check: ${ok ? 'PASS' : 'FAIL'}`);
    if (!ok) failures++;
  }
}

if (check && !files.length) {
  const ok = checkVaseOrder(results);
  console.log(`\nvase LOD triangle counts strictly decreasing: ${ok ? 'PASS' : 'FAIL'}`);
  if (!ok) failures++;
  console.log(failures ? `\n${failures} check(s) FAILED` : '\nall checks passed');
  process.exitCode = failures ? 1 : 0;
}
