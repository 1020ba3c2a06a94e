/**
 * `pnpm bench lod`: slmesh's LODs against the viewer's own auto-LODs, and `slmesh optimize`
 * against gltfpack.
 *
 * 1. For each model (the Blender exports of test-assets/ and V-HACD's OBJ meshes) at two sizes
 *    (longest side 0.5 m and 5 m), at RenderVolumeLODFactor 2:
 *    - the viewer-style chain: meshoptimizer to 1/3, 1/9, 1/27 of high's triangles with the
 *      viewer's fallbacks (core viewerAutoLods, after LLModelPreview::genMeshOptimizerLODs);
 *    - its worst screen-space error: the largest, over objects and LODs, of the sampled two-sided
 *      Hausdorff distance to high (core hausdorff.ts) in pixels at the distance the LOD appears
 *      (1080 px tall view, 60 degrees);
 *    - slmesh's chain planned with that worst error as its bound, measured the same way;
 *    - download weight of both from the real encoder (core costReport), the smallest silhouette
 *      coverage of high over LODs and views (core silhouette.ts), and the time to make each chain.
 *    Also slmesh's default chain (1 px) for reference.
 * 2. `slmesh optimize` (no physics) on a ~250k-triangle model, wall time of the command, against
 *    `gltfpack -si 0.25` on the same file in the same run (every gltfpack installed: gltfpack-peers.mjs).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  costReport,
  lodHausdorffDistance,
  lodScreenErrors,
  lodTriangles,
  lodTriangleCount,
  objectBox,
  boxSize,
  emptyBox,
  unionBox,
  radiusOfScale,
  silhouetteReference,
  silhouetteCoverage,
  viewerAutoLods,
  displayedLod,
  zlibNgDeflate,
} from '@slmesh/core';
import { generateModelLods, readModelFile } from '@slmesh/gltf-plugin/node';
import { gltfpackPeers } from './gltfpack-peers.mjs';

const LOD_FACTOR = 2;
const SIZES = [0.5, 5];
/** The models the LOD planner was tuned on: the Blender exports, then V-HACD's meshes. */
export const GLB_MODELS = [
  'suzanne.glb',
  'chair.glb',
  'beveled-cube-3mat.glb',
  'column-10m.glb',
  'bead-5cm.glb',
  'vase.glb',
  'lod-authored.glb',
  'cube.glb',
];
export const OBJ_MODELS = [
  'bunny.obj',
  'teapot.obj',
  'ob_chess_table.obj',
  'ob_chair_gothic.obj',
  'ob_chair_wood.obj',
  'torus1.obj',
  'hose.obj',
  'deer_bound.obj',
  'cow-nonormals.obj',
  'sphere.obj',
];

/** A tiny OBJ reader: v/vt/vn/f (polygons as fans, negative indices), one face per usemtl (at most 8), Y-up to Second Life's Z-up. */
export function readObj(text, name) {
  const v = [],
    vt = [],
    vn = [];
  const groups = new Map();
  let current = 'default';
  const face = (mat) => {
    if (!groups.has(mat))
      groups.set(mat, { key: new Map(), positions: [], normals: [], uvs: [], indices: [], hasN: true, hasT: true });
    return groups.get(mat);
  };
  for (const line of text.split('\n')) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'v') v.push([+t[1], +t[2], +t[3]]);
    else if (t[0] === 'vt') vt.push([+t[1], +(t[2] ?? 0)]);
    else if (t[0] === 'vn') vn.push([+t[1], +t[2], +t[3]]);
    else if (t[0] === 'usemtl') current = t[1] ?? 'default';
    else if (t[0] === 'f') {
      const g = face(current);
      const corners = t
        .slice(1)
        .filter(Boolean)
        .map((c) => {
          const [pi, ti, ni] = c.split('/');
          const ix = (s, n) => (s ? (+s < 0 ? n + +s : +s - 1) : -1);
          const key = `${ix(pi, v.length)}/${ix(ti, vt.length)}/${ix(ni, vn.length)}`;
          let id = g.key.get(key);
          if (id === undefined) {
            id = g.key.size;
            g.key.set(key, id);
            const p = v[ix(pi, v.length)];
            g.positions.push(p[0], -p[2], p[1]);
            const ti2 = ix(ti, vt.length),
              ni2 = ix(ni, vn.length);
            if (ti2 < 0) g.hasT = false;
            if (ni2 < 0) g.hasN = false;
            const uv = vt[ti2] ?? [0, 0];
            g.uvs.push(uv[0], -uv[1]);
            const n = vn[ni2] ?? [0, 0, 1];
            const l = Math.hypot(n[0], n[1], n[2]) || 1;
            g.normals.push(n[0] / l, -n[2] / l, n[1] / l);
          }
          return id;
        });
      for (let i = 1; i + 1 < corners.length; i++) g.indices.push(corners[0], corners[i], corners[i + 1]);
    }
  }
  let faces = [...groups.entries()]
    .filter(([, g]) => g.indices.length)
    .map(([material, g]) => ({
      material,
      positions: Float32Array.from(g.positions),
      ...(g.hasN ? { normals: Float32Array.from(g.normals) } : {}),
      ...(g.hasT ? { uvs: Float32Array.from(g.uvs) } : {}),
      indices: Uint32Array.from(g.indices),
    }));
  if (faces.length > 8) {
    // Second Life objects have at most 8 faces: merge the extra materials into the 8th.
    const rest = faces.slice(7);
    const nv = rest.reduce((a, f) => a + f.positions.length / 3, 0);
    const merged = {
      material: 'merged',
      positions: new Float32Array(nv * 3),
      indices: new Uint32Array(rest.reduce((a, f) => a + f.indices.length, 0)),
    };
    let o = 0,
      io = 0;
    for (const f of rest) {
      merged.positions.set(f.positions, o * 3);
      for (let i = 0; i < f.indices.length; i++) merged.indices[io++] = f.indices[i] + o;
      o += f.positions.length / 3;
    }
    faces = [...faces.slice(0, 7), merged];
  }
  return { objects: [{ name, lods: { high: { faces } } }] };
}

function modelSize(model) {
  return boxSize(model.objects.reduce((b, o) => unionBox(b, objectBox(o)), emptyBox()));
}

/**
 * Worst screen-space error and smallest silhouette coverage of a model's LODs, measured
 * independently of the planner, against the input's high LOD (`input`, the same objects in
 * order): a planned high is itself simplified and its vertices moved, so measuring against it
 * would add its own error to every LOD's.
 */
function measureChain(model, k, input = model) {
  let worst = 0,
    coverage = 1,
    strict = 1;
  for (const [i, o] of model.objects.entries()) {
    const high = input.objects[i].lods.high;
    const radius = radiusOfScale(boxSize(objectBox(o))) * k;
    const highMesh = lodTriangles(high);
    const sil = silhouetteReference(highMesh);
    const silStrict = silhouetteReference(highMesh, { tolerance: 0 });
    const e = {};
    for (const n of ['medium', 'low', 'lowest']) {
      const lod = o.lods[n] ?? o.lods.high;
      e[n] = lodHausdorffDistance(high, lod).distance * k;
      coverage = Math.min(coverage, silhouetteCoverage(sil, lodTriangles(lod)).coverage);
      strict = Math.min(strict, silhouetteCoverage(silStrict, lodTriangles(lod)).coverage);
    }
    worst = Math.max(worst, lodScreenErrors(radius, LOD_FACTOR, e).worst);
  }
  return { worst, coverage, strict };
}

const price = (model, k) =>
  costReport(model, { deflate: zlibNgDeflate, scaleFactors: [k, k, k], lodFactor: LOD_FACTOR }).linkset.streaming;
const tris = (model, n) => model.objects.reduce((a, o) => a + lodTriangleCount(o.lods[n] ?? o.lods.high), 0);
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** `model` with every lower LOD as the viewer shows it (stretched onto its high LOD's box). */
export const shown = (model) => ({
  ...model,
  objects: model.objects.map((o) => ({
    ...o,
    lods: Object.fromEntries(
      Object.entries(o.lods).map(([n, lod]) => [n, n === 'high' || !lod ? lod : displayedLod(o.lods.high, lod)]),
    ),
  })),
});

/** The viewer-style chain, slmesh's at the viewer's worst error, and slmesh's default, for one model at one size. */
export function compareChains(model, size, simplifier, extra = {}) {
  const k = size / Math.max(...modelSize(model));
  let t = performance.now();
  const viewer = { ...model, objects: model.objects.map((o) => viewerAutoLods(o, simplifier).object) };
  const viewerMs = performance.now() - t;
  // Measured as the viewer shows it: each LOD stretched onto high's box (core displayedLod, spec 4b).
  const vm = measureChain(shown(viewer), k);
  t = performance.now();
  const sl = generateModelLods(model, {
    simplifier,
    deflate: zlibNgDeflate,
    maxErrorPx: Math.max(vm.worst, 1e-3),
    viewerBound: false,
    lodFactor: LOD_FACTOR,
    size: { longestSide: size },
    ...extra,
  }).model;
  const slMs = performance.now() - t;
  const sm = measureChain(sl, k, model);
  const def = generateModelLods(model, {
    simplifier,
    deflate: zlibNgDeflate,
    lodFactor: LOD_FACTOR,
    size: { longestSide: size },
    ...extra,
  }).model;
  const dm = measureChain(def, k, model);
  const lodTris = (m) => ['medium', 'low', 'lowest'].map((n) => tris(m, n));
  return {
    high: tris(model, 'high'),
    viewer: { tris: lodTris(viewer), weight: price(viewer, k), ...vm, ms: viewerMs },
    slmesh: { tris: lodTris(sl), weight: price(sl, k), ...sm, ms: slMs },
    def: { tris: lodTris(def), weight: price(def, k), ...dm },
  };
}

/** A smooth bumpy sphere with normals and UVs, `nu * nv * 2` triangles, as a GLB. */
async function makeBigGlb(path, nu, nv, gltf) {
  const pos = new Float32Array((nu + 1) * (nv + 1) * 3),
    nrm = new Float32Array(pos.length),
    uv = new Float32Array((nu + 1) * (nv + 1) * 2);
  let k = 0;
  for (let j = 0; j <= nv; j++)
    for (let i = 0; i <= nu; i++, k++) {
      const th = (Math.PI * j) / nv,
        ph = (2 * Math.PI * i) / nu;
      const r = 1 + 0.03 * Math.sin(8 * th) * Math.sin(8 * ph);
      const x = Math.sin(th) * Math.cos(ph),
        y = Math.sin(th) * Math.sin(ph),
        z = Math.cos(th);
      pos.set([r * x, r * z, -r * y], k * 3);
      nrm.set([x, z, -y], k * 3);
      uv.set([i / nu, j / nv], k * 2);
    }
  const idx = new Uint32Array(nu * nv * 6);
  let o = 0;
  for (let j = 0; j < nv; j++)
    for (let i = 0; i < nu; i++) {
      const a = j * (nu + 1) + i,
        b = a + 1,
        c = a + nu + 1,
        d = c + 1;
      idx.set([a, c, b, b, c, d], o);
      o += 6;
    }
  const doc = new gltf.Document();
  const buf = doc.createBuffer();
  const acc = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buf);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', pos))
    .setAttribute('NORMAL', acc('VEC3', nrm))
    .setAttribute('TEXCOORD_0', acc('VEC2', uv))
    .setIndices(acc('SCALAR', idx))
    .setMaterial(doc.createMaterial('Bumpy'));
  doc.createScene().addChild(doc.createNode('Bumpy').setMesh(doc.createMesh('Bumpy').addPrimitive(prim)));
  writeFileSync(path, await new gltf.NodeIO().writeBinary(doc));
}

export async function run({ root, log }) {
  const require = createRequire(join(root, 'packages/gltf-plugin/package.json'));
  const { MeshoptSimplifier } = await import(pathToFileURL(require.resolve('meshoptimizer')).href);
  const gltf = await import(pathToFileURL(require.resolve('@gltf-transform/core')).href);
  await MeshoptSimplifier.ready;
  const meshoptVersion = JSON.parse(
    readFileSync(join(dirname(require.resolve('meshoptimizer')), 'package.json'), 'utf8'),
  ).version;

  // 1. Models.
  const models = [];
  for (const f of GLB_MODELS)
    models.push({ name: f, model: (await readModelFile(join(root, 'test-assets', f), { siblings: false })).model });
  for (const f of OBJ_MODELS) {
    const p = join(root, 'node_modules/vhacd-js/app/meshes', f);
    if (existsSync(p))
      models.push({ name: `vhacd/${f}`, model: readObj(readFileSync(p, 'utf8'), basename(f, '.obj')) });
  }

  // 2. Chains per model and size.
  const rows = [];
  for (const { name, model } of models) {
    for (const size of SIZES) {
      const row = { name, size, ...compareChains(model, size, MeshoptSimplifier) };
      rows.push(row);
      log(
        `${name} @ ${size} m: viewer ${row.viewer.weight.toFixed(3)} (${row.viewer.worst.toFixed(2)} px) vs slmesh ${row.slmesh.weight.toFixed(3)} (${row.slmesh.worst.toFixed(2)} px) = ${(row.slmesh.weight / row.viewer.weight).toFixed(2)}x`,
      );
    }
  }

  // 3. optimize vs gltfpack on a ~250k-triangle model.
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-bench-lod-'));
  const big = join(dir, 'bumpy-250k.glb');
  await makeBigGlb(big, 500, 250, gltf);
  const bin = join(root, 'packages/cli/dist/bin.js');
  const runs = 3;
  const slTimes = [];
  const peers = gltfpackPeers(root);
  const gpTimes = peers.map(() => []);
  let optimizeOut = '';
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const r = spawnSync(process.execPath, [bin, 'optimize', big, '-o', join(dir, 'out.glb')], { encoding: 'utf8' });
    slTimes.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`slmesh optimize failed: ${r.stderr}`);
    optimizeOut = r.stdout;
    peers.forEach((p, k) => {
      t = performance.now();
      const gp = spawnSync(p.cmd, ['-si', '0.25', '-i', big, '-o', join(dir, 'gp.glb')], { encoding: 'utf8' });
      gpTimes[k].push(performance.now() - t);
      if (gp.status !== 0) throw new Error(`gltfpack (${p.key}) failed: ${gp.stderr}`);
    });
  }
  rmSync(dir, { recursive: true, force: true });
  const bigLine = optimizeOut.split('\n').find((l) => l.startsWith('Bumpy')) ?? '';

  // 4. Markdown.
  const f3 = (n) => n.toFixed(3);
  const sumV = rows.reduce((a, r) => a + r.viewer.weight, 0),
    sumS = rows.reduce((a, r) => a + r.slmesh.weight, 0),
    sumD = rows.reduce((a, r) => a + r.def.weight, 0);
  const geo = Math.exp(rows.reduce((a, r) => a + Math.log(r.slmesh.weight / r.viewer.weight), 0) / rows.length);
  const within = rows.filter((r) => r.slmesh.weight <= 0.6 * r.viewer.weight).length;
  const errOk = rows.filter((r) => r.slmesh.worst <= r.viewer.worst * 1.0001 + 1e-9).length;
  // Cases where the viewer's chain itself keeps the silhouette (its coverage passes slmesh's floor): the like-for-like ones.
  const fair = rows.filter((r) => r.viewer.coverage >= 0.9);
  const fairV = fair.reduce((a, r) => a + r.viewer.weight, 0),
    fairS = fair.reduce((a, r) => a + r.slmesh.weight, 0);
  const fairGeo = Math.exp(
    fair.reduce((a, r) => a + Math.log(r.slmesh.weight / r.viewer.weight), 0) / Math.max(1, fair.length),
  );
  const md = [];
  md.push(
    `Models: ${GLB_MODELS.length} Blender exports (test-assets/) and ${models.length - GLB_MODELS.length} V-HACD meshes (node_modules/vhacd-js/app/meshes, OBJ), each with its longest side at ${SIZES.join(' m and ')} m; RenderVolumeLODFactor ${LOD_FACTOR}; meshoptimizer ${meshoptVersion}.`,
  );
  md.push('');
  md.push(
    "**Screen-space error**: for every object and LOD, the sampled two-sided Hausdorff distance to the input's high LOD (not to a planned high, simplified and its vertices moved; core `lodHausdorffDistance`: all vertices up to 16384 plus 4096 area samples per side) in pixels at the distance where Second Life starts to show that LOD, on a 1080 px tall view with a 60 degree vertical field of view; \"worst\" is the largest over objects and LODs. **viewer** = the viewer's auto-LODs (1/3, 1/9, 1/27 of high, genMeshOptimizerLODs with its fallbacks); **slmesh** = `slmesh optimize`'s planner given the viewer chain's worst error as its bound; **default** = `optimize`'s default: 1 px, or the viewer's own LOD's error at a level where that is coarser, never over the viewer chain's worst (`viewerBound`, docs/optimize.md); the viewer's LODs are measured as the viewer shows them, stretched onto high's box (core `displayedLod`). **download** = download weight from the real encoder. **coverage** = the smallest share of high's silhouette a LOD covers, over LODs and 7 views, with the floor's tolerance (1/64 of the object's size) / strict (no tolerance).",
  );
  md.push('');
  md.push(
    `**Totals**: download weight viewer ${f3(sumV)}, slmesh at the viewer's error ${f3(sumS)} (**${(sumS / sumV).toFixed(2)}x**), slmesh default ${f3(sumD)} (${(sumD / sumV).toFixed(2)}x). Geometric mean of the per-case ratio slmesh/viewer: **${geo.toFixed(2)}x**; ${within} of ${rows.length} cases at or under 0.6x (the target); slmesh's worst error at or under the viewer's in ${errOk} of ${rows.length} cases.`,
  );
  md.push('');
  md.push(
    `**Like for like** (the ${fair.length} cases where the viewer's own chain keeps at least 0.9 of the silhouette, slmesh's floor): viewer ${f3(fairV)}, slmesh ${f3(fairS)} (**${(fairS / fairV).toFixed(2)}x**, geometric mean ${fairGeo.toFixed(2)}x). In the other ${rows.length - fair.length} cases the viewer's chain is cheaper because its LODs lose the model (coverage down to ${Math.min(...rows.map((r) => r.viewer.coverage)).toFixed(2)}, strict ${Math.min(...rows.map((r) => r.viewer.strict)).toFixed(2)}); slmesh's floor does not allow that at any pixel bound, so at small sizes, where the lowest LOD is nearly all of the download weight, it pays for keeping the shape.`,
  );
  md.push('');
  md.push(
    '| model | size | high tris | viewer M/L/Lw | viewer worst px | viewer coverage | viewer download | slmesh M/L/Lw | slmesh worst px | slmesh coverage | slmesh download | ratio | default M/L/Lw | default download | viewer ms | slmesh ms |',
  );
  md.push('|---|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const r of rows) {
    md.push(
      `| ${r.name} | ${r.size} m | ${r.high} | ${r.viewer.tris.join('/')} | ${r.viewer.worst.toFixed(2)} | ${r.viewer.coverage.toFixed(2)} / ${r.viewer.strict.toFixed(2)} | ${f3(r.viewer.weight)} | ${r.slmesh.tris.join('/')} | ${r.slmesh.worst.toFixed(2)} | ${r.slmesh.coverage.toFixed(2)} / ${r.slmesh.strict.toFixed(2)} | ${f3(r.slmesh.weight)} | ${(r.slmesh.weight / r.viewer.weight).toFixed(2)} | ${r.def.tris.join('/')} | ${f3(r.def.weight)} | ${r.viewer.ms.toFixed(0)} | ${r.slmesh.ms.toFixed(0)} |`,
    );
  }
  md.push('');
  md.push('### `slmesh optimize` vs gltfpack on a 250,000-triangle model');
  md.push('');
  md.push(
    'The model is generated by the benchmark (a smooth bumpy sphere, 500 x 250 segments, normals and UVs, one material): no 250k-triangle Blender export is bundled. Wall time of the whole command (process start to exit), median of 3, run alternately in this process run.',
  );
  md.push('');
  md.push('| command | median wall time |');
  md.push('|---|---:|');
  md.push(
    `| \`slmesh optimize bumpy-250k.glb -o out.glb\` (no physics: read, price before, 3 LODs with measured errors, write, price after) | ${median(slTimes).toFixed(0)} ms |`,
  );
  peers.forEach((p, k) =>
    md.push(
      `| \`gltfpack -si 0.25 -i bumpy-250k.glb -o gp.glb\` (${p.version}, ${p.label}; one simplification to 25 %) | ${median(gpTimes[k]).toFixed(0)} ms |`,
    ),
  );
  md.push('');
  md.push(
    peers.length
      ? `Ratio of wall times (target: 3x): ${peers.map((p, k) => `**${(median(slTimes) / median(gpTimes[k])).toFixed(1)}x** ${p.version} (${p.key})`).join(', ')}.`
      : 'No gltfpack installed on this machine (npm package `gltfpack`, or Debian package `gltfpack`); no comparison this run.',
  );
  md.push('');
  md.push(
    `slmesh's LODs for it: \`${bigLine.trim().replace(/\s+/g, ' ')}\` (object, high, medium, low, lowest triangles with their screen-space errors).`,
  );
  return { title: "LODs: slmesh vs the viewer's auto-LODs; optimize vs gltfpack", markdown: md.join('\n') };
}
