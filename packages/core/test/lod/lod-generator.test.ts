import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isSlmeshError } from '../../src/errors.js';
import {
  attributesKeepAtLeast,
  everyVertexLocked,
  hasUvSeams,
  LOCKED_CHECK_MIN_VERTICES,
  prepareLodSource,
  simplifyLodSource,
  simplifyToError,
  simplifyToTriangles,
  SIMPLIFY_MODES,
  weldByPosition,
  type MeshSimplifier,
} from '../../src/lod/lod-generator.js';
import { lodTriangleCount, lodVertexCount, sameLod } from '../../src/geometry/object-geometry.js';
import type { MeshLod } from '../../src/types.js';
import { facetedSphere, materialBox, MeshoptSimplifier, openEdges, uvSphere } from './lod-fixtures.js';

let simplifier: MeshSimplifier;
beforeAll(async () => {
  await MeshoptSimplifier.ready;
  simplifier = MeshoptSimplifier;
});

const sphere: MeshLod = { faces: [uvSphere(48)] };
/** A closed box, flat shaded, 3 materials meeting along its edges, each side 6 x 6 quads. */
const box = materialBox(1, 0.6, 0.4, 6);

function checkLod(lod: MeshLod, high: MeshLod) {
  expect(lod.faces).toHaveLength(high.faces.length);
  lod.faces.forEach((f, i) => {
    expect(f.material).toBe(high.faces[i].material);
    const n = f.positions.length / 3;
    for (const x of f.indices) expect(x).toBeLessThan(n);
    for (const x of f.positions) expect(Number.isFinite(x)).toBe(true);
    if (f.normals) expect(f.normals.length).toBe(f.positions.length);
    if (f.uvs) expect(f.uvs.length).toBe((f.positions.length / 3) * 2);
  });
}

describe('prepareLodSource', () => {
  it('welds identical vertices within each face and keeps seams (different uv) apart', () => {
    const s = prepareLodSource(sphere);
    expect(s.materials).toEqual(['Sphere']);
    // The fixture has no duplicates except none: every vertex differs in position or uv.
    expect(s.positions.length / 3).toBe(new Set(sphere.faces[0].indices).size);
    expect(s.triangles).toBe(sphere.faces[0].indices.length / 3);
  });

  it('hasUvSeams: a point with two uvs in a face is a UV seam; normals alone, or no uvs, are none', () => {
    // The UV sphere's meridian (u 0 and 1) and poles; the flat-shaded sphere's normal seams with one
    // uv per point would be none, so its uvs are dropped; a box's sides are apart per face.
    expect(hasUvSeams(prepareLodSource(sphere))).toBe(true);
    const noUvs = { faces: sphere.faces.map(({ uvs: _uvs, ...f }) => f) };
    expect(hasUvSeams(prepareLodSource(noUvs))).toBe(false);
    const flat = facetedSphere(8);
    const oneUvPerPoint = { ...flat, uvs: new Float32Array(flat.uvs!.length).fill(0.5) };
    expect(hasUvSeams(prepareLodSource({ faces: [oneUvPerPoint] }))).toBe(false);
    expect(hasUvSeams(prepareLodSource({ faces: [flat] }))).toBe(true);
  });

  it('makes points shared by two faces bit-identical, so material borders are seams', () => {
    const moved = materialBox(1, 1, 1, 1);
    // Nudge one face's copy of a corner by less than the weld tolerance.
    moved.faces[1].positions[0] += 1e-8;
    const s = prepareLodSource(moved);
    const points = new Set<string>();
    for (let i = 0; i < s.positions.length; i += 3)
      points.add(`${s.positions[i]},${s.positions[i + 1]},${s.positions[i + 2]}`);
    expect(points.size).toBe(8);
  });

  it('drops triangles with a repeated vertex', () => {
    const f = uvSphere(8);
    const idx = Uint32Array.from([...f.indices, 0, 0, 1]);
    expect(prepareLodSource({ faces: [{ ...f, indices: idx }] }).triangles).toBe(f.indices.length / 3);
  });

  it('a target past the triangles the weld left is all of them, in every mode (fuzz seed 221: meshoptimizer asserted)', () => {
    // The planner counts the input's triangles; the weld drops degenerate ones, so a target can
    // exceed the source.
    const f = uvSphere(8);
    const lod = { faces: [{ ...f, indices: Uint32Array.from([...f.indices, 0, 0, 1, 2, 2, 3]) }] };
    const s = prepareLodSource(lod);
    for (const mode of ['attributes', 'no-normals', 'no-uvs', 'sloppy'] as const)
      for (const updatePositions of [true, false]) {
        const r = simplifyLodSource(s, mode, f.indices.length / 3 + 2, 0, { simplifier, updatePositions });
        expect(r.triangles).toBe(s.triangles);
      }
  });

  it('refuses non-finite vertices and bad indices', () => {
    const f = uvSphere(8);
    const bad = f.positions.slice();
    bad[4] = NaN;
    for (const lod of [
      { faces: [{ ...f, positions: bad }] },
      { faces: [{ ...f, indices: Uint32Array.from([0, 1, 99999]) }] },
    ]) {
      try {
        prepareLodSource(lod);
        expect.unreachable();
      } catch (e) {
        expect(isSlmeshError(e) && e.code).toBe('INPUT_INVALID');
      }
    }
  });
});

describe('simplifyLodSource', () => {
  it('keeps the face count, the materials and valid indices in every mode, and never adds triangles', () => {
    const s = prepareLodSource(box);
    fc.assert(
      fc.property(
        fc.constantFrom(...SIMPLIFY_MODES),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.boolean(),
        (mode, t, update) => {
          const r = simplifyLodSource(s, mode, 0, t, { simplifier, updatePositions: update });
          checkLod(r.lod, box);
          expect(r.triangles).toBe(lodTriangleCount(r.lod));
          expect(r.vertices).toBe(lodVertexCount(r.lod));
          expect(r.triangles).toBeLessThanOrEqual(s.triangles);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the three materials of a closed box stitched: no crack opens between faces', () => {
    const s = prepareLodSource(box);
    expect(openEdges(box)).toBe(0); // each side has its own vertices, but by position the box is closed
    fc.assert(
      fc.property(
        fc.constantFrom<'attributes' | 'no-normals' | 'no-uvs'>('attributes', 'no-normals', 'no-uvs'),
        fc.double({ min: 0.001, max: 0.2, noNaN: true }),
        fc.boolean(),
        (mode, t, update) => {
          const r = simplifyLodSource(s, mode, 0, t, { simplifier, updatePositions: update });
          if (r.triangles === 0) return;
          expect(openEdges(r.lod)).toBe(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('turns a small separate part into an empty face instead of dropping the face', () => {
    const big = uvSphere(32, 1, 'Big');
    const small = uvSphere(8, 0.01, 'Bead', [3, 0, 0]);
    const lod: MeshLod = { faces: [big, small] };
    const r = simplifyLodSource(prepareLodSource(lod), 'attributes', 0, 0.05, { simplifier });
    expect(r.lod.faces.map((f) => f.material)).toEqual(['Big', 'Bead']);
    expect(r.lod.faces[1].indices.length).toBe(0);
    expect(r.lod.faces[1].positions.length).toBe(0);
    expect(r.lod.faces[0].indices.length).toBeGreaterThan(0);
  });

  it('needs a simplifier', () => {
    try {
      simplifyLodSource(prepareLodSource(sphere), 'attributes', 0, 0.1, {} as never);
      expect.unreachable();
    } catch (e) {
      expect(isSlmeshError(e) && e.code).toBe('USAGE');
    }
  });
});

describe('fallback cascade', () => {
  it('error mode: a faceted sphere, which attribute-aware simplification cannot touch, is simplified through the fallbacks', () => {
    const faceted: MeshLod = { faces: [facetedSphere(24)] };
    const s = prepareLodSource(faceted);
    const attr = simplifyLodSource(s, 'attributes', 0, 0.05, { simplifier });
    expect(attr.triangles).toBe(s.triangles); // every vertex is on a hard edge
    const r = simplifyToError(s, 0.05, { simplifier });
    expect(r.mode).not.toBe('attributes');
    expect(r.triangles).toBeLessThan(s.triangles / 2);
    expect(openEdges(r.lod)).toBe(0);
    // Faceted shading comes back: each corner takes the wedge whose normal is closest to its triangle's.
    const f = r.lod.faces[0];
    let sum = 0;
    for (let t = 0; t < f.indices.length; t += 3) {
      const p = [0, 1, 2].map((k) => [0, 1, 2].map((d) => f.positions[f.indices[t + k] * 3 + d]));
      const u = p[1].map((x, d) => x - p[0][d]),
        v = p[2].map((x, d) => x - p[0][d]);
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const l = Math.hypot(n[0], n[1], n[2]);
      for (let k = 0; k < 3; k++)
        sum += [0, 1, 2].reduce((a, d) => a + (n[d] / l) * f.normals![f.indices[t + k] * 3 + d], 0);
    }
    expect(sum / f.indices.length).toBeGreaterThan(0.95);
  });

  it('error mode on a box with flat sides: attribute-aware simplification already works', () => {
    const r = simplifyToError(prepareLodSource(box), 0.05, { simplifier });
    expect(r.triangles).toBeLessThanOrEqual(36);
    expect(openEdges(r.lod)).toBe(0);
  });

  it('error mode keeps attributes on a smooth mesh', () => {
    const r = simplifyToError(prepareLodSource(sphere), 0.01, { simplifier });
    expect(r.mode).toBe('attributes');
    expect(r.triangles).toBeLessThan(sphere.faces[0].indices.length / 3);
  });

  it("count mode reaches the target within the viewer's 1.8 drift when some mode can", () => {
    const s = prepareLodSource(box);
    const faceted = prepareLodSource({ faces: [facetedSphere(24)] });
    const r = simplifyToTriangles(faceted, 100, 1, { simplifier, maxRatioDrift: 1.8 });
    expect(r.triangles).toBeGreaterThan(0);
    expect(r.triangles).toBeLessThanOrEqual(180);
    expect(r.mode).not.toBe('attributes');
    void s;
  });

  /** The simplifier, counting the calls that reach meshoptimizer. */
  function counting(): { simplifier: MeshSimplifier; calls: () => number } {
    let n = 0;
    const wrap =
      <A extends unknown[], R>(f: (...a: A) => R) =>
      (...a: A): R => {
        n++;
        return f(...a);
      };
    const s = simplifier as unknown as Record<string, (...a: unknown[]) => unknown>;
    const spy = Object.fromEntries(
      ['simplify', 'simplifyWithAttributes', 'simplifyWithUpdate', 'simplifySloppy'].map((k) => [
        k,
        wrap(s[k].bind(s)),
      ]),
    );
    return { simplifier: { ...simplifier, ...spy } as MeshSimplifier, calls: () => n };
  }

  it('the same simplification of the same source is made once and handed out again; any other is made', () => {
    const s = prepareLodSource({ faces: [uvSphere(32)] });
    const { simplifier: spy, calls } = counting();
    for (const mode of SIMPLIFY_MODES) {
      const before = calls();
      const a = simplifyLodSource(s, mode, 0, 0.02, { simplifier: spy });
      expect(calls()).toBe(before + 1);
      expect(simplifyLodSource(s, mode, 0, 0.02, { simplifier: spy })).toBe(a);
      expect(calls()).toBe(before + 1);
      // Another error, another weight, or a lock: made again.
      expect(simplifyLodSource(s, mode, 0, 0.03, { simplifier: spy })).not.toBe(a);
      expect(simplifyLodSource(s, mode, 0, 0.02, { simplifier: spy, updatePositions: false })).not.toBe(a);
      expect(calls()).toBe(before + 3);
    }
    const lock = new Uint8Array(s.positions.length / 3);
    const locked = simplifyLodSource(s, 'attributes', 0, 0.02, { simplifier: spy, lock });
    expect(simplifyLodSource(s, 'attributes', 0, 0.02, { simplifier: spy, lock })).not.toBe(locked);
    // Another source with the same content is its own entry.
    const t = prepareLodSource({ faces: [uvSphere(32)] });
    expect(simplifyLodSource(t, 'attributes', 0, 0.02, { simplifier: spy })).not.toBe(
      simplifyLodSource(s, 'attributes', 0, 0.02, { simplifier: spy }),
    );
  });

  it('a flat-shaded high where nothing collapses: a smaller error (or a larger target) is answered without meshoptimizer, with the LOD it makes', () => {
    // Every vertex of a faceted sphere sits on a normal seam: in the attribute-aware modes nothing
    // collapses at any error that keeps its shape.
    const high: MeshLod = { faces: [facetedSphere(24)] };
    const s = prepareLodSource(high);
    const { simplifier: spy, calls } = counting();
    const top = simplifyLodSource(s, 'attributes', 0, 0.02, { simplifier: spy });
    expect(top.triangles).toBe(s.triangles);
    const made = calls();
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.02, noNaN: true }), fc.nat(s.triangles * 2), (error, target) => {
        const r = simplifyLodSource(s, 'attributes', target, error, { simplifier: spy });
        expect(calls()).toBe(made);
        // What meshoptimizer makes of it, on a source nothing was asked of before.
        const fresh = simplifyLodSource(prepareLodSource(high), 'attributes', target, error, { simplifier });
        expect(r.triangles).toBe(fresh.triangles);
        expect(sameLod(r.lod, fresh.lod)).toBe(true);
      }),
      { numRuns: 25 },
    );
    // A larger error is asked of meshoptimizer; where its answer is the same LOD it is the same object.
    const wider = simplifyLodSource(s, 'attributes', 0, 0.021, { simplifier: spy });
    expect(calls()).toBe(made + 1);
    expect(wider.triangles).toBe(s.triangles);
    expect(wider.lod).toBe(top.lod);
    // The rule now answers from the wider one, with the same shared LOD.
    expect(simplifyLodSource(s, 'attributes', 0, 0.0205, { simplifier: spy }).lod).toBe(top.lod);
    expect(calls()).toBe(made + 1);
    // An unchanged result at a target says nothing of a smaller target: asked of meshoptimizer.
    const t = prepareLodSource(high);
    simplifyLodSource(t, 'attributes', Math.floor(t.triangles / 2), 0.02, { simplifier: spy });
    const before = calls();
    simplifyLodSource(t, 'attributes', 0, 0.01, { simplifier: spy });
    expect(calls()).toBe(before + 1);
    // Sloppy simplification is not assumed to follow the rule.
    simplifyLodSource(s, 'sloppy', 0, 0.01, { simplifier: spy });
    expect(calls()).toBe(before + 2);
  });

  it('meshoptimizer on a mesh whose every position three corners share: the attribute-aware simplification is the position-only one (only Prune acts)', () => {
    // The premise of everyVertexLocked, checked on the meshoptimizer this package ships: a faceted
    // sphere with a small faceted ball inside it (a component Prune removes at larger errors).
    const s = prepareLodSource({ faces: [facetedSphere(24), facetedSphere(6, 0.05, 'Small')] });
    expect(everyVertexLocked(s, 0)).toBe(true);
    const n = s.indices.length;
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2, noNaN: true }), fc.nat(n / 3), fc.boolean(), (error, t, prune) => {
        const target = t * 3;
        const flags: ('ErrorAbsolute' | 'Prune')[] = prune ? ['ErrorAbsolute', 'Prune'] : ['ErrorAbsolute'];
        const [a, ea] = simplifier.simplifyWithAttributes(
          s.indices,
          s.positions,
          3,
          s.attributes,
          5,
          [0.5, 0.5, 0.5, 0.5, 0.5],
          null,
          target,
          error,
          flags,
        );
        const [b, eb] = simplifier.simplify(s.indices, s.positions, 3, target, error, flags);
        expect(Array.from(b)).toEqual(Array.from(a));
        expect(eb).toBe(ea);
      }),
      { numRuns: 60 },
    );
    // At the largest error Prune did act: the small ball went.
    const [pruned] = simplifier.simplify(s.indices, s.positions, 3, 0, 2, ['ErrorAbsolute', 'Prune']);
    expect(pruned.length).toBeLessThan(n);
    // A smooth sphere (only its uv seam's points shared, by two vertices): not locked.
    expect(everyVertexLocked(prepareLodSource(sphere), 0)).toBe(false);
  });

  it('a big source whose every point three corners share (a faceted sphere) is simplified without the attribute quadrics, to the same LOD', () => {
    const high: MeshLod = { faces: [facetedSphere(264), facetedSphere(8, 0.02, 'Small')] };
    const s = prepareLodSource(high);
    expect(s.positions.length / 3).toBeGreaterThanOrEqual(LOCKED_CHECK_MIN_VERTICES);
    expect(everyVertexLocked(s)).toBe(true);
    let withAttributes = 0;
    const spy = {
      ...simplifier,
      simplifyWithAttributes: (...a: Parameters<MeshSimplifier['simplifyWithAttributes']>) => {
        withAttributes++;
        return simplifier.simplifyWithAttributes(...a);
      },
    } as MeshSimplifier;
    for (const [target, error] of [
      [0, 0.01],
      [0, 0.5],
      [1000, 3],
    ]) {
      const got = simplifyLodSource(s, 'attributes', target, error, { simplifier: spy, updatePositions: false });
      // The attribute-aware call, forced by a lock that locks nothing (a locked call is not remembered).
      const none = new Uint8Array(s.positions.length / 3);
      const want = simplifyLodSource(s, 'attributes', target, error, {
        simplifier,
        updatePositions: false,
        lock: none,
      });
      expect(got.triangles).toBe(want.triangles);
      expect(sameLod(got.lod, want.lod)).toBe(true);
      expect(got.simplifierError).toBe(want.simplifierError);
    }
    expect(withAttributes).toBe(0);
    // The larger errors pruned the small ball: the shortcut is not only the no-op.
    expect(simplifyLodSource(s, 'attributes', 0, 0.5, { simplifier, updatePositions: false }).triangles).toBeLessThan(
      s.triangles,
    );
  });

  /** A faceted sphere with a cap cut off (its rim's points two or one corners share) and a faceted ball beside it, plus a smooth sphere. */
  const openFaceted = (seg: number): MeshLod => {
    const f = facetedSphere(seg);
    const cut = 3 * 2 * seg; // the first ring of triangles
    return {
      faces: [
        { ...f, indices: f.indices.slice(cut) },
        facetedSphere(6, 0.05, 'Small'),
        uvSphere(12, 0.3, 'Smooth', [2, 0, 0]),
      ],
    };
  };

  it('attributesKeepAtLeast: meshoptimizer keeps at least that many triangles at that error, whatever the target (property)', () => {
    const s = prepareLodSource(openFaceted(24));
    const n = s.indices.length;
    // Most of the faceted sphere is counted; its rim, the smooth sphere and (at larger errors) the ball are not.
    const atSmall = attributesKeepAtLeast(s, 0.001, { simplifier }, 0);
    expect(atSmall).toBeGreaterThan(0.7 * s.triangles);
    expect(atSmall).toBeLessThan(s.triangles);
    expect(attributesKeepAtLeast(s, 0.2, { simplifier }, 0)).toBeLessThan(atSmall);
    expect(attributesKeepAtLeast(s, 2, { simplifier }, 0)).toBe(0);
    // A closed faceted sphere is one component (joined through its shared points, as meshoptimizer
    // joins them), half a side of 1: every triangle stays at 0.9.
    const closed = prepareLodSource({ faces: [facetedSphere(24)] });
    expect(attributesKeepAtLeast(closed, 0.9, { simplifier }, 0)).toBe(closed.triangles);
    expect(attributesKeepAtLeast(s, 0.001, { simplifier, lock: new Uint8Array(s.positions.length / 3) }, 0)).toBe(0);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.nat(n / 3),
        fc.boolean(),
        fc.boolean(),
        (error, t, prune, weighted) => {
          const flags: ('ErrorAbsolute' | 'Prune')[] = prune ? ['ErrorAbsolute', 'Prune'] : ['ErrorAbsolute'];
          const floor = attributesKeepAtLeast(s, error, { simplifier, prune }, 0);
          const weights = weighted ? [0.5, 0.5, 0.5, 0.5, 0.5] : [];
          const [kept] = simplifier.simplifyWithAttributes(
            s.indices,
            s.positions,
            3,
            weighted ? s.attributes : new Float32Array(0),
            weighted ? 5 : 0,
            weights,
            null,
            t * 3,
            error,
            flags,
          );
          expect(kept.length / 3).toBeGreaterThanOrEqual(floor);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('a big flat-shaded source with open borders: the cascades give what they gave with every attribute-aware call made', () => {
    const s = prepareLodSource(openFaceted(264));
    const vertices = s.positions.length / 3;
    expect(vertices).toBeGreaterThanOrEqual(LOCKED_CHECK_MIN_VERTICES);
    expect(everyVertexLocked(s)).toBe(false);
    const calls = { lean: 0, all: 0 };
    const spy = (k: keyof typeof calls) =>
      ({
        ...simplifier,
        simplifyWithAttributes: (...a: Parameters<MeshSimplifier['simplifyWithAttributes']>) => {
          calls[k]++;
          return simplifier.simplifyWithAttributes(...a);
        },
      }) as MeshSimplifier;
    // The reference: every call made (a lock that locks nothing turns attributesKeepAtLeast off).
    const all = { simplifier: spy('all'), updatePositions: false, lock: new Uint8Array(vertices) };
    const lean = { simplifier: spy('lean'), updatePositions: false };
    const same = (a: ReturnType<typeof simplifyToError>, b: ReturnType<typeof simplifyToError>) => {
      expect(a.mode).toBe(b.mode);
      expect(a.triangles).toBe(b.triangles);
      expect(sameLod(a.lod, b.lod)).toBe(true);
    };
    for (const error of [0.002, 0.02, 0.3, 3]) same(simplifyToError(s, error, lean), simplifyToError(s, error, all));
    for (const [target, error] of [
      [1000, 3],
      [20_000, 3],
      [60_000, 0.05],
    ])
      same(simplifyToTriangles(s, target, error, lean), simplifyToTriangles(s, target, error, all));
    // Some attribute-aware calls were left unmade (the ones whose answer could not be taken).
    expect(calls.lean).toBeLessThan(calls.all);
  });

  it('results bit for bit equal share one LOD object; different ones do not', () => {
    const s = prepareLodSource({ faces: [uvSphere(32)] });
    const a = simplifyLodSource(s, 'attributes', 0, 0.02, { simplifier });
    // A target the error stops before gives the same LOD (made again: the rule above does not apply).
    const b = simplifyLodSource(s, 'attributes', Math.floor(a.triangles / 2), 0.02, { simplifier });
    expect(b.triangles).toBe(a.triangles);
    expect(b.lod).toBe(a.lod);
    const c = simplifyLodSource(s, 'attributes', 0, 0.05, { simplifier });
    expect(c.triangles).toBeLessThan(a.triangles);
    expect(c.lod).not.toBe(a.lod);
  });

  it('a mesh without normals and UVs: position-only simplification is the attribute-aware one, so error mode makes it once', () => {
    // Faceted (every corner its own vertex) and smooth spheres, their normals and UVs dropped: the
    // weld joins each point's corners, so no fallback has anything left to merge.
    const bare = (f: ReturnType<typeof uvSphere>): MeshLod => ({
      faces: [{ material: f.material, positions: f.positions, indices: f.indices }],
    });
    fc.assert(
      fc.property(
        fc.constantFrom(bare(facetedSphere(20)), bare(uvSphere(40)), bare(box.faces[0])),
        fc.double({ min: 1e-4, max: 0.5, noNaN: true }),
        fc.boolean(),
        (lod, t, update) => {
          const s = prepareLodSource(lod);
          const attr = simplifyLodSource(s, 'attributes', 0, t, { simplifier, updatePositions: update });
          for (const mode of ['no-normals', 'no-uvs'] as const) {
            const r = simplifyLodSource(s, mode, 0, t, { simplifier, updatePositions: update });
            expect(r.triangles).toBe(attr.triangles);
            expect(Array.from(r.lod.faces[0].indices)).toEqual(Array.from(attr.lod.faces[0].indices));
            expect(Array.from(r.lod.faces[0].positions)).toEqual(Array.from(attr.lod.faces[0].positions));
          }
          const { simplifier: spy, calls } = counting();
          const e = simplifyToError(prepareLodSource(lod), t, { simplifier: spy, updatePositions: update });
          expect(e.triangles).toBe(attr.triangles);
          expect(e.mode).toBe('attributes');
          expect(calls()).toBe(1);
        },
      ),
      { numRuns: 25 },
    );
    // With normals, the position-only reference is still made.
    const { simplifier: spy, calls } = counting();
    simplifyToError(prepareLodSource(sphere), 0.01, { simplifier: spy });
    expect(calls()).toBe(2);
  });
});

describe('weldByPosition', () => {
  it('keeps the triangles and the geometry with one vertex per point and face', () => {
    const r = simplifyToError(prepareLodSource(box), 0.05, { simplifier });
    const lean = weldByPosition(r.lod);
    expect(lodTriangleCount(lean)).toBe(r.triangles);
    expect(lodVertexCount(lean)).toBeLessThanOrEqual(r.vertices);
    checkLod(lean, box);
    for (const f of lean.faces) {
      const pts = new Set<string>();
      for (let i = 0; i < f.positions.length; i += 3)
        pts.add(`${f.positions[i]},${f.positions[i + 1]},${f.positions[i + 2]}`);
      expect(pts.size).toBe(f.positions.length / 3);
      for (let i = 0; i < f.normals!.length; i += 3)
        expect(Math.hypot(f.normals![i], f.normals![i + 1], f.normals![i + 2])).toBeCloseTo(1, 5);
    }
  });
});
