import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import {
  boxSize,
  convexHull,
  emptyBox,
  faceHasArea,
  growBox,
  isSlmeshError,
  lodBox,
  lodPositions,
  lodTriangleCount,
  lodTriangles,
  silhouetteCoverage,
  silhouetteReference,
  type Box3,
  type SlObject,
} from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { optimizeFile, type PhysicsHookContext } from '../src/optimize.js';
import { worstPlanError } from '../src/sl-lods.js';
import { readModelFile } from '../src/read-file.js';
import { reportFile } from '../src/report-file.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const out = (name: string) => join(tmpdir(), `slmesh-optimize-test-${process.pid}`, name);
const validator = createRequire(join(root, 'package.json'))('gltf-validator') as {
  validateBytes(b: Uint8Array, o?: object): Promise<{ issues: { numErrors: number } }>;
};
const io = new NodeIO();
const LODS = ['high', 'medium', 'low', 'lowest'] as const;

/** Writes an optimize result to a fresh folder and reads it back as the uploader would (the high file and its siblings). */
async function readBack(r: { files: { path: string; data: Uint8Array }[] }, dir: string) {
  const folder = out(dir);
  mkdirSync(folder, { recursive: true });
  const paths = r.files.map((f) => join(folder, f.path.split('/').pop()!));
  r.files.forEach((f, i) => writeFileSync(paths[i], f.data));
  return readModelFile(paths[0]);
}

/** Every node's name (suffix cut), parent and TRS, in document order. */
function tree(doc: Awaited<ReturnType<NodeIO['readBinary']>>, dropSlotNodes = false) {
  const parents = new Map<unknown, string>();
  // The input's own `_LODn` / `_PHYS` nodes (taken as slots) do not come back in the output.
  const nodes = doc
    .getRoot()
    .listNodes()
    .filter((n) => !(dropSlotNodes && /_(LOD[012]|PHYS)$/.test(n.getName()) && n.listChildren().length === 0));
  const base = (n: string) => n.replace(/_(LOD[012]|PHYS)$/, '');
  for (const n of doc.getRoot().listNodes()) for (const c of n.listChildren()) parents.set(c, base(n.getName()));
  return nodes.map((n) => ({
    name: base(n.getName()),
    parent: parents.get(n) ?? '',
    t: n.getTranslation(),
    r: n.getRotation(),
    s: n.getScale(),
  }));
}

function expectSameBox(high: Box3, box: Box3, what: string) {
  const tol = 1e-5 * Math.max(...boxSize(high));
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(box.min[k] - high.min[k]), `${what} min ${k}`).toBeLessThanOrEqual(tol);
    expect(Math.abs(box.max[k] - high.max[k]), `${what} max ${k}`).toBeLessThanOrEqual(tol);
  }
}

async function expectError(p: Promise<unknown>, code: string, text: RegExp) {
  try {
    await p;
  } catch (e) {
    expect(isSlmeshError(e) && e.code).toBe(code);
    expect((e as Error).message).toMatch(text);
    expect((e as Error).message).not.toContain('\n');
    return;
  }
  throw new Error('expected an error');
}

describe('optimizeFile', () => {
  it("returns the sibling files' bytes and writes nothing itself", async () => {
    const r = await optimizeFile(asset('chair.glb'), { output: out('chair.glb') });
    expect(r.files.map((f) => f.path)).toEqual(
      ['chair.glb', 'chair_LOD2.glb', 'chair_LOD1.glb', 'chair_LOD0.glb'].map(out),
    );
    expect(r.files.map((f) => f.slot)).toEqual(['high', 'medium', 'low', 'lowest']);
    expect(existsSync(out('chair.glb'))).toBe(false);
    expect(r.inputs).toEqual([asset('chair.glb')]);
    expect(r.plans).toHaveLength(6);
    expect(r.after.objects).toHaveLength(6);
    expect(r.after.linkset.landImpact).toBeLessThan(r.before.landImpact);
  });

  it('reads a Draco-compressed input (KHR_draco_mesh_compression) as the same triangles', async () => {
    const plain = await readModelFile(asset('vase.glb'));
    const { KHRDracoMeshCompression } = await import('@gltf-transform/extensions');
    const draco = ((await import('draco3dgltf')) as { default: { createEncoderModule(): Promise<unknown> } }).default;
    const encIo = new NodeIO()
      .registerExtensions([KHRDracoMeshCompression])
      .registerDependencies({ 'draco3d.encoder': await draco.createEncoderModule() });
    const doc = await encIo.read(asset('vase.glb'));
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    const path = out('draco/vase.glb');
    mkdirSync(out('draco'), { recursive: true });
    const bytes = await encIo.writeBinary(doc);
    expect(Buffer.from(bytes).includes('KHR_draco_mesh_compression')).toBe(true);
    writeFileSync(path, bytes);
    const r = await optimizeFile(path, { output: out('draco/out.glb') });
    const triangles = (o: SlObject) => lodTriangleCount(o.lods.high);
    expect(r.plans.map((p) => p.highTriangles)).toEqual(plain.model.objects.map(triangles));
    expect(r.before.landImpact).toBeGreaterThan(0);
  });

  it('reports the progress of every phase, in order, through onProgress (and never writes to the console)', async () => {
    const calls: [string, number, number][] = [];
    const log = console.log,
      error = console.error;
    const printed: unknown[] = [];
    console.log = console.error = (...a: unknown[]) => printed.push(a);
    try {
      await optimizeFile(asset('chair.glb'), {
        output: out('p.glb'),
        physics: (o) => o,
        onProgress: (phase, done, total) => calls.push([phase, done, total]),
      });
    } finally {
      console.log = log;
      console.error = error;
    }
    expect(printed).toEqual([]);
    const phases = [...new Set(calls.map((c) => c[0]))];
    // The chair's land impact is its server weight's and a LOD of it went past 1 px: its LODs are
    // planned again ('sharpen'), whether or not the sharper ones are written.
    expect(phases).toEqual(['read', 'lods', 'physics', 'sharpen', 'write', 'report', 'price']);
    for (const phase of phases) {
      const mine = calls.filter((c) => c[0] === phase);
      expect(mine[0][1]).toBe(0);
      expect(mine.at(-1)![1]).toBe(mine.at(-1)![2]);
    }
    // Per object for LODs and physics: the chair has 6 prims.
    expect(calls.filter((c) => c[0] === 'physics').map((c) => c[1])).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(calls.some((c) => c[0] === 'lods' && c[1] === 3 && c[2] === 6)).toBe(true);
  });

  it('prices "before" exactly as slmesh cost prices the input (both when download weight sets it and when physics does)', async () => {
    for (const name of ['suzanne.glb', 'chair.glb', 'vase.glb']) {
      const r = await optimizeFile(asset(name), { output: out(name), planner: { maxProbes: 3 } });
      const cost = (await reportFile(asset(name))).report.linkset;
      expect(r.before.landImpact).toBeCloseTo(cost.landImpact, 9);
      expect(r.before.download).toBeCloseTo(cost.streaming, 9);
      expect(r.before.prims).toBe(cost.prims);
    }
  });

  it('runs the physics hook on each object after its LODs and before writing; its physics becomes Name_PHYS and is priced', async () => {
    const calls: { name: string; ctx: PhysicsHookContext; hadLods: boolean }[] = [];
    const r = await optimizeFile(asset('chair.glb'), {
      output: out('chair-phys.glb'),
      physics: (object: SlObject, ctx) => {
        calls.push({ name: object.name, ctx, hadLods: !!object.lods.lowest });
        return { ...object, decomposition: [convexHull(lodPositions(object.lods.high)).points] };
      },
    });
    expect(calls.map((c) => c.name)).toEqual(['Seat', 'Back', 'Leg_FL', 'Leg_FR', 'Leg_BL', 'Leg_BR']);
    expect(calls.map((c) => c.ctx.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(calls.every((c) => c.hadLods)).toBe(true);
    expect(calls[0].ctx.source).toBe(asset('chair.glb'));
    expect(calls[0].ctx.lodFactor).toBe(2);
    expect(calls[0].ctx.scaleFactors).toEqual([1, 1, 1]);
    expect(typeof calls[0].ctx.deflate).toBe('function');
    for (const o of r.after.objects) expect(o.physics.shape).toBe('decomposition');
    const phys = r.files.find((f) => f.slot === 'physics')!;
    expect(phys.path).toBe(out('chair-phys_PHYS.glb'));
    const doc = await io.readBinary(phys.data);
    const names = doc
      .getRoot()
      .listNodes()
      .map((n) => n.getName());
    for (const c of calls) expect(names).toContain(`${c.name}_PHYS`);
    expect((await validator.validateBytes(phys.data)).issues.numErrors).toBe(0);
  });

  it('gives the physics hook the object as read: the authored high, where its own high was planned', async () => {
    const seen: { planned: number; input?: number; name?: string }[] = [];
    await optimizeFile(asset('suzanne.glb'), {
      output: out('suzanne-phys.glb'),
      physics: (object: SlObject, ctx) => {
        seen.push({
          planned: lodTriangleCount(object.lods.high),
          input: ctx.input && lodTriangleCount(ctx.input.lods.high),
          name: ctx.input?.name,
        });
        return object;
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].name).toBe('Suzanne');
    expect(seen[0].input).toBe(7872);
    expect(seen[0].planned).toBeLessThan(7872);
  });

  it('refuses a physics hook that changes the object it was given', async () => {
    await expect(
      optimizeFile(asset('cube.glb'), { output: out('c.glb'), physics: (o) => ({ ...o, name: 'Other' }) }),
    ).rejects.toThrow(/physics hook/);
  });

  it('writes sibling files (split is a deprecated no-op)', async () => {
    const r = await optimizeFile(asset('vase.glb'), {
      output: out('vase-out.glb'),
      split: true,
      planner: { maxProbes: 3 },
    });
    expect(r.inputs.map((p) => p.split('/').pop())).toEqual([
      'vase.glb',
      'vase_LOD2.glb',
      'vase_LOD1.glb',
      'vase_LOD0.glb',
      'vase_PHYS.glb',
    ]);
    expect(r.files.map((f) => f.path.split('/').pop())).toEqual([
      'vase-out.glb',
      'vase-out_LOD2.glb',
      'vase-out_LOD1.glb',
      'vase-out_LOD0.glb',
      'vase-out_PHYS.glb',
    ]);
    for (const f of r.files) {
      const doc = await io.readBinary(f.data);
      const names = doc
        .getRoot()
        .listNodes()
        .map((n) => n.getName());
      expect(names).toEqual([
        { high: 'Vase', medium: 'Vase_LOD2', low: 'Vase_LOD1', lowest: 'Vase_LOD0', physics: 'Vase_PHYS' }[f.slot],
      ]);
    }
  });

  it('turns _LODn/_PHYS nodes inside the input into sibling files: the high file keeps only Ball', async () => {
    const r = await optimizeFile(asset('lod-authored.glb'), { output: out('ball.glb'), keepAuthoredLods: true });
    expect(r.before.prims).toBe(5); // as uploaded, the four nodes are extra objects
    expect(r.after.linkset.prims).toBe(1);
    const high = await io.readBinary(r.files[0].data);
    expect(
      high
        .getRoot()
        .listNodes()
        .filter((n) => n.getMesh())
        .map((n) => n.getName()),
    ).toEqual(['Ball']);
    const back = await readBack(r, 'ball');
    expect(back.model.objects.map((o) => o.name)).toEqual(['Ball']);
    expect(
      [back.model.objects[0].lods.medium, back.model.objects[0].lods.low, back.model.objects[0].lods.lowest]
        .map(lodTriangleCount)
        .every((n) => n > 0),
    ).toBe(true);
    expect(back.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('stops with one line naming the file for bad input, and for an output that is not .glb', async () => {
    await expectError(
      optimizeFile(asset('missing.glb'), { output: out('x.glb') }),
      'INPUT_UNREADABLE',
      /missing\.glb: no such file/,
    );
    await expectError(
      optimizeFile(asset('broken/truncated.glb'), { output: out('x.glb') }),
      'INPUT_UNREADABLE',
      /truncated\.glb/,
    );
    await expectError(
      optimizeFile(asset('broken/bad-json.glb'), { output: out('x.glb') }),
      'INPUT_UNREADABLE',
      /bad-json\.glb/,
    );
    await expectError(optimizeFile(asset('cube.glb'), { output: out('x.gltf') }), 'USAGE', /\.glb/);
  });
});

describe('optimizeFile: sharper LODs (sharpen)', () => {
  // Without a physics hook an object keeps no physics, and the uploader makes it the single hull
  // of its LODs: sharper LODs can grow that hull, so they are written only where the output,
  // priced as written, costs no more (the CLI's case, physics chosen first: optimize-lods.test.ts).
  for (const name of ['textured-hierarchy.glb', 'beveled-cube-3mat.glb']) {
    it(`${name}: never a higher land impact than with sharpen false`, async () => {
      const sharp = await optimizeFile(asset(name), { output: out(`sharp-${name}`), planner: { maxProbes: 4 } });
      const plain = await optimizeFile(asset(name), {
        output: out(`plain-${name}`),
        planner: { maxProbes: 4 },
        sharpen: false,
      });
      expect(plain.after.diagnostics.some((d) => d.code === 'lod-sharpened')).toBe(false);
      expect(sharp.after.linkset.landImpact).toBeLessThanOrEqual(plain.after.linkset.landImpact * (1 + 1e-9));
      const said = sharp.after.diagnostics.some((d) => d.code === 'lod-sharpened');
      if (said) expect(worstPlanError(sharp.plans)).toBeLessThanOrEqual(0.9 * worstPlanError(plain.plans));
      else expect(worstPlanError(sharp.plans)).toBeCloseTo(worstPlanError(plain.plans), 9);
      // What was written is what was priced.
      const written = await readBack(sharp, `sharp-${name.replace('.glb', '')}`);
      const priced = (await reportFile(written.files[0])).report.linkset;
      expect(priced.landImpact).toBeCloseTo(sharp.after.linkset.landImpact, 9);
    });
  }
});

describe('optimize on every bundled model', () => {
  const files = readdirSync(join(root, 'test-assets')).filter(
    (f) => f.endsWith('.glb') && !/_(LOD\d|PHYS)\.glb$/.test(f),
  );
  it('has assets to check', () => expect(files.length).toBeGreaterThan(8));
  for (const name of files) {
    it(`${name}: validator-clean sibling files with the input's node tree; every LOD and physics model has high's box and materials; LODs never grow; silhouette kept`, async () => {
      const r = await optimizeFile(asset(name), { output: out(name), planner: { maxProbes: 4 } });
      const input = tree(await io.read(asset(name)), true);
      for (const f of r.files) {
        expect((await validator.validateBytes(f.data, { maxIssues: 10 })).issues.numErrors, f.path).toBe(0);
        expect(tree(await io.readBinary(f.data))).toEqual(input);
      }
      const read = await readBack(r, name.replace('.glb', ''));
      const back = read.model;
      expect(read.diagnostics.filter((d) => /box-mismatch|lod-material|lod-node-in-high-file/.test(d.code))).toEqual(
        [],
      );
      expect(back.objects.map((o) => o.name)).toEqual(r.model.objects.map((o) => o.name));
      const original = (await readModelFile(asset(name), { lodNodes: 'lods' })).model;
      for (const o of back.objects) {
        const highBox = lodBox(o.lods.high);
        // High (planned down or not) keeps the input's box: the prim keeps its size and place.
        expectSameBox(lodBox(original.objects.find((x) => x.name === o.name)!.lods.high), highBox, `${o.name} high`);
        for (const n of ['medium', 'low', 'lowest'] as const) {
          expectSameBox(highBox, lodBox(o.lods[n]!), `${o.name} ${n}`);
          expect(o.lods[n]!.faces.map((f) => f.material)).toEqual(o.lods.high.faces.map((f) => f.material));
          for (const f of o.lods[n]!.faces) expect(faceHasArea(f, highBox), `${o.name} ${n} ${f.material}`).toBe(true);
        }
        if (o.physicsMesh) expectSameBox(highBox, lodBox(o.physicsMesh), `${o.name} physics`);
        if (o.decomposition)
          expectSameBox(
            highBox,
            o.decomposition.reduce((b, h) => growBox(b, h), emptyBox()),
            `${o.name} hulls`,
          );
        const faces = o.lods.high.faces.length;
        const tris = LODS.map((n) => lodTriangleCount(o.lods[n]));
        for (const n of LODS) expect(o.lods[n]!.faces).toHaveLength(faces);
        for (let i = 1; i < 4; i++) expect(tris[i]).toBeLessThanOrEqual(tris[i - 1]);
        expect(tris[3]).toBeGreaterThan(0);
        // The silhouette floor holds, except where a lod-fallback says nothing cheaper kept it (the
        // LOD then covers no less than the viewer's own: lod-planner-fallback.test.ts checks that)
        // or lod-generate-cheaper says the LODs are Generate's, below the floor as Generate's are,
        // against the input's high, which the planner's floor is defined on (the written high may
        // be planned down, and its vertices moved within its bound: docs/optimize.md).
        const sil = silhouetteReference(lodTriangles(original.objects.find((x) => x.name === o.name)!.lods.high));
        const said = (code: string, text: RegExp) =>
          r.after.diagnostics.filter((d) => d.code === code && d.object === o.name && text.test(d.message));
        const under = said('lod-fallback', /nothing keeps the silhouette floor/);
        const generate = said('lod-generate-cheaper', /below the silhouette floor/).length > 0;
        for (const n of ['medium', 'low', 'lowest'] as const) {
          const coverage = silhouetteCoverage(sil, lodTriangles(o.lods[n]!)).coverage;
          if (coverage < 0.9 - 0.015)
            expect(generate || under.some((d) => d.message.includes(`${n}:`)), `${o.name} ${n}`).toBe(true);
        }
      }
    });
  }
});

describe('optimizeFile: joining objects (mergeObjects)', () => {
  const worst = (r: Awaited<ReturnType<typeof optimizeFile>>) =>
    Math.max(0, ...r.plans.map((p) => Math.max(p.worstScreenErrorPx, p.high.screenErrorPx)));

  it('300 separate cubes: joined, every LOD a said copy of high (none shrinks within 1 px), far cheaper at no error', async () => {
    const apart = await optimizeFile(asset('prims-300.glb'), { output: out('p300-apart.glb'), mergeObjects: false });
    expect(apart.model.objects).toHaveLength(300);
    expect(apart.after.diagnostics.some((d) => d.code.startsWith('objects-'))).toBe(false);
    const joined = await optimizeFile(asset('prims-300.glb'), { output: out('p300.glb'), mergeObjects: true });
    expect(joined.model.objects.map((o) => o.name)).toEqual(['P000']);
    expect(joined.after.linkset.prims).toBe(1);
    expect(joined.after.linkset.landImpact).toBeLessThan(apart.after.linkset.landImpact / 2);
    expect(worst(joined)).toBeLessThanOrEqual(Math.max(worst(apart), 1));
    const merged = joined.after.diagnostics.find((d) => d.code === 'objects-merged');
    expect(merged?.message).toMatch(/^300 objects joined into one, "P000"/);
    // Never a silent copy: each lower LOD says it is one.
    const copies = joined.after.diagnostics.filter(
      (d) => d.code === 'lod-fallback' && /fallbacks are off/.test(d.message),
    );
    expect(copies.map((d) => d.message.split(':')[1].trim()).sort()).toEqual(['low', 'lowest', 'medium']);
    // Every part is in the joined high, in place: the same triangles and box as the 300 apart.
    const high = joined.model.objects[0].lods.high;
    expect(lodTriangleCount(high)).toBe(apart.model.objects.reduce((a, o) => a + lodTriangleCount(o.lods.high), 0));
    const back = await readBack(joined, 'p300-back');
    expect(back.model.objects).toHaveLength(1);
    expect((await validator.validateBytes(joined.files[0].data)).issues.numErrors).toBe(0);
  }, 60_000);

  it("'auto' (the CLI's default) writes the 300 cubes joined, since apart they are more prims than a linkset holds; 6 parts stay apart with a tip", async () => {
    const auto = await optimizeFile(asset('prims-300.glb'), { output: out('p300-auto.glb'), mergeObjects: 'auto' });
    expect(auto.model.objects).toHaveLength(1);
    expect(auto.after.linkset.linkable.ok).toBe(true);
    const merged = auto.after.diagnostics.find((d) => d.code === 'objects-merged');
    expect(merged?.message).toMatch(
      /^300 objects joined into one, "P000" \(apart they are 300 prims, and a linkset holds at most 256\): land impact 150\.000 apart, \d+\.\d+ joined/,
    );
    expect(auto.after.linkset.landImpact).toBeLessThan(150 / 2);
    // The reference: 'suggest' prices the same join and writes the 300 apart (not linkable).
    const suggest = await optimizeFile(asset('prims-300.glb'), {
      output: out('p300-suggest.glb'),
      mergeObjects: 'suggest',
    });
    expect(suggest.model.objects).toHaveLength(300);
    expect(suggest.after.linkset.linkable.ok).toBe(false);
    expect(suggest.after.diagnostics.find((d) => d.code === 'objects-mergeable')?.message).toContain(
      `${auto.after.linkset.landImpact.toFixed(3)} joined`,
    );
    const chair = await optimizeFile(asset('chair.glb'), { output: out('chair-auto.glb'), mergeObjects: 'auto' });
    expect(chair.model.objects).toHaveLength(6);
    expect(chair.after.diagnostics.some((d) => d.code === 'objects-mergeable')).toBe(true);
    expect(chair.after.diagnostics.some((d) => d.code === 'objects-merged')).toBe(false);
  }, 90_000);

  it('a join whose download weight alone is not under the land impact apart is not given physics (two Suzannes 40 m apart)', async () => {
    // Joined, the two heads make one 42 m object whose LODs keep their detail out to hundreds of
    // metres: its download weight (about 13) is over the pair's land impact apart (about 11), which
    // a decomposition of one hull of about 140 vertices (physics weight 0.04 x 143 = 5.72 each) sets
    // over their download weight.
    const doc = await io.read(asset('suzanne.glb'));
    const [first] = doc.getRoot().listNodes();
    const second = doc.createNode('Far').setMesh(first.getMesh()).setTranslation([40, 0, 0]);
    doc.getRoot().listScenes()[0].addChild(second);
    mkdirSync(out(''), { recursive: true });
    await io.write(out('two-suzannes.glb'), doc);
    const names: string[] = [];
    // 200 points on a sphere (a Fibonacci lattice), stretched onto high's box when written.
    const sphere = new Float32Array(200 * 3);
    for (let i = 0; i < 200; i++) {
      const z = 1 - (2 * i + 1) / 200;
      const r = Math.sqrt(1 - z * z);
      const a = i * Math.PI * (3 - Math.sqrt(5));
      sphere.set([r * Math.cos(a), r * Math.sin(a), z], 3 * i);
    }
    const oneHull = (object: SlObject) => ({ ...object, decomposition: [sphere] });
    const r = await optimizeFile(out('two-suzannes.glb'), {
      output: out('two-suzannes-out.glb'),
      mergeObjects: true,
      physics: (object: SlObject) => {
        names.push(object.name);
        return oneHull(object);
      },
    });
    expect(r.model.objects).toHaveLength(2);
    expect(r.after.linkset.dominant).toBe('physics');
    // Physics was built for the two parts only, not for the join.
    expect(names).toEqual(r.model.objects.map((o) => o.name));
    const kept = r.after.diagnostics.find((d) => d.code === 'objects-kept')?.message ?? '';
    const said = kept.match(
      /their download weight alone would be (\d+\.\d+), not lower than the land impact apart, (\d+\.\d+) \(their physics was not built\)$/,
    );
    expect(said, kept).not.toBeNull();
    const [download, apart] = [Number(said?.[1]), Number(said?.[2])];
    expect(apart).toBeCloseTo(r.after.linkset.landImpact, 3);
    expect(download).toBeGreaterThanOrEqual(apart);
    // What is written is what the parts apart give.
    const apartOnly = await optimizeFile(out('two-suzannes.glb'), {
      output: out('two-suzannes-apart.glb'),
      mergeObjects: false,
      physics: oneHull,
    });
    expect(r.files.map((f) => f.data)).toEqual(apartOnly.files.map((f) => f.data));
  }, 90_000);

  it("a join that fails to price never costs 'suggest' its output; a cancel still ends the run", async () => {
    // The hook fails on the joined object only (the 7th call): apart, the six parts are fine.
    const failing = (error: Error) => {
      let calls = 0;
      return (object: SlObject) => {
        if (++calls > 6) throw error;
        return object;
      };
    };
    const r = await optimizeFile(asset('chair.glb'), {
      output: out('chair-fail.glb'),
      mergeObjects: 'suggest',
      physics: failing(new Error('boom')),
    });
    expect(r.model.objects).toHaveLength(6);
    expect(r.files.length).toBeGreaterThan(0);
    expect(r.after.diagnostics.some((d) => d.code.startsWith('objects-'))).toBe(false);
    const abort = Object.assign(new Error('cancelled'), { name: 'AbortError' });
    await expect(
      optimizeFile(asset('chair.glb'), {
        output: out('chair-abort.glb'),
        mergeObjects: 'suggest',
        physics: failing(abort),
      }),
    ).rejects.toThrow('cancelled');
    await expect(
      optimizeFile(asset('chair.glb'), {
        output: out('chair-true.glb'),
        mergeObjects: true,
        physics: failing(new Error('boom')),
      }),
    ).rejects.toThrow('boom');
  }, 60_000);

  it("'suggest' writes the parts apart and prices the join (a 'join' phase); false, the default, does not try", async () => {
    const phases: string[] = [];
    const r = await optimizeFile(asset('chair.glb'), {
      output: out('chair-suggest.glb'),
      mergeObjects: 'suggest',
      onProgress: (phase) => phases.push(phase),
    });
    expect(r.model.objects).toHaveLength(6);
    const tip = r.after.diagnostics.find((d) => d.code === 'objects-mergeable');
    expect(tip?.message).toMatch(/these 6 objects would cost less .*land impact \d+\.\d+ apart, \d+\.\d+ joined/);
    expect([...new Set(phases)]).toEqual(['read', 'lods', 'sharpen', 'write', 'report', 'price', 'join']);
    const plain = await optimizeFile(asset('chair.glb'), { output: out('chair-plain.glb') });
    expect(plain.after.diagnostics.some((d) => d.code.startsWith('objects-'))).toBe(false);

    const doc = await io.read(asset('chair.glb'));
    const node = doc.getRoot().listNodes()[0];
    const times = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Float32Array([0, 1]));
    const values = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 0, 1, 0]));
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(values);
    doc
      .createAnimation('lift')
      .addSampler(sampler)
      .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler));
    mkdirSync(out(''), { recursive: true });
    await io.write(out('chair-animated.glb'), doc);
    const kept = await optimizeFile(out('chair-animated.glb'), {
      output: out('chair-animated-out.glb'),
      mergeObjects: true,
    });
    expect(kept.model.objects).toHaveLength(6);
    expect(kept.after.diagnostics.find((d) => d.code === 'objects-kept')?.message).toBe(
      'the objects were kept apart: the file has animations',
    );
  }, 60_000);
});

describe('optimize: a chain held finer than the pixel bound is planned at the bound too (strictAlternative)', () => {
  it("the bundled vase at 8 m: Generate held it to 0.91 px; planned at 1 px it costs less with a smaller worst error, and that chain is written ('lods-strict-taken', a 'strict' phase)", async () => {
    const size = { longestSide: 8 };
    const held = await optimizeFile(asset('vase.glb'), { output: out('vase-held.glb'), size });
    const strict = await optimizeFile(asset('vase.glb'), { output: out('vase-strict.glb'), size, viewerBound: false });
    const phases: string[] = [];
    const r = await optimizeFile(asset('vase.glb'), {
      output: out('vase-alt.glb'),
      size,
      strictAlternative: true,
      onProgress: (phase) => phases.push(phase),
    });
    // The premise: Generate's worst is under the bound, and the chain at the bound is cheaper and no worse.
    expect(held.plans[0].viewerWorstPx).toBeLessThan(1);
    expect(strict.after.linkset.landImpact).toBeLessThan(held.after.linkset.landImpact);
    expect(worstPlanError(strict.plans)).toBeLessThanOrEqual(worstPlanError(held.plans));
    // Written: the --strict-error chain, byte for byte, and said.
    expect(r.after.linkset.landImpact).toBe(strict.after.linkset.landImpact);
    expect(r.files.map((f) => f.data)).toEqual(strict.files.map((f) => f.data));
    const note = r.after.diagnostics.find((d) => d.code === 'lods-strict-taken');
    expect(note?.message).toContain(
      `land impact ${strict.after.linkset.landImpact.toFixed(3)} instead of ${held.after.linkset.landImpact.toFixed(3)}`,
    );
    expect(phases).toContain('strict');
    expect(held.after.diagnostics.some((d) => d.code.startsWith('lods-strict'))).toBe(false);
  });

  it("a CC-0 beer glass at 2 m: at the bound it rounds lower but shows more error, so the first chain is written and a note gives the other ('lods-strict-cheaper')", async () => {
    const size = { longestSide: 2 };
    const held = await optimizeFile(asset('beer-glass.glb'), { output: out('beer-held.glb'), size });
    const strict = await optimizeFile(asset('beer-glass.glb'), {
      output: out('beer-strict.glb'),
      size,
      viewerBound: false,
    });
    const r = await optimizeFile(asset('beer-glass.glb'), {
      output: out('beer-alt.glb'),
      size,
      strictAlternative: true,
    });
    expect(strict.after.linkset.landImpactRounded).toBeLessThan(held.after.linkset.landImpactRounded);
    expect(worstPlanError(strict.plans)).toBeGreaterThan(worstPlanError(held.plans));
    expect(r.files.map((f) => f.data)).toEqual(held.files.map((f) => f.data));
    const tip = r.after.diagnostics.find((d) => d.code === 'lods-strict-cheaper');
    expect(tip?.message).toContain(
      `the land impact would be ${strict.after.linkset.landImpact.toFixed(3)} instead of ${held.after.linkset.landImpact.toFixed(3)}`,
    );
    expect(tip?.message).toContain('--strict-error');
    expect(r.after.diagnostics.some((d) => d.code === 'lods-strict-taken')).toBe(false);
  });

  it('the same bytes where the chain at the bound is not cheaper (the vase at its own size); not tried with viewerBound off or in budget mode', async () => {
    const phases: string[] = [];
    const plain = await optimizeFile(asset('vase.glb'), { output: out('vase-own.glb') });
    const r = await optimizeFile(asset('vase.glb'), {
      output: out('vase-own-alt.glb'),
      strictAlternative: true,
      onProgress: (p) => phases.push(p),
    });
    expect(r.files.map((f) => f.data)).toEqual(plain.files.map((f) => f.data));
    expect(phases).toContain('strict');
    expect(r.after.diagnostics.some((d) => d.code.startsWith('lods-strict'))).toBe(false);
    for (const options of [{ viewerBound: false }, { targetLandImpact: 20 }]) {
      const seen: string[] = [];
      await optimizeFile(asset('vase.glb'), {
        output: out('vase-off.glb'),
        size: { longestSide: 8 },
        strictAlternative: true,
        ...options,
        onProgress: (p) => seen.push(p),
      });
      expect(seen).not.toContain('strict');
    }
  });
});
