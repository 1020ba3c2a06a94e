import { describe, expect, it } from 'vitest';
import { buildPhysics } from '../../src/physics/build-physics.js';
import { decompose, type DecompositionResult } from '../../src/physics/decompose.js';
import { DecompositionMemo } from '../../src/physics/decomposition-memo.js';
import type { SlObject } from '../../src/types.js';
import { torus } from './physics-fixtures.js';

const FAST = { decompose: { maxCells: 100_000 } };

function torusObject(name: string, placement?: SlObject['placement']): SlObject {
  const m = torus();
  return {
    name,
    lods: { high: { faces: [{ material: 'm', positions: Float32Array.from(m.positions), indices: m.indices }] } },
    ...(placement ? { placement } : {}),
  };
}

describe('DecompositionMemo', () => {
  const m = torus();
  const positions = Float32Array.from(m.positions);
  const indices = Uint32Array.from(m.indices);
  const made = () => decompose(positions, indices, { maxCells: 100_000 });

  it('makes a surface once per settings key, and again for other bytes or other settings', () => {
    const memo = new DecompositionMemo();
    let calls = 0;
    const counted = () => {
      calls++;
      return made();
    };
    const first = memo.take(positions, indices, 'a', counted);
    expect(memo.take(positions.slice(), indices.slice(), 'a', counted)).toBe(first);
    expect(calls).toBe(1);
    memo.take(positions, indices, 'b', counted);
    expect(calls).toBe(2);
    const moved = positions.slice();
    moved[0] += 1e-3;
    memo.take(moved, indices, 'a', counted);
    expect(calls).toBe(3);
  });

  it('holds at most its bound: the least recently taken go first, the newest always stays', () => {
    const one = made();
    const size = positions.byteLength + indices.byteLength + one.hulls.reduce((a, h) => a + h.byteLength, 0);
    const memo = new DecompositionMemo(2.5 * size);
    let calls = 0;
    const counted = () => {
      calls++;
      return one;
    };
    memo.take(positions, indices, 'a', counted);
    memo.take(positions, indices, 'b', counted);
    memo.take(positions, indices, 'a', counted); // 'a' now the most recent
    memo.take(positions, indices, 'c', counted); // over the bound: 'b' goes
    expect(calls).toBe(3);
    expect(memo.bytes).toBeLessThanOrEqual(2.5 * size);
    memo.take(positions, indices, 'a', counted);
    memo.take(positions, indices, 'c', counted);
    expect(calls).toBe(3);
    memo.take(positions, indices, 'b', counted);
    expect(calls).toBe(4);
    const tiny = new DecompositionMemo(1);
    tiny.take(positions, indices, 'a', counted);
    tiny.take(positions, indices, 'a', counted);
    expect(calls).toBe(5);
    expect(tiny.bytes).toBe(size);
  });

  it('keeps nothing from a make that throws (a cancel)', () => {
    const memo = new DecompositionMemo();
    expect(() =>
      memo.take(positions, indices, 'a', () => {
        throw new Error('cancelled');
      }),
    ).toThrow('cancelled');
    let calls = 0;
    memo.take(positions, indices, 'a', () => {
      calls++;
      return made();
    });
    expect(calls).toBe(1);
  });

  it("buildPhysics: a copy elsewhere in the linkset gets the first copy's decomposition, the same as made anew", () => {
    const memo = new DecompositionMemo();
    const a = torusObject('a');
    const b = torusObject('b', { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [5, 0, 0] });
    const alone = buildPhysics(b, { mode: 'decompose', ...FAST });
    const first = buildPhysics(a, { mode: 'decompose', ...FAST, decompositions: memo });
    let taken: DecompositionResult | undefined;
    const spy = new DecompositionMemo();
    spy.take = (p, ix, settings, make) => {
      taken = memo.take(p, ix, settings, () => {
        throw new Error('made again');
      });
      return taken;
    };
    const copy = buildPhysics(b, { mode: 'decompose', ...FAST, decompositions: spy });
    expect(taken).toBeDefined();
    expect(copy.object.decomposition).toEqual(alone.object.decomposition);
    expect(copy.object.decomposition).toEqual(first.object.decomposition);
    // Another size is another surface: made anew.
    expect(() => buildPhysics(b, { mode: 'decompose', scale: [2, 2, 2], ...FAST, decompositions: spy })).toThrow(
      'made again',
    );
  });
});
