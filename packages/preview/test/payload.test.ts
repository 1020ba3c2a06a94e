/**
 * The embedded geometry round-trips: the CLI's writer (packages/cli/src/preview/payload.ts) and
 * the page's reader (src/payload.ts) agree. LOD positions come back within the u16 quantisation
 * step of the model's own (Z-up, world-frame) positions; the physics mesh and hull exactly.
 */

import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakePlacement, placePositions, convexHull, lodPositions, lodTriangles, type SlModel } from '@slmesh/core';
import { makeCostReport, readModelFile, reportModel } from '@slmesh/gltf-plugin/node';
import { encodeGeometry, makePreviewPayload, quantise } from '../../cli/src/preview/payload.js';
import {
  base64ToBytes,
  decodeGeometry,
  decodePreview,
  dequantise,
  inflate,
  PREVIEW_FORMAT,
  type PreviewData,
} from '../src/payload.js';

const root = resolve(__dirname, '../../..');

async function payloadOf(asset: string) {
  const path = join(root, 'test-assets', asset);
  // `_LODn` nodes inside the file read as LODs (by default the uploader takes them as extra objects).
  const read = await readModelFile(path, { lodNodes: 'lods' });
  const { report: file, assets } = reportModel(read, path, { lodFactor: 2, keepAssets: true });
  const report = makeCostReport([file], { lodFactor: 2, animesh: false, linkabilityRule: 'current' }, 'test');
  return {
    model: read.model as SlModel,
    ...makePreviewPayload(read.model, report, 2, assets),
    withoutAssets: makePreviewPayload(read.model, report, 2),
  };
}

describe('preview payload', () => {
  it('round-trips the authored LODs and the physics mesh of lod-authored.glb', async () => {
    const { model, data, geometry } = await payloadOf('lod-authored.glb');
    const json = JSON.stringify(data);
    const decoded = await decodePreview(json, encodeGeometry(geometry));
    expect(decoded.data.format).toBe(PREVIEW_FORMAT);
    expect(decoded.objects).toHaveLength(1);
    const o = decoded.objects[0];
    // The page draws in the world frame: the prim's placement applied.
    const src = bakePlacement(model.objects[0]);
    for (const name of ['high', 'medium', 'low', 'lowest'] as const) {
      const faces = o.lods[name]!;
      expect(faces).toHaveLength(src.lods[name]!.faces.length);
      faces.forEach((f, k) => {
        const s = src.lods[name]!.faces[k];
        expect(f.material).toBe(s.material);
        expect(Array.from(f.indices)).toEqual(Array.from(s.indices));
        const box = data.objects[0].lods[name]!.box;
        const step = Math.max(...[0, 1, 2].map((a) => (box.max[a] - box.min[a]) / 65535));
        let worst = 0;
        for (let i = 0; i < s.positions.length; i++) worst = Math.max(worst, Math.abs(f.positions[i] - s.positions[i]));
        expect(worst).toBeLessThanOrEqual(step);
        expect(f.normals).toBeDefined();
        for (let i = 0; i < s.normals!.length; i++) expect(Math.abs(f.normals![i] - s.normals![i])).toBeLessThan(0.01);
      });
    }
    const tri = lodTriangles(src.physicsMesh!);
    expect(Array.from(o.physicsMesh!.positions)).toEqual(Array.from(tri.positions));
    expect(Array.from(o.physicsMesh!.indices)).toEqual(Array.from(tri.indices));
    // The hull the report priced: 8 vertices (the _PHYS cube's).
    expect(o.hull.length / 3).toBe(data.report.files[0].objects[0].physics.convexHull.vertices);
  });

  it('leaves out LODs the file does not have (the page shows the next higher)', async () => {
    const { data, geometry } = await payloadOf('chair.glb');
    const objects = decodeGeometry(JSON.parse(JSON.stringify(data)) as PreviewData, geometry);
    expect(objects).toHaveLength(6);
    for (const o of objects) expect(Object.keys(o.lods)).toEqual(['high']);
    // The Seat has two faces (Wood, Fabric); the hull is the 8-corner box.
    expect(objects[0].lods.high!.map((f) => f.material).sort()).toEqual(['Fabric', 'Wood']);
    expect(objects[0].hull.length / 3).toBe(8);
  });

  it('shows the hull the asset carries: core’s hull of the source LOD, to within the u16 step', async () => {
    for (const asset of ['vase.glb', 'suzanne.glb']) {
      const { model, data, geometry, withoutAssets } = await payloadOf(asset);
      const fromAsset = decodeGeometry(data as unknown as PreviewData, geometry)[0].hull;
      const computed = decodeGeometry(withoutAssets.data as unknown as PreviewData, withoutAssets.geometry)[0].hull;
      // Core's hull in the prim frame, placed in the world as the page draws it.
      const o = model.objects[0];
      const source = data.report.files[0].objects[0].physics.convexHull.source;
      const exact = placePositions(
        o.placement,
        Float32Array.from(
          convexHull(lodPositions(source === 'physics' ? o.physicsMesh! : o.lods[source as 'high']!)).points,
        ),
      );
      expect(Array.from(computed)).toEqual(Array.from(exact));
      expect(fromAsset.length).toBe(exact.length);
      const size = [0, 1, 2].map((a) => data.objects[0].box.max[a] - data.objects[0].box.min[a]);
      // Quantised in the prim frame, then placed (a rotation mixes the axes): one step of the largest side.
      for (let i = 0; i < exact.length; i++)
        expect(Math.abs(fromAsset[i] - exact[i])).toBeLessThanOrEqual(Math.max(...size) / 65535 + 1e-6);
    }
  });

  it('quantises to u16 over a box and back within a step', () => {
    const box = { min: [-1, 0, 2] as [number, number, number], max: [1, 0, 6] as [number, number, number] };
    const p = Float32Array.from([-1, 0, 2, 1, 0, 6, 0.123, 0, 3.3]);
    const back = dequantise(quantise(p, box), box);
    for (let i = 0; i < p.length; i++) expect(Math.abs(back[i] - p[i])).toBeLessThanOrEqual(4 / 65535);
    expect(back[1]).toBe(0); // a flat axis stays put
  });

  it('refuses a blob of the wrong length or a reference out of range', async () => {
    const { data, geometry } = await payloadOf('cube.glb');
    expect(() => decodeGeometry(data as unknown as PreviewData, geometry.subarray(0, geometry.length - 4))).toThrow(
      /expected/,
    );
    const bad = JSON.parse(JSON.stringify(data)) as PreviewData;
    bad.objects[0].hull.offset = geometry.length;
    expect(() => decodeGeometry(bad, geometry)).toThrow(/out of range/);
  });

  it('base64 and inflate are the platform’s (zlib stream, as node:zlib writes it)', async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    expect(Array.from(await inflate(base64ToBytes(encodeGeometry(bytes))))).toEqual(Array.from(bytes));
  });
});
