/**
 * `pnpm bench land-impact`: what a creator pays, in rounded land impact, on a corpus of real
 * models, for three ways of uploading each one:
 *
 *   1. "use LOD above": the input as it is, every LOD = high, physics the uploader's default
 *      (the single hull);
 *   2. the viewer's own auto-LODs (core viewerAutoLods: 1/3, 1/9, 1/27 of high with the viewer's
 *      fallbacks) and the single hull: the baseline to beat;
 *   3. `slmesh optimize` with its defaults (LODs planned at 1 px, the high LOD planned) and
 *      default physics (`auto`), priced from what it writes.
 *
 * Each at two sizes (as authored, and 4x; 1/4 when 4x would pass 60 m), RenderVolumeLODFactor 2.
 * The worst screen-space error of each chain is measured here, independently of the planner:
 * the sampled Hausdorff distance of every LOD to the input's high LOD in pixels at the distance
 * where Second Life starts to show that LOD (the high LOD, when optimize changed it, at the
 * fill distance: where the object fills the view), on a 1080 px tall view at 60 degrees.
 *
 * Goal: summed rounded land impact of optimize <= 0.6x the baseline's, with a worst error no
 * larger than the baseline's on every model.
 *
 * SLMESH_BENCH_ONLY=name,name runs only the models whose file name contains one of them (a quick
 * check while working; scripts/bench-subset.mjs prints such a run without touching docs/).
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bakePlacement,
  boxSize,
  costReport,
  emptyBox,
  fillDistance,
  isSlmeshError,
  lodHausdorffDistance,
  lodScreenErrors,
  objectBox,
  radiusOfScale,
  screenSpaceError,
  unionBox,
  uploadScale,
  viewerAutoLods,
  worldBox,
  zlibNgDeflate,
} from '@slmesh/core';
import { isSiblingFileName, optimizeFile, readModelFile } from '@slmesh/gltf-plugin/node';
import { GLB_MODELS, OBJ_MODELS, readObj, shown } from './lod.bench.mjs';

const LOD_FACTOR = 2;
/** The models the LOD planner was tuned on (bench/lod.bench.mjs). */
const TUNED = new Set([...GLB_MODELS, ...OBJ_MODELS]);
/** V-HACD meshes over this size are left out (the largest are 5 and 20 MB of OBJ; the benchmark must stay minutes). */
const MAX_OBJ_BYTES = 4_000_000;

/** Held-out models (Debian assimp-testmodels: OBJ and glTF, real models), never used while tuning. */
const ASSIMP = '/usr/share/assimp/models';
/**
 * A worst error counts as at or under the baseline's within this many pixels: the output is
 * measured as written (float32 positions through the writer's frame), the baseline as made in
 * memory, so a LOD kept as it is can differ by float32 rounding. Minetest's 6-triangle pyramid,
 * every LOD kept: 1.3e-8 m off, 7e-6 px against the baseline's 0 (over at 1e-9).
 */
const PX_NOISE = 1e-3;
const HELD_OUT = [
  'OBJ/WusonOBJ.obj',
  'OBJ/spider.obj',
  'OBJ/regr01.obj',
  'glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb',
];

const linksetSize = (model) => boxSize(model.objects.reduce((b, o) => unionBox(b, worldBox(o)), emptyBox()));

/** A model's objects as a GLB (glTF's Y-up: the inverse of the reader's (x, y, z) -> (x, -z, y)). */
export async function writeGlb(path, model, gltf) {
  const doc = new gltf.Document();
  const buf = doc.createBuffer();
  const scene = doc.createScene();
  for (const o of model.objects) {
    const mesh = doc.createMesh(o.name);
    for (const f of o.lods.high.faces) {
      const p = new Float32Array(f.positions.length);
      for (let i = 0; i < p.length; i += 3) p.set([f.positions[i], f.positions[i + 2], -f.positions[i + 1]], i);
      const prim = doc
        .createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(p).setBuffer(buf));
      if (f.normals) {
        const n = new Float32Array(f.normals.length);
        for (let i = 0; i < n.length; i += 3) n.set([f.normals[i], f.normals[i + 2], -f.normals[i + 1]], i);
        prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(n).setBuffer(buf));
      }
      if (f.uvs)
        prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(f.uvs.slice()).setBuffer(buf));
      prim
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(f.indices.slice()).setBuffer(buf))
        .setMaterial(doc.createMaterial(f.material));
      mesh.addPrimitive(prim);
    }
    scene.addChild(doc.createNode(o.name).setMesh(mesh));
  }
  writeFileSync(path, await new gltf.NodeIO().writeBinary(doc));
}

/** The bundled models that are not Blender exports (test-assets/README.md says where they come from). */
const FROM_DEBIAN = new Set(['bookcase-shelf.glb', 'lower-cabinet.glb', 'beer-glass.glb']);

/**
 * How the benchmark measures errors: 8 times the planner's area samples, every vertex and every
 * triangle's centroid and edge midpoints on both sides (unstrided), so the figure depends neither
 * on the sampling the planner used nor on the order of the triangles (the planner's own 4,096
 * samples move by up to 20 % when only the triangle order changes).
 */
const MEASURE = { samples: 32768, maxVertexSamples: 1 << 20, centroids: true, edgeMidpoints: true };

/**
 * Worst screen-space error of `planned` against the input `model` (objects in the same order), at
 * size factor k: lower LODs at their switch distances, a changed high at the fill distance.
 */
function worstError(model, planned, k) {
  if (planned.objects.length !== model.objects.length) {
    // optimize joined the objects (mergeObjects 'auto': more prims than a linkset holds): the
    // joined object is measured in the world frame against every input object's high there.
    if (planned.objects.length !== 1)
      throw new Error(`${planned.objects.length} joined objects for ${model.objects.length}: not measured`);
    const whole = {
      name: 'joined input',
      lods: { high: { faces: model.objects.flatMap((o) => bakePlacement(o).lods.high.faces) } },
    };
    return worstError({ objects: [whole] }, { objects: [bakePlacement(planned.objects[0])] }, k);
  }
  let worst = 0;
  model.objects.forEach((o, i) => {
    const p = planned.objects[i];
    const radius = radiusOfScale(boxSize(objectBox(o))) * k;
    const e = {};
    for (const n of ['medium', 'low', 'lowest'])
      e[n] = p.lods[n] ? lodHausdorffDistance(o.lods.high, p.lods[n], MEASURE).distance * k : 0;
    worst = Math.max(worst, lodScreenErrors(radius, LOD_FACTOR, e).worst);
    if (p.lods.high !== o.lods.high)
      worst = Math.max(
        worst,
        screenSpaceError(lodHausdorffDistance(o.lods.high, p.lods.high, MEASURE).distance * k, fillDistance(radius)),
      );
  });
  return worst;
}

const li = (model, k) =>
  costReport(model, { deflate: zlibNgDeflate, scaleFactors: [k, k, k], lodFactor: LOD_FACTOR }).linkset;

export async function run({ root, log }) {
  const require = createRequire(join(root, 'packages/gltf-plugin/package.json'));
  const { MeshoptSimplifier } = await import(pathToFileURL(require.resolve('meshoptimizer')).href);
  const gltf = await import(pathToFileURL(require.resolve('@gltf-transform/core')).href);
  const { physicsHookFor } = await import(pathToFileURL(join(root, 'packages/cli/dist/commands/optimize.js')).href);
  await MeshoptSimplifier.ready;
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-bench-li-'));

  // 1. The corpus: the bundled models (not the sibling LOD files) and V-HACD's meshes.
  const corpus = [];
  for (const f of readdirSync(join(root, 'test-assets'))
    .filter((f) => f.endsWith('.glb') && !isSiblingFileName(f))
    .sort()) {
    const source = FROM_DEBIAN.has(f)
      ? 'test-assets (Blend Swap CC-0, Debian sweethome3d-furniture)'
      : 'test-assets (Blender export)';
    corpus.push({ name: f, source, path: join(root, 'test-assets', f) });
  }
  const meshes = join(root, 'node_modules/vhacd-js/app/meshes');
  const skipped = [];
  for (const f of readdirSync(meshes)
    .filter((f) => f.endsWith('.obj'))
    .sort()) {
    if (statSync(join(meshes, f)).size > MAX_OBJ_BYTES) {
      skipped.push(f);
      continue;
    }
    const model = readObj(readFileSync(join(meshes, f), 'utf8'), basename(f, '.obj'));
    if (!model.objects[0].lods.high.faces.length) continue;
    const path = join(dir, `${basename(f, '.obj')}.glb`);
    await writeGlb(path, model, gltf);
    corpus.push({ name: f, source: 'npm vhacd-js (app/meshes, OBJ)', path });
  }

  // Held out: models from the Debian package assimp-testmodels (not used while tuning slmesh),
  // when installed; their authored units are arbitrary (the engine is in millimetres), so they
  // are priced at 2 m and 8 m.
  const heldOut = [];
  for (const rel of HELD_OUT) {
    const file = join(ASSIMP, rel);
    if (!existsSync(file)) continue;
    let path = file;
    if (rel.endsWith('.obj')) {
      const model = readObj(readFileSync(file, 'utf8'), basename(rel, '.obj'));
      if (!model.objects[0].lods.high.faces.length) continue;
      path = join(dir, `held-out-${basename(rel, '.obj')}.glb`);
      await writeGlb(path, model, gltf);
    }
    const c = { name: `assimp/${basename(rel)}`, source: 'Debian assimp-testmodels (held out)', path, sizes: [2, 8] };
    corpus.push(c);
    heldOut.push(c);
  }

  // More held-out models from anywhere (SLMESH_BENCH_EXTRA=/some/folder: every .glb in it, at 2 m
  // and 8 m), for a check on models nobody tuned on; the corpus line names the folder.
  const extra = process.env.SLMESH_BENCH_EXTRA;
  const assimpHeldOut = heldOut.length;
  if (extra)
    for (const f of readdirSync(extra)
      .filter((f) => f.endsWith('.glb') && !isSiblingFileName(f))
      .sort()) {
      const c = { name: `extra/${f}`, source: `${extra} (held out)`, path: join(extra, f), sizes: [2, 8] };
      corpus.push(c);
      heldOut.push(c);
    }

  // A subset while working on the planner (SLMESH_BENCH_ONLY=blonde,cow): the totals then say so.
  const only = process.env.SLMESH_BENCH_ONLY?.split(',').filter(Boolean);
  if (only) corpus.splice(0, corpus.length, ...corpus.filter((c) => only.some((o) => c.name.includes(o))));

  // 2. Three uploads per model and size.
  const rows = [];
  // Physics: optimize's default, `auto` (the shape with the lowest land impact that keeps avatar
  // openings open), as a creator gets it.
  const physics = physicsHookFor('auto', undefined, () => {});
  // A held-out file slmesh refuses (a broken conversion: an index past its vertices) is named in
  // the corpus line and left out, as the user would see it refused, rather than ending the run.
  const refused = [];
  for (const c of corpus) {
    let read;
    try {
      ({ model: read } = await readModelFile(c.path, { siblings: false, lodNodes: 'lods' }));
    } catch (e) {
      if (!heldOut.includes(c) || !isSlmeshError(e)) throw e;
      refused.push(`${c.name} (${e.message.split(': ').slice(1).join(': ')})`);
      log(`${c.name}: refused, left out: ${e.message}`);
      continue;
    }
    const model = {
      ...read,
      objects: read.objects.map((o) => ({
        name: o.name,
        lods: { high: o.lods.high },
        ...(o.placement ? { placement: o.placement } : {}),
      })),
    };
    const longest = Math.max(...linksetSize(model));
    for (const factor of c.sizes ? c.sizes.map((side) => side / longest) : [1, longest * 4 <= 60 ? 4 : 0.25]) {
      const k = factor;
      const asIs = li(model, k);
      const viewer = { ...model, objects: model.objects.map((o) => viewerAutoLods(o, MeshoptSimplifier).object) };
      const base = li(viewer, k);
      const t = process.cpuUsage();
      const opt = await optimizeFile(c.path, {
        output: join(dir, 'out.glb'),
        siblings: false,
        size: { longestSide: longest * k },
        physics,
        mergeObjects: 'auto',
        strictAlternative: true,
      });
      const cpu = process.cpuUsage(t);
      const row = {
        name: c.name,
        tuned: TUNED.has(c.name),
        // Priced (all three) at the size the uploader uploads: past the Scale limit, where it stops.
        size: longest * k * uploadScale(model, [k, k, k]).cap,
        asked: longest * k,
        prims: model.objects.length,
        triangles: model.objects.reduce(
          (a, o) => a + o.lods.high.faces.reduce((b, f) => b + f.indices.length / 3, 0),
          0,
        ),
        asIs: asIs.landImpactRounded,
        base: base.landImpactRounded,
        baseExact: base.landImpact,
        baseWorst: worstError(model, shown(viewer), k),
        opt: opt.after.linkset.landImpactRounded,
        optExact: opt.after.linkset.landImpact,
        optDominant: opt.after.linkset.dominant,
        optWorst: worstError(model, opt.model, k),
        fallbacks: opt.after.diagnostics.filter((d) => d.code === 'lod-fallback').length,
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
      rows.push(row);
      log(
        `${c.name} @ ${row.size.toFixed(2)} m${row.size < row.asked ? ` (asked ${row.asked.toFixed(2)} m: the uploader's Scale stops at ${row.size.toFixed(2)})` : ''}: as is ${row.asIs}, viewer+hull ${row.base} (${row.baseWorst.toFixed(2)} px), optimize ${row.opt} (${row.optWorst.toFixed(2)} px)`,
      );
    }
  }
  rmSync(dir, { recursive: true, force: true });

  // 3. The table and the totals.
  const sum = (f) => rows.reduce((a, r) => a + f(r), 0);
  const totalBase = sum((r) => r.base),
    totalOpt = sum((r) => r.opt),
    totalAsIs = sum((r) => r.asIs);
  /** The row's worst error is at or under the baseline's (within PX_NOISE). */
  const withinBaseline = (r) => r.optWorst <= r.baseWorst + PX_NOISE;
  const errorOk = rows.filter(withinBaseline).length;
  const tunedRows = rows.filter((r) => r.tuned),
    offRows = rows.filter((r) => !r.tuned),
    heldRows = rows.filter((r) => heldOut.some((c) => c.name === r.name));
  const ratio = (rs) =>
    (
      rs.reduce((a, r) => a + r.opt, 0) /
      Math.max(
        1,
        rs.reduce((a, r) => a + r.base, 0),
      )
    ).toFixed(2);
  const md = [];
  md.push(
    `Corpus: ${corpus.length} models, ${rows.length} cases: ${corpus.filter((c) => c.path.startsWith(join(root, 'test-assets'))).length} models bundled in test-assets/ (Blender exports, and three public-domain models of Debian's sweethome3d-furniture: test-assets/README.md), ${corpus.filter((c) => c.source.startsWith('npm vhacd-js')).length} meshes of the npm package vhacd-js (node_modules/vhacd-js/app/meshes, OBJ, written to GLB here; left out for size: ${skipped.join(', ') || 'none'}) and ${assimpHeldOut} held-out models of the Debian package assimp-testmodels (${ASSIMP}: ${HELD_OUT.filter((r) => existsSync(join(ASSIMP, r))).join(', ') || 'not installed'}; never used in tuning)${heldOut.length > assimpHeldOut ? `, and ${heldOut.length - assimpHeldOut} more held-out models from ${extra} (SLMESH_BENCH_EXTRA)` : ''}${refused.length ? `; refused by slmesh and left out: ${refused.join('; ')}` : ''}. "tuned" marks the ${TUNED.size} models the LOD planner was tuned on (bench/lod.bench.mjs). Sizes (the linkset's longest side in the world frame, node transforms applied): as authored and 4x (1/4 when 4x passes 60 m), each priced at the size the uploader uploads it (past the upload floater's Scale limit, 63.9 m an object and 240 m a model, at the size the Scale stops at: core uploadScale); the held-out models at a longest side of 2 m and 8 m (their units are arbitrary: the engine is in millimetres). RenderVolumeLODFactor 2.`,
  );
  md.push('');
  md.push(
    "**as is** = the input uploaded with \"use LOD above\" (every LOD = high) and the single hull; **viewer + hull** = the viewer's auto-LODs (core `viewerAutoLods`) and the single hull, the baseline; **optimize** = `slmesh optimize` with its defaults (LODs within 1 px, or within the viewer's own LOD's error at a level where that is coarser and never over the viewer chain's worst, and the chain planned with every bound 1 px instead where that costs less with no larger worst error; the high LOD planned at the fill distance; physics `auto`, chosen by land impact; objects joined into one only where apart they are more prims than a linkset holds, 256, and the join is better), priced from what it writes. Land impact rounded (half up) per case, as the uploader shows it. **worst px** = the largest screen-space error over objects and LODs, measured here against the input's high LOD (a joined object against every input object's high, in the world frame) (lower LODs at their switch distances, a planned high at the fill distance), by a sampled two-sided Hausdorff distance denser than the planner's own (32,768 area samples, every vertex and every triangle's centroid and edge midpoints on each side), the same for both chains; the viewer's LODs as the viewer shows them, stretched onto high's box (core `displayedLod`).",
  );
  md.push('');
  md.push(
    `**Totals** (rounded land impact summed over the ${rows.length} cases): as is ${totalAsIs}, viewer + hull ${totalBase}, optimize **${totalOpt}** (**${(totalOpt / totalBase).toFixed(2)}x** the baseline; goal 0.6x). Tuned models ${ratio(tunedRows)}x, the others ${ratio(offRows)}x${heldRows.length ? ` (of which the held-out ${heldOut.length > assimpHeldOut ? '' : 'assimp '}models ${ratio(heldRows)}x, worst error at or under the baseline's in ${heldRows.filter(withinBaseline).length} of ${heldRows.length})` : ''}. Worst error at or under the baseline's (within ${PX_NOISE} px: float32 rounding of what is written) in ${errorOk} of ${rows.length} cases (goal: all). LODs made by a fallback (\`lod-fallback\`) in ${rows.filter((r) => r.fallbacks).length} cases.`,
  );
  md.push('');
  md.push(
    '| model | source | tuned | size (m) | prims | high tris | as is | viewer + hull | viewer worst px | optimize | optimize exact (set by) | optimize worst px | fallbacks | optimize CPU ms |',
  );
  md.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const r of rows) {
    const src = corpus.find((c) => c.name === r.name).source;
    md.push(
      `| ${r.name} | ${src} | ${r.tuned ? 'yes' : ''} | ${r.size.toFixed(2)} | ${r.prims} | ${r.triangles} | ${r.asIs} | ${r.base} | ${r.baseWorst.toFixed(2)} | ${r.opt} | ${r.optExact.toFixed(2)} (${r.optDominant}) | ${r.optWorst.toFixed(2)}${withinBaseline(r) ? '' : ' (over)'} | ${r.fallbacks || ''} | ${r.cpuMs.toFixed(0)} |`,
    );
  }
  return {
    title: "Land impact: optimize vs the viewer's auto-LODs on a corpus of real models",
    markdown: md.join('\n'),
  };
}
