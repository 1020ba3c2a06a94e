import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxSize, emptyBox, growBox, lodBox, lodPositions } from '../../src/geometry/object-geometry.js';
import { convexHull } from '../../src/physics/convex-hull.js';
import {
  conformHulls,
  conformLod,
  conformMaxAddedTriangles,
  conformObject,
  conformPhysicsMesh,
  boxStretch,
  displayedLod,
  faceHasArea,
} from '../../src/lod/lod-conform.js';
import type { Box3, Face, MeshLod } from '../../src/types.js';
import { materialBox, uvSphere } from './lod-fixtures.js';

function expectSameBox(high: Box3, box: Box3) {
  const tol = 1e-5 * Math.max(...boxSize(high));
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(box.min[k] - high.min[k])).toBeLessThanOrEqual(tol);
    expect(Math.abs(box.max[k] - high.max[k])).toBeLessThanOrEqual(tol);
  }
}

/** A LOD made of a random subset of high's triangles per face, its vertices jittered by up to `jitter`. */
function randomSubLod(high: MeshLod, keep: boolean[], jitter: number[], order: number[]): MeshLod {
  let t = 0,
    j = 0;
  const faces: Face[] = high.faces.map((f) => {
    const idx: number[] = [];
    for (let i = 0; i + 2 < f.indices.length; i += 3, t++)
      if (keep[t % keep.length]) idx.push(f.indices[i], f.indices[i + 1], f.indices[i + 2]);
    const positions = f.positions.slice();
    for (let i = 0; i < positions.length; i++) positions[i] += jitter[j++ % jitter.length];
    return { ...f, positions, indices: Uint32Array.from(idx) };
  });
  return { faces: order.map((i) => faces[i % faces.length]).filter((f, i, a) => a.indexOf(f) === i) };
}

/** A new object with copies of `lod`'s arrays. */
function copyLod(lod: MeshLod): MeshLod {
  return {
    faces: lod.faces.map((f) => ({
      ...f,
      positions: f.positions.slice(),
      indices: f.indices.slice(),
      ...(f.normals ? { normals: f.normals.slice() } : {}),
      ...(f.uvs ? { uvs: f.uvs.slice() } : {}),
    })),
  };
}

describe('conformLod', () => {
  it("property: any LOD (subset of high's triangles, jittered, materials reordered or missing) gets high's box and every material of high, in order, each with area", () => {
    const high = materialBox(2, 0.5, 1.2, 3);
    const tris = high.faces.reduce((n, f) => n + f.indices.length / 3, 0);
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: tris, maxLength: tris }),
        fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 0, maxLength: 3 }),
        (keep, jitter, order) => {
          const lod = conformLod(high, randomSubLod(high, keep, jitter, order));
          expect(lod.faces.map((f) => f.material)).toEqual(high.faces.map((f) => f.material));
          // Conformed once is conformed: the same object back, and a copy of it unchanged.
          expect(conformLod(high, lod)).toBe(lod);
          expect(conformLod(high, copyLod(lod))).toEqual(lod);
          expectSameBox(lodBox(high), lodBox(lod));
          for (const f of lod.faces) expect(faceHasArea(f, lodBox(high))).toBe(true);
          // Attributes stay consistent with the vertex count.
          for (const f of lod.faces) {
            if (f.normals) expect(f.normals.length).toBe(f.positions.length);
            if (f.uvs) expect(f.uvs.length / 2).toBe(f.positions.length / 3);
            for (const i of f.indices) expect(i).toBeLessThan(f.positions.length / 3);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it("a LOD flat on an axis (as Generate makes of a mushroom) sits at the centre of high's box there, as the uploader shows it, not bent out to both sides", () => {
    const high: MeshLod = { faces: [uvSphere(12, 1, 'Cap', [0, 1, 0])] }; // y from 0 to 2
    const quad = (y: number): MeshLod => ({
      faces: [
        {
          material: 'Cap',
          positions: Float32Array.from([-1, y, -1, 1, y, -1, 1, y, 1, -1, y, 1]),
          indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
        },
      ],
    });
    const hb = lodBox(high);
    for (const y of [1, 0.7, 1.9]) {
      const lod = quad(y);
      const out = conformLod(high, lod);
      const box = lodBox(out);
      // Flat at high's centre on y, high's box on x and z; shown as written, and as the uploader
      // shows the flat LOD it was given.
      expect(box.min[1]).toBeCloseTo(1, 6);
      expect(box.max[1]).toBeCloseTo(1, 6);
      for (const k of [0, 2]) {
        expect(box.min[k]).toBeCloseTo(hb.min[k], 6);
        expect(box.max[k]).toBeCloseTo(hb.max[k], 6);
      }
      expect(boxStretch(hb, box).mismatch).toBe(false);
      expect(Array.from(displayedLod(high, out).faces[0].positions)).toEqual(Array.from(out.faces[0].positions));
      const shown = displayedLod(high, lod).faces[0].positions;
      out.faces[0].positions.forEach((v, i) => expect(v).toBeCloseTo(shown[i], 6));
      expect(out.faces[0].indices.length).toBe(6);
    }
    // Off the centre is what the uploader would move: a mismatch before conformance.
    expect(boxStretch(hb, lodBox(quad(0.7))).mismatch).toBe(true);
  });

  it("a flat LOD missing materials keeps high's box after the materials' triangles are added (they gave its flat axis an extent short of high's)", () => {
    const high = materialBox(2, 0.5, 1.2, 3); // Red: the x sides, Green: y, Blue: z
    const green = high.faces[1];
    // Green's top side only (y = +0.25): flat on y, Red and Blue missing.
    const corners: number[] = [];
    for (let t = 0; t + 2 < green.indices.length; t += 3)
      if ([0, 1, 2].every((c) => green.positions[green.indices[t + c] * 3 + 1] > 0))
        for (let c = 0; c < 3; c++)
          corners.push(...green.positions.subarray(green.indices[t + c] * 3, green.indices[t + c] * 3 + 3));
    expect(corners.length).toBeGreaterThan(0);
    const lod: MeshLod = {
      faces: [
        {
          material: green.material,
          positions: Float32Array.from(corners),
          indices: Uint32Array.from(corners.slice(0, corners.length / 3).map((_, i) => i)),
        },
      ],
    };
    const out = conformLod(high, lod);
    expectSameBox(lodBox(high), lodBox(out));
    expect(boxStretch(lodBox(high), lodBox(out)).mismatch).toBe(false);
    for (const f of out.faces) expect(faceHasArea(f, lodBox(high))).toBe(true);
    expect(conformLod(high, copyLod(out))).toEqual(out);
  });

  it('adds at most conformMaxAddedTriangles, once, where high has materials of zero-area triangles only', () => {
    const quad: Face = {
      material: 'A',
      positions: Float32Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0.5]),
      indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
    };
    // Seven materials of one collinear triangle each, inside the quad's box.
    const line = (m: number): Face => ({
      material: `L${m}`,
      positions: Float32Array.from([0.1, 0.1 * m, 0.1, 0.5, 0.1 * m, 0.1, 0.9, 0.1 * m, 0.1]),
      indices: Uint32Array.from([0, 1, 2]),
    });
    const high: MeshLod = { faces: [quad, ...[1, 2, 3, 4, 5, 6, 7].map(line)] };
    const lod: MeshLod = { faces: [quad] };
    const out = conformLod(high, lod);
    const triangles = (l: MeshLod) => l.faces.reduce((n, f) => n + f.indices.length / 3, 0);
    expect(triangles(out) - triangles(lod)).toBe(7);
    expect(triangles(out) - triangles(lod)).toBeLessThanOrEqual(conformMaxAddedTriangles(high));
    expect(conformLod(high, copyLod(out))).toEqual(out);
  });

  it("leaves a LOD that already has high's box and materials as it is", () => {
    const high = { faces: [uvSphere(16)] };
    const lod = conformLod(high, high);
    expect(lod.faces[0].indices).toEqual(high.faces[0].indices);
    expect(lod.faces[0].positions).toEqual(high.faces[0].positions);
  });
});

describe('conformPhysicsMesh / conformHulls', () => {
  it("property: a smaller or larger physics mesh and hulls get high's box; no degenerate triangle is added", () => {
    const high = { faces: [uvSphere(12, 1)] };
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 1.5, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        (s, dx) => {
          const small = { faces: [uvSphere(6, s, 'p', [dx, 0, 0])] };
          const mesh = conformPhysicsMesh(high, small);
          expectSameBox(lodBox(high), lodBox(mesh));
          for (const f of mesh.faces) expect(faceHasArea(f, lodBox(high))).toBe(true);
          const hulls = conformHulls(high, [
            uvSphere(6, s * 0.5, 'h', [dx, 0, 0]).positions,
            uvSphere(6, s * 0.4, 'h', [-0.5, 0.2, 0]).positions,
          ]);
          expectSameBox(
            lodBox(high),
            hulls.reduce((b, h) => growBox(b, h), emptyBox()),
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('conformObject and boxStretch', () => {
  it('conforms every LOD and the physics; boxStretch reports what the uploader would stretch', () => {
    const high = { faces: [uvSphere(24, 1)] };
    const medium = { faces: [uvSphere(8, 0.9)] };
    const stretch = boxStretch(lodBox(high), lodBox(medium));
    expect(stretch.mismatch).toBe(true);
    expect(stretch.factors[0]).toBeGreaterThan(1.05);
    const o = conformObject({ name: 'S', lods: { high, medium }, hull: uvSphere(6, 0.8).positions });
    expect(boxStretch(lodBox(high), lodBox(o.lods.medium!)).mismatch).toBe(false);
    expect(boxStretch(lodBox(high), growBox(emptyBox(), o.hull!)).mismatch).toBe(false);
    expect(boxStretch(lodBox(high), lodBox(high))).toEqual({ factors: [1, 1, 1], mismatch: false });
  });

  it("with a physics mesh, the single hull is the conformed mesh's hull (the uploader takes it from there), not the old hull patched", () => {
    const high = { faces: [uvSphere(24, 1)] };
    const physicsMesh = { faces: [uvSphere(6, 0.8)] };
    const o = conformObject({ name: 'S', lods: { high }, physicsMesh, hull: uvSphere(12, 0.9).positions });
    const meshHull = convexHull(lodPositions(o.physicsMesh!)).points;
    expect(Array.from(o.hull!)).toEqual(Array.from(meshHull));
    expect(boxStretch(lodBox(high), growBox(emptyBox(), o.hull!)).mismatch).toBe(false);
    // Without a physics mesh the uploader takes it from low (else medium): the conformed low's hull.
    const low = { faces: [uvSphere(6, 0.8)] };
    const p = conformObject({ name: 'S', lods: { high, low }, hull: uvSphere(12, 0.9).positions });
    expect(Array.from(p.hull!)).toEqual(Array.from(convexHull(lodPositions(p.lods.low!)).points));
  });
});

describe('displayedLod', () => {
  it("property: a LOD shows stretched onto high's box, each axis affinely (the same shape up to the stretch), an axis without extent at high's centre", () => {
    const high: MeshLod = { faces: [uvSphere(12)] };
    const hb = lodBox(high);
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 5, maxLength: 40 }),
        fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 1, maxLength: 9 }),
        (keep, jitter) => {
          const lod = randomSubLod(high, keep, jitter, [0]);
          if (lodPositions(lod).length === 0) return;
          const shown = displayedLod(high, lod);
          expectSameBox(hb, lodBox(shown));
          // Affine per axis: relative positions inside the box are kept.
          const lb = lodBox(lod),
            sb = lodBox(shown);
          const a = lod.faces[0].positions,
            b = shown.faces[0].positions;
          for (let i = 0; i < a.length; i++) {
            const k = i % 3;
            const size = lb.max[k] - lb.min[k];
            if (size > 1e-6)
              expect((b[i] - sb.min[k]) / (sb.max[k] - sb.min[k])).toBeCloseTo((a[i] - lb.min[k]) / size, 4);
          }
          expect(shown.faces.map((f) => f.indices)).toEqual(lod.faces.map((f) => f.indices));
        },
      ),
      { numRuns: 40 },
    );
    // Already on high's box: unchanged. A flat LOD sits at the centre of high's box on its flat axis.
    expect(displayedLod(high, high)).toBe(high);
    const flat: MeshLod = {
      faces: [
        {
          material: 'm',
          positions: Float32Array.from([0, 0, 0.2, 1, 0, 0.2, 0, 1, 0.2]),
          indices: Uint32Array.from([0, 1, 2]),
        },
      ],
    };
    const shownFlat = lodBox(displayedLod(high, flat));
    expect(shownFlat.min[2]).toBeCloseTo((hb.min[2] + hb.max[2]) / 2, 6);
    expect(shownFlat.max[0]).toBeCloseTo(hb.max[0], 6);
  });
});
