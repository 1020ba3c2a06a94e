/**
 * Physics built once per distinct object: a linkset's copies of one part (the wheels of a cart,
 * the chairs round a table, an engine's twenty springs) have the same geometry, scale and up
 * axis, so their physics is the same. `optimize` builds it for the first and gives the result to
 * the others; a decomposition can take seconds, and a model of copies paid it once per copy.
 *
 * Two objects are the same physics input when everything buildPhysics reads from them is equal:
 * every LOD's and the physics model's positions and indices, any authored hull or decomposition,
 * the node scale folded into the prim and the prim's up axis (avatar openings are judged upright),
 * plus the size factors and the download weight auto prices against. Where they sit (translation)
 * and their names do not matter. Equality is checked in full, not trusted to the hash: geometry
 * exactly, the scales and the download weight to a millionth (an exporter writes a copy's scale
 * as 0.99999998 where the original has 0.99999999; a millionth of the size moves no physics).
 */

import { bytesOf, hashBytes, primUpAxis, type MeshLod, type SlObject, type Vec3 } from '@slmesh/core';

/**
 * Everything buildPhysics reads from an object besides its name and translation, as flat arrays,
 * and the surface it is given (the input's high where the high was planned).
 */
function physicsArrays(object: SlObject, surface: MeshLod | undefined): ArrayLike<number>[] {
  const out: ArrayLike<number>[] = [];
  const lod = (l: MeshLod | undefined) => {
    out.push([l ? l.faces.length : -1]);
    for (const f of l?.faces ?? []) out.push(f.positions, f.indices);
  };
  lod(object.lods.high);
  lod(object.lods.medium);
  lod(object.lods.low);
  lod(object.lods.lowest);
  lod(object.physicsMesh);
  lod(surface);
  out.push(object.hull ?? [-1]);
  out.push([object.decomposition ? object.decomposition.length : -1], ...(object.decomposition ?? []));
  out.push([primUpAxis(object), object.rigged ? 1 : 0]);
  return out;
}

/** Relative tolerance of the scales and download weight of two equal physics inputs. */
const NEAR = 1e-6;

function near(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= NEAR * Math.max(Math.abs(x), Math.abs(b[i])));
}

/** FNV-1a over the float32 bits of every value, with each array's length. */
function hashArrays(arrays: readonly ArrayLike<number>[]): string {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  let h = 0x811c9dc5;
  const mix = (x: number) => {
    h = Math.imul(h ^ x, 0x01000193) >>> 0;
  };
  for (const a of arrays) {
    mix(a.length);
    for (let i = 0; i < a.length; i++) {
      f[0] = a[i];
      mix(u[0]);
    }
  }
  return h.toString(16);
}

function sameArrays(a: readonly ArrayLike<number>[], b: readonly ArrayLike<number>[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k],
      y = b[k];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
  }
  return true;
}

/** The fields buildPhysics sets on the object it returns. */
const PHYSICS_FIELDS = ['physicsMesh', 'hull', 'decomposition', 'physicsChoice'] as const;

interface Built<R> {
  arrays: ArrayLike<number>[];
  /** Placement scale, size factors, download weight (-1 when none): compared to NEAR. */
  scales: number[];
  /** What was built for this input, in order, with the object each was built for. */
  results: { name: string; built: R }[];
  /** hashArrays(arrays), made when another input of the same signature is looked up. */
  hash?: string;
}

/** Arrays up to this long are part of the signature by value, longer ones by length. */
const SIGNATURE_VALUES = 16;

/**
 * What two equal inputs must share, cheap to make: every array's length, the short ones'
 * values. Inputs are hashed (hashArrays, a pass over every vertex) only when another input has
 * the same signature: one object, or objects of different sizes, cost no hashing at all.
 */
function signature(arrays: readonly ArrayLike<number>[]): string {
  return arrays.map((a) => (a.length <= SIGNATURE_VALUES ? `[${Array.from(a).join(',')}]` : a.length)).join(' ');
}

/**
 * A cache of physics results by input. `find` gives the first result built for an equal input
 * that `accept` takes (and the name of the object it was built for); `add` records one. Results
 * for equal inputs (a copy built anew when `accept` took none) are kept together: an input is
 * compared once per lookup, however many copies were built (800 copies built one by one compared
 * 320,000 pairs of arrays, 54 s).
 */
export class PhysicsReuse<R> {
  private readonly bySignature = new Map<string, Built<R>[]>();

  /** The entry of an input equal to `arrays` and `scales` in `list`, if any. */
  private equal(list: Built<R>[], arrays: ArrayLike<number>[], scales: number[]): Built<R> | undefined {
    const hash = hashArrays(arrays);
    return list.find((b) => {
      b.hash ??= hashArrays(b.arrays);
      return b.hash === hash && near(b.scales, scales) && sameArrays(b.arrays, arrays);
    });
  }

  private inputOf(
    object: SlObject,
    scaleFactors: Vec3,
    downloadWeight: number | undefined,
    surface: MeshLod | undefined,
  ): { arrays: ArrayLike<number>[]; scales: number[] } {
    const arrays = physicsArrays(object, surface);
    const scales = [...(object.placement?.scale ?? [1, 1, 1]), ...scaleFactors, downloadWeight ?? -1];
    return { arrays, scales };
  }

  find(
    object: SlObject,
    scaleFactors: Vec3,
    downloadWeight: number | undefined,
    surface?: MeshLod,
    accept: (built: R) => boolean = () => true,
  ): { name: string; built: R } | undefined {
    const { arrays, scales } = this.inputOf(object, scaleFactors, downloadWeight, surface);
    const list = this.bySignature.get(signature(arrays));
    if (!list) return undefined;
    return this.equal(list, arrays, scales)?.results.find((r) => accept(r.built));
  }

  add(
    object: SlObject,
    scaleFactors: Vec3,
    downloadWeight: number | undefined,
    surface: MeshLod | undefined,
    built: R,
  ): void {
    const { arrays, scales } = this.inputOf(object, scaleFactors, downloadWeight, surface);
    const key = signature(arrays);
    const list = this.bySignature.get(key) ?? [];
    const same = list.length > 0 ? this.equal(list, arrays, scales) : undefined;
    if (same) same.results.push({ name: object.name, built });
    else list.push({ arrays, scales, results: [{ name: object.name, built }] });
    this.bySignature.set(key, list);
  }
}

/** `given` with the physics of `built` (an object buildPhysics returned for an equal input). */
export function withPhysicsOf(given: SlObject, built: SlObject): SlObject {
  const out: SlObject = { ...given };
  for (const k of PHYSICS_FIELDS) {
    if (built[k] === undefined) delete out[k];
    else (out as unknown as Record<string, unknown>)[k] = built[k];
  }
  return out;
}

/** Steps per metre a near part's offset from the part is taken to in surroundingsKey (10 micrometres). */
const OFFSET_STEPS = 1e5;

/** Two 32-bit lanes over a sequence of 32-bit words. */
class Hash64 {
  private h1 = 0x811c9dc5;
  private h2 = 0x9747b28c;
  word(x: number): void {
    this.h1 = Math.imul(this.h1 ^ x, 0x01000193);
    this.h2 = Math.imul(((this.h2 << 13) | (this.h2 >>> 19)) ^ x, 0x5bd1e995);
  }
  /** A float's 32-bit pattern (a float64 is taken to float32 first). */
  float(x: number): void {
    F32[0] = x;
    this.word(U32[0]);
  }
  /** An integer of any size up to 2^53. */
  integer(x: number): void {
    this.word(x | 0);
    this.word(Math.floor(x / 4294967296) | 0);
  }
  toString(): string {
    return `${(this.h1 >>> 0).toString(16)}${(this.h2 >>> 0).toString(16)}`;
  }
}
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** Each high LOD's hash: its face count, then each face's positions' and indices' hashBytes; made once. */
const HIGH_HASHES = new WeakMap<MeshLod, number[]>();

function highHash(lod: MeshLod): number[] {
  let known = HIGH_HASHES.get(lod);
  if (!known) {
    known = [
      lod.faces.length,
      ...lod.faces.flatMap((f) => [hashBytes(bytesOf(f.positions)), hashBytes(bytesOf(f.indices))]),
    ];
    HIGH_HASHES.set(lod, known);
  }
  return known;
}

/**
 * What the opening test of object `index` sees of the parts `near` it (core nearParts: the parts
 * linksetSurroundings puts in its surroundings), without making them: each near part's high LOD
 * (hashed), rotation, and offset from this object to 10 micrometres (OFFSET_STEPS), in order, and
 * this object's rotation. Two copies with equal keys are given the same surroundings to a few
 * float steps (the copies inside a stack or a row of equal parts: each placed through its own
 * node's transform, their surroundings come out a few float steps apart), thousands of times
 * finer than the test's voxels (the finest a sixth of the avatar's width, 8 cm). Unlike the
 * object's own geometry, the surroundings are not kept to compare in full (a part of a
 * thousand-part stack has hundreds of thousands of triangles near it): the key trusts 64 bits of
 * hash, as the LOD planner does for copies (core geometryKey).
 */
export function surroundingsKey(objects: readonly SlObject[], index: number, near: readonly number[]): string {
  const h = new Hash64();
  const rotation = (o: SlObject) => {
    for (const v of o.placement?.rotation ?? [1, 0, 0, 0, 1, 0, 0, 0, 1]) h.float(v);
  };
  const self = objects[index];
  const t = self.placement?.translation ?? [0, 0, 0];
  rotation(self);
  for (const j of near) {
    const o = objects[j];
    h.word(0x2f);
    for (const w of highHash(o.lods.high)) h.word(w);
    rotation(o);
    const u = o.placement?.translation ?? [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const d = Math.round((u[k] - t[k]) * OFFSET_STEPS);
      // (The reader refuses non-finite transforms; were one here, this part shares with none.)
      if (!Number.isFinite(d)) return `alone:${index}`;
      h.integer(d);
    }
  }
  return `${near.length}:${h}`;
}
