import { beforeAll, describe, expect, it } from 'vitest';
import { prepareLodSource, type MeshSimplifier } from '../../src/lod/lod-generator.js';
import { lodTriangleCount, lodTriangles } from '../../src/geometry/object-geometry.js';
import { silhouetteCoverage, silhouetteReference } from '../../src/lod/silhouette.js';
import { viewerAutoLods, VIEWER_LOD_DECIMATION } from '../../src/lod/viewer-auto-lod.js';
import { facetedSphere, materialBox, MeshoptSimplifier, object, uvSphere, vhacdMesh } from './lod-fixtures.js';

let simplifier: MeshSimplifier;
beforeAll(async () => {
  await MeshoptSimplifier.ready;
  simplifier = MeshoptSimplifier;
});

describe('viewerAutoLods (genMeshOptimizerLODs, MESH_OPTIMIZER_AUTO)', () => {
  it("simplifies to 1/3, 1/9 and 1/27 of high's triangles", () => {
    expect(VIEWER_LOD_DECIMATION).toBe(3);
    const high = object('Ball', [uvSphere(64)]);
    const n = lodTriangleCount(high.lods.high);
    const { lods } = viewerAutoLods(high, simplifier);
    const got = [lodTriangleCount(lods.medium), lodTriangleCount(lods.low), lodTriangleCount(lods.lowest)];
    [3, 9, 27].forEach((d, i) => {
      expect(got[i]).toBeLessThanOrEqual(Math.floor(n / d) + 1);
      expect(got[i] * 1.8).toBeGreaterThanOrEqual(n / d); // reached within the viewer's allowed drift
    });
  });

  it("reuses the planner's prepared high only when its weld joined equal points alone", () => {
    const high = object('Bunny', [vhacdMesh('bunny.obj')]);
    const own = viewerAutoLods(high, simplifier).lods;
    const exact = prepareLodSource(high.lods.high, { checkExactWeld: true });
    expect(exact.exactWeld).toBe(true);
    // Unchecked, a tolerance weld is not taken as exact.
    expect(prepareLodSource(high.lods.high).exactWeld).toBe(false);
    expect(viewerAutoLods(high, simplifier, exact).lods).toEqual(own);
    // Add a copy of one vertex, nudged by less than the weld tolerance, used by one triangle in
    // place of the original: the default weld joins the two, the viewer's does not.
    const face = high.lods.high.faces[0];
    const v = face.indices[0];
    const positions = new Float32Array(face.positions.length + 3);
    positions.set(face.positions);
    const last = face.positions.length / 3;
    positions.set(face.positions.subarray(3 * v, 3 * v + 3), 3 * last);
    positions[3 * last] = Math.fround(positions[3 * last] * (1 + 2 ** -21));
    const indices = face.indices.slice();
    indices[0] = last;
    const extra = {
      normals: face.normals
        ? new Float32Array([...face.normals, ...face.normals.subarray(3 * v, 3 * v + 3)])
        : undefined,
    };
    const nudged = object('Bunny', [{ ...face, ...extra, positions, indices }]);
    const welded = prepareLodSource(nudged.lods.high, { checkExactWeld: true });
    expect(welded.exactWeld).toBe(false);
    expect(viewerAutoLods(nudged, simplifier, welded).lods).toEqual(viewerAutoLods(nudged, simplifier).lods);
  });

  it('keeps the face count of high, leaving empty faces where a material vanished', () => {
    const high = object('Box', materialBox(1, 1, 1, 3).faces);
    const { object: o } = viewerAutoLods(high, simplifier);
    for (const n of ['medium', 'low', 'lowest'] as const) {
      expect(o.lods[n]!.faces.map((f) => f.material)).toEqual(['Red', 'Green', 'Blue']);
    }
  });

  it('falls back (normals, UVs, then sloppy) when a faceted mesh will not simplify', () => {
    const high = object('Faceted', [facetedSphere(24)]);
    const n = lodTriangleCount(high.lods.high);
    const lowest = lodTriangleCount(viewerAutoLods(high, simplifier).lods.lowest);
    expect(lowest).toBeGreaterThan(0);
    expect(lowest).toBeLessThanOrEqual((1.8 * n) / 27);
  });

  it('can lose the silhouette of a low-poly model, which is why slmesh has a floor', () => {
    const high = object('Chair', [vhacdMesh('ob_chair_wood.obj')]);
    const { lods } = viewerAutoLods(high, simplifier);
    const ref = silhouetteReference(lodTriangles(high.lods.high), { tolerance: 0 });
    expect(silhouetteCoverage(ref, lodTriangles(lods.lowest)).coverage).toBeLessThan(0.5);
  });
});
