import { join, resolve } from 'node:path';
import { Logger, NodeIO } from '@gltf-transform/core';
import { MeshoptSimplifier } from 'meshoptimizer';
import { lodTriangleCount } from '@slmesh/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../src/read-file.js';
import { generateModelLods, modelScaleFactors, SL_LODS_DEFAULTS } from '../src/sl-lods.js';
import { nodeDeflate, slLods } from '../src/node.js';
import { documentToModel } from '../src/to-model.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);

class CapturingLogger extends Logger {
  lines: string[] = [];
  constructor() {
    super(Logger.Verbosity.DEBUG);
  }
  override debug(t: string) {
    this.lines.push(t);
  }
  override info(t: string) {
    this.lines.push(t);
  }
  override warn(t: string) {
    this.lines.push(t);
  }
}

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

describe('slLods', () => {
  it('has the documented defaults', () => {
    expect(SL_LODS_DEFAULTS).toEqual({ lodFactor: 2, maxErrorPx: 1, minCoverage: 0.9, keepAuthoredLods: false });
  });

  it('turns a document into uploader-ready nodes with generated LODs, logging through the document logger', async () => {
    const doc = await readDocument(asset('suzanne.glb'));
    const logger = new CapturingLogger();
    doc.setLogger(logger);
    let plans: unknown[] = [];
    await doc.transform(slLods({ simplifier: MeshoptSimplifier, onPlans: (p) => (plans = p) }));
    expect(doc.getRoot().listNodes().map((n) => n.getName())).toEqual(['Suzanne', 'Suzanne_LOD2', 'Suzanne_LOD1', 'Suzanne_LOD0']);
    expect(plans).toHaveLength(1);
    expect(logger.lines.some((l) => l.startsWith('slLods: Suzanne: 7872 ->'))).toBe(true);
    const back = documentToModel(await new NodeIO().readBinary(await new NodeIO().writeBinary(doc))).model.objects[0];
    const tris = (['high', 'medium', 'low', 'lowest'] as const).map((n) => lodTriangleCount(back.lods[n]));
    expect(tris[0]).toBe(7872);
    for (let i = 1; i < 4; i++) expect(tris[i]).toBeLessThanOrEqual(tris[i - 1]);
    expect(tris[3]).toBeLessThan(tris[0] / 4);
  });

  it('keeps authored LODs when asked', async () => {
    const doc = await readDocument(asset('lod-authored.glb'));
    await doc.transform(slLods({ simplifier: MeshoptSimplifier, keepAuthoredLods: true }));
    const back = documentToModel(doc).model.objects[0];
    expect([back.lods.medium, back.lods.low, back.lods.lowest].map(lodTriangleCount)).toEqual([960, 224, 48]);
    expect(lodTriangleCount(back.physicsMesh)).toBe(12); // Ball_PHYS is written back
  });

  it('needs the simplifier, as glTF-Transform\'s simplify does', () => {
    expect(() => slLods({} as never)).toThrow(/simplifier dependency required/);
  });

  it('plans for another size: the size factor follows --size', async () => {
    const { model } = documentToModel(await readDocument(asset('column-10m.glb')));
    expect(modelScaleFactors(model, { longestSide: 5 })).toEqual([0.5, 0.5, 0.5]);
    const small = generateModelLods(model, { simplifier: MeshoptSimplifier, deflate: nodeDeflate, size: { longestSide: 1 } }).plans[0];
    expect(small.radius).toBeCloseTo(generateModelLods(model, { simplifier: MeshoptSimplifier, deflate: nodeDeflate }).plans[0].radius / 10, 6);
  });

  it('budget mode reports whether the target was met', async () => {
    const { model } = documentToModel(await readDocument(asset('suzanne.glb')));
    const fast = { maxProbes: 3 };
    const met = generateModelLods(model, { simplifier: MeshoptSimplifier, deflate: nodeDeflate, targetLandImpact: 20, planner: fast });
    expect(met.budget?.fits).toBe(true);
    expect(met.budget!.landImpact).toBeLessThanOrEqual(20);
    expect(met.budget!.maxErrorPx).toBeGreaterThan(0);
    const missed = generateModelLods(model, { simplifier: MeshoptSimplifier, deflate: nodeDeflate, targetLandImpact: 0.2, planner: fast });
    expect(missed.budget?.fits).toBe(false);
    expect(missed.budget!.floorLandImpact).toBeGreaterThan(0.2);
    expect(lodTriangleCount(missed.model.objects[0].lods.lowest)).toBeGreaterThan(0);
  });
});
