import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { costReport } from '../../src/cost/cost-report.js';
import { priceObjectAtScale } from '../../src/cost/object-price.js';
import { objectBox, boxCenter, lodTriangles } from '../../src/geometry/object-geometry.js';
import { primPosition, primScale } from '../../src/geometry/placement.js';
import type { DeflateFn, Face, SlObject } from '../../src/types.js';

const deflate: DeflateFn = (d, level) => new Uint8Array(deflateSync(d, { level }));

function box(material: string, s: number): Face {
  // A closed cube of side s centred at the origin (8 vertices, 12 triangles).
  const h = s / 2;
  const p = [-h, -h, -h, h, -h, -h, h, h, -h, -h, h, -h, -h, -h, h, h, -h, h, h, h, h, -h, h, h];
  const idx = [
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7,
  ];
  return { material, positions: new Float32Array(p), indices: new Uint32Array(idx) };
}

const crate: SlObject = {
  name: 'Crate',
  lods: { high: { faces: [box('m', 2)] } },
  physicsMesh: { faces: [box('m', 2)] },
};

describe('priceObjectAtScale: the one per-object price (report and preview)', () => {
  it("gives the report's numbers for the object, at its own size and at another", () => {
    for (const f of [
      [1, 1, 1],
      [3, 3, 3],
      [0.5, 1, 2],
    ] as [number, number, number][]) {
      const o = costReport({ objects: [crate] }, { deflate, scaleFactors: f }).objects[0];
      const bytes = {
        high: o.lods.high.blockBytes,
        medium: o.lods.medium.blockBytes,
        low: o.lods.low.blockBytes,
        lowest: o.lods.lowest.blockBytes,
      };
      const p = priceObjectAtScale(
        {
          scale: primScale(crate),
          position: primPosition(crate),
          bytes,
          physics: o.physics,
          physicsMesh: lodTriangles(crate.physicsMesh!),
        },
        f,
        boxCenter(objectBox(crate)),
      );
      expect(p).toEqual({
        scale: o.scale,
        position: o.position,
        radius: o.radius,
        switchDistances: o.switchDistances,
        streaming: o.streaming,
        physics: o.physics,
        server: o.server,
        landImpact: o.landImpact,
      });
    }
  });

  it('recomputes the physics mesh at the size (its weight depends on triangle widths) and picks the shape the object uses', () => {
    const o = costReport({ objects: [crate] }, { deflate }).objects[0];
    const bytes = { high: o.lods.high.blockBytes, medium: 0, low: 0, lowest: 0 };
    const input = {
      scale: primScale(crate),
      position: primPosition(crate),
      bytes,
      physics: o.physics,
      physicsMesh: lodTriangles(crate.physicsMesh!),
    };
    const small = priceObjectAtScale(input, [1, 1, 1], [0, 0, 0]);
    const big = priceObjectAtScale(input, [10, 10, 10], [0, 0, 0]);
    expect(small.physics.shape).toBe('mesh');
    expect(big.physics.mesh!.width).toBeCloseTo(small.physics.mesh!.width * 10, 4);
    expect(big.physics.weight).toBe(big.physics.mesh!.weight);
    const hullOnly = priceObjectAtScale({ ...input, physicsMesh: undefined }, [10, 10, 10], [0, 0, 0]);
    expect(hullOnly.physics.shape).toBe('convex-hull');
    expect(hullOnly.physics.weight).toBe(o.physics.convexHull.weight);
    expect(priceObjectAtScale(input, [1, 1, 1], [0, 0, 0], { lodFactor: undefined }).switchDistances.lodFactor).toBe(2);
  });
});
