import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../src/read-file.js';
import { slPhysics, SL_PHYSICS_DEFAULTS } from '../src/sl-physics.js';
import { slReport } from '../src/node.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const names = (doc: Awaited<ReturnType<typeof readDocument>>) => doc.getRoot().listNodes().map((n) => n.getName()).sort();

describe('slPhysics', () => {
  it('has the documented defaults', () => {
    expect(SL_PHYSICS_DEFAULTS).toEqual({ mode: 'auto', tolerance: 0.05, maxHulls: 256, maxHullVertices: 256 });
  });

  it('writes a decomposition as the _PHYS node (one convex mesh per hull) with a summary in extras, and the report prices it as hulls', async () => {
    const doc = await readDocument(asset('chair.glb'));
    const before = slReport(doc);
    await doc.transform(slPhysics({ mode: 'decompose' }));
    const phys = doc.getRoot().listNodes().filter((n) => n.getName().endsWith('_PHYS'));
    expect(phys.length).toBe(6);
    const seat = doc.getRoot().listNodes().find((n) => n.getName() === 'Seat')!;
    const extras = (seat.getExtras() as { slmesh: { physics: { mode: string; hulls: number; estimate: boolean; weight: number } } }).slmesh.physics;
    expect(extras.mode).toBe('decompose');
    expect(extras.estimate).toBe(true);
    expect(extras.hulls).toBeGreaterThan(0);
    expect(seat.getMesh()!.listPrimitives().length).toBeGreaterThan(0);
    const after = slReport(doc);
    expect(after.files[0].objects.map((o) => o.name)).toEqual(before.files[0].objects.map((o) => o.name));
    expect(after.files[0].diagnostics.some((d) => d.code === 'physics-as-hulls')).toBe(true);
  });

  it("mode 'hull' writes no _PHYS node (the uploader builds the single hull) and records the hull's weight", async () => {
    const doc = await readDocument(asset('vase.glb'));
    await doc.transform(slPhysics({ mode: 'hull' }));
    expect(names(doc).some((n) => n.endsWith('_PHYS'))).toBe(false);
    const high = doc.getRoot().listNodes().find((n) => !n.getName().includes('_'))!;
    expect((high.getExtras() as { slmesh: { physics: { mode: string; weight: number } } }).slmesh.physics).toMatchObject({ mode: 'hull', estimate: false });
  });
});
