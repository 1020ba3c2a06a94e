/**
 * The uploader's Scale cap (llmodelpreview.cpp rebuildUploadData): no object past 63.9 m, no model
 * past 240 m; a model asked for bigger goes up uniformly smaller, and is priced there.
 */
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_OBJECT_SIZE, uploadScale, uploadScaleCap } from '../../src/cost/upload-scale.js';
import { costReport } from '../../src/cost/cost-report.js';
import { zlibNgDeflate } from '../../src/asset/zlib-ng-deflate.js';
import type { SlObject } from '../../src/types.js';
import type { Vec3 } from '../../src/geometry/object-geometry.js';

/** A box of size s centred at c (12 triangles). */
function box(name: string, s: Vec3, c: Vec3 = [0, 0, 0]): SlObject {
  const p: number[] = [];
  for (let i = 0; i < 8; i++)
    p.push(c[0] + (i & 1 ? 0.5 : -0.5) * s[0], c[1] + (i & 2 ? 0.5 : -0.5) * s[1], c[2] + (i & 4 ? 0.5 : -0.5) * s[2]);
  const idx = [
    0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5,
  ];
  return {
    name,
    lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(p), indices: Uint32Array.from(idx) }] } },
  };
}

describe('uploadScale', () => {
  it('leaves a model within the limits as asked', () => {
    const model = { objects: [box('a', [10, 2, 3])] };
    expect(uploadScale(model)).toEqual({ factors: [1, 1, 1], cap: 1 });
    expect(uploadScale(model, [2, 2, 2])).toEqual({ factors: [2, 2, 2], cap: 1 });
    // 63.9 m exactly is the limit, not over it.
    expect(uploadScale({ objects: [box('b', [IMPORT_MAX_OBJECT_SIZE, 1, 1])] }).cap).toBe(1);
  });

  it('brings the largest object to 63.9 m, uniformly, and says so', () => {
    const model = { objects: [box('big', [116, 6, 66]), box('small', [2, 2, 2], [0, 10, 0])] };
    const u = uploadScale(model);
    expect(u.cap).toBeCloseTo(63.9 / 116, 12);
    expect(u.factors).toEqual([u.cap, u.cap, u.cap]);
    expect(u.diagnostic).toMatchObject({ severity: 'warning', code: 'scale-capped', object: 'big' });
    expect(u.diagnostic!.message).toMatch(/^big is 116 x 6\.00 x 66\.00 m, over the 63\.9 m/);
    // Asked for bigger still, the cap is of the size asked for: the same upload.
    const asked = uploadScale(model, [3, 3, 3]);
    expect(asked.factors[0]).toBeCloseTo(u.factors[0], 12);
    // Per-axis factors: the object's longest side at those factors is what is capped.
    const stretched = uploadScale({ objects: [box('c', [10, 10, 10])] }, [1, 10, 1]);
    expect(stretched.factors[1] * 10).toBeCloseTo(IMPORT_MAX_OBJECT_SIZE, 9);
    expect(stretched.factors[0] / stretched.factors[1]).toBeCloseTo(0.1, 12);
  });

  it('brings a model of small objects spread over more than 240 m to 240 m', () => {
    const model = { objects: [box('w', [4, 4, 4], [-148, 0, 0]), box('e', [4, 4, 4], [148, 0, 0])] };
    const u = uploadScale(model);
    expect(u.cap).toBeCloseTo(240 / 300, 12);
    expect(u.diagnostic!.message).toMatch(/^the model spans 300 m, over the 240 m/);
    expect(u.diagnostic!.object).toBeUndefined();
  });

  it('an object with an infinite vertex (not priced) sets no cap', () => {
    const bad = box('bad', [1, 1, 1]);
    bad.lods.high.faces[0].positions[0] = Number.POSITIVE_INFINITY;
    expect(uploadScale({ objects: [bad, box('ok', [2, 2, 2])] }).cap).toBe(1);
  });

  it('whichever limit binds harder wins', () => {
    // 100 m object in a 400 m model: 63.9 / 100 = 0.639 against 240 / 400 = 0.6.
    const model = { objects: [box('x', [100, 1, 1], [-150, 0, 0]), box('y', [1, 1, 1], [199.5, 0, 0])] };
    expect(uploadScale(model).cap).toBeCloseTo(0.6, 12);
    expect(uploadScaleCap([{ name: 'x', size: [100, 1, 1] }], 100).cap).toBeCloseTo(0.639, 12);
  });

  it('the cost report prices at the capped size, and a capped model priced again is not capped twice', () => {
    const model = { objects: [box('big', [116, 6, 66])] };
    const r = costReport(model, { deflate: zlibNgDeflate });
    expect(Math.max(...r.objects[0].scale)).toBeCloseTo(IMPORT_MAX_OBJECT_SIZE, 9);
    expect(r.diagnostics.map((d) => d.code)).toContain('scale-capped');
    // The same as asking for that size: the price follows the size, not the file's.
    const f = uploadScale(model).factors;
    const again = costReport(model, { deflate: zlibNgDeflate, scaleFactors: f });
    expect(again.linkset.landImpact).toBe(r.linkset.landImpact);
    expect(again.diagnostics.map((d) => d.code)).not.toContain('scale-capped');
    // And not the uncapped size's price: a 116 m box's radius is larger.
    expect(r.objects[0].radius).toBeLessThan(0.5 * Math.hypot(116, 6, 66) * 0.999);
  });
});
