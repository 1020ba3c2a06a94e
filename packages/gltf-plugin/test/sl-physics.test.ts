import { join, resolve } from 'node:path';
import type { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { buildPhysics, OPENING_COST_LIMIT } from '@slmesh/core';
import { readDocument } from '../src/read-file.js';
import { documentToModel, modelScaleFactors } from '../src/index.js';
import { slPhysics, SL_PHYSICS_DEFAULTS } from '../src/sl-physics.js';
import { createNodeIO, reportFile, slReport } from '../src/node.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const names = (doc: Awaited<ReturnType<typeof readDocument>>) =>
  doc
    .getRoot()
    .listNodes()
    .map((n) => n.getName())
    .sort();

describe('slPhysics', () => {
  it('treats options given as undefined as the defaults (auto, 5 cm, 256 hulls of 256 vertices)', async () => {
    const summary = async (options: Parameters<typeof slPhysics>[0]) => {
      const doc = await readDocument(asset('vase.glb'));
      await doc.transform(slPhysics(options));
      const high = doc
        .getRoot()
        .listNodes()
        .find((n) => !n.getName().includes('_'))!;
      return (high.getExtras() as { slmesh: { physics: unknown } }).slmesh.physics;
    };
    expect(
      await summary({ mode: undefined, tolerance: undefined, maxHulls: undefined, maxHullVertices: undefined }),
    ).toEqual(await summary({}));
    expect(SL_PHYSICS_DEFAULTS.mode).toBe('auto');
  });

  it('hands out the _PHYS sibling (one convex mesh per hull of a decomposition) with a summary in extras; the pair is priced as hulls', async () => {
    const doc = await readDocument(asset('chair.glb'));
    const before = slReport(doc);
    let physics: Document | undefined;
    await doc.transform(slPhysics({ mode: 'decompose', onPhysicsDocument: (d) => (physics = d) }));
    expect(physics).toBeDefined();
    // The sibling keeps the input's tree: one `X_PHYS` node per object; the document itself keeps its nodes.
    expect(names(physics!).filter((n) => n.endsWith('_PHYS'))).toHaveLength(6);
    expect(names(doc).some((n) => n.endsWith('_PHYS'))).toBe(false);
    const seat = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'Seat')!;
    const extras = (
      seat.getExtras() as { slmesh: { physics: { mode: string; hulls: number; estimate: boolean; weight: number } } }
    ).slmesh.physics;
    expect(extras.mode).toBe('decompose');
    expect(extras.estimate).toBe(true);
    expect(extras.hulls).toBeGreaterThan(0);
    expect(seat.getMesh()!.listPrimitives().length).toBeGreaterThan(0);
    // Written side by side as the uploader finds them, the physics model prices as hulls.
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-slphysics-'));
    const io = await createNodeIO();
    await io.write(join(dir, 'chair.glb'), doc);
    await io.write(join(dir, 'chair_PHYS.glb'), physics!);
    const after = (await reportFile(join(dir, 'chair.glb'))).report;
    expect(after.objects.map((o) => o.name)).toEqual(before.files[0].objects.map((o) => o.name));
    expect(after.diagnostics.some((d) => d.code === 'physics-as-hulls')).toBe(true);
  });

  it("mode 'hull' writes no _PHYS node (the uploader builds the single hull) and records the hull's weight", async () => {
    const doc = await readDocument(asset('vase.glb'));
    await doc.transform(slPhysics({ mode: 'hull' }));
    expect(names(doc).some((n) => n.endsWith('_PHYS'))).toBe(false);
    const high = doc
      .getRoot()
      .listNodes()
      .find((n) => !n.getName().includes('_'))!;
    expect(
      (high.getExtras() as { slmesh: { physics: { mode: string; weight: number } } }).slmesh.physics,
    ).toMatchObject({ mode: 'hull', estimate: false });
  });
});

describe('auto physics keeps an opening a part-limited decomposition first missed', () => {
  it("a CC-0 child's hut frame at 6 m: the hull closes its 1.90 m passage; the decomposition, cut again with twice the parts, keeps it open", async () => {
    const doc = await readDocument(asset('extra/child-hut.glb'));
    const { model } = documentToModel(doc);
    const wood = model.objects.find((x) => x.name === 'WoodParts')!;
    const r = buildPhysics(wood, {
      mode: 'auto',
      scale: modelScaleFactors(model, { longestSide: 6 }),
      downloadWeight: 2.66,
    });
    const by = (shape: string) => r.choice!.candidates.find((c) => c.shape === shape)!;
    expect(by('hull').keepsOpenings).toBe(false);
    expect(r.choice!.shape).toBe('decomposition');
    expect(by('decomposition').keepsOpenings).toBe(true);
    // Kept for a land impact within the limit auto keeps openings at (10x the hull's).
    expect(by('decomposition').landImpact).toBeLessThan(OPENING_COST_LIMIT * by('hull').landImpact);
  });
});
