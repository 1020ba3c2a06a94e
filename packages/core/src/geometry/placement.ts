/**
 * Prim placement: where an object's prim frame sits in the linkset (spec 4b).
 *
 * The current glTF importer (viewer #5431) keeps a non-skinned node's transform as the prim's
 * rotation and scale: the vertices stay mesh-local, the prim's scale is the mesh-local box times
 * the node's scale, and its rotation is the node's. slmesh keeps such an object's positions in the
 * prim frame (so its box is the prim's scale, as every cost needs) and the rotation and
 * translation in `SlObject.placement`. The prim's position (its box centre in the world), the
 * linkset's box and the preview need world coordinates: these functions give them.
 *
 * Guarantees: without a placement every function is the identity on the object's own positions.
 */

import type { Box3, Placement, SlObject } from '../types.js';
import { boxCenter, boxSize, emptyBox, isEmptyBox, objectBox, type Vec3 } from './object-geometry.js';

/** The identity placement. */
export function identityPlacement(): Placement {
  return { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };
}

/** A point of the prim frame in the world frame. */
export function placePoint(placement: Placement | undefined, p: Vec3): Vec3 {
  if (!placement) return [p[0], p[1], p[2]];
  const r = placement.rotation,
    t = placement.translation;
  return [
    r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + t[0],
    r[3] * p[0] + r[4] * p[1] + r[5] * p[2] + t[1],
    r[6] * p[0] + r[7] * p[1] + r[8] * p[2] + t[2],
  ];
}

/** A copy of flat xyz positions (or, with `direction`, normals) moved into the world frame. */
export function placePositions(
  placement: Placement | undefined,
  positions: Float32Array,
  direction = false,
): Float32Array {
  if (!placement) return positions.slice();
  const r = placement.rotation,
    t = direction ? [0, 0, 0] : placement.translation;
  const out = new Float32Array(positions.length);
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i],
      y = positions[i + 1],
      z = positions[i + 2];
    out[i] = r[0] * x + r[1] * y + r[2] * z + t[0];
    out[i + 1] = r[3] * x + r[4] * y + r[5] * z + t[1];
    out[i + 2] = r[6] * x + r[7] * y + r[8] * z + t[2];
  }
  return out;
}

/** The prim's position: the centre of its high LOD's box, in the world frame. */
export function primPosition(object: SlObject): Vec3 {
  return placePoint(object.placement, boxCenter(objectBox(object)));
}

/** The prim's scale: the size of its high LOD's box in the prim frame (radius = half its diagonal). */
export function primScale(object: SlObject): Vec3 {
  return boxSize(objectBox(object));
}

/** The world axis-aligned box of a prim: its (rotated) scale box's corners. */
export function worldBox(object: SlObject): Box3 {
  const box = objectBox(object);
  if (!object.placement || isEmptyBox(box)) return box;
  const out = emptyBox();
  for (let c = 0; c < 8; c++) {
    const p = placePoint(object.placement, [
      c & 1 ? box.max[0] : box.min[0],
      c & 2 ? box.max[1] : box.min[1],
      c & 4 ? box.max[2] : box.min[2],
    ]);
    for (let k = 0; k < 3; k++) {
      if (p[k] < out.min[k]) out.min[k] = p[k];
      if (p[k] > out.max[k]) out.max[k] = p[k];
    }
  }
  return out;
}

/** An object with its geometry moved into the world frame and no placement (for display). */
export function bakePlacement(object: SlObject): SlObject {
  const pl = object.placement;
  if (!pl) return object;
  const lod = (l: SlObject['lods']['high'] | undefined) =>
    l && {
      faces: l.faces.map((f) => ({
        ...f,
        positions: placePositions(pl, f.positions),
        ...(f.normals ? { normals: placePositions(pl, f.normals, true) } : {}),
      })),
    };
  const { placement: _, ...rest } = object;
  return {
    ...rest,
    lods: {
      high: lod(object.lods.high)!,
      ...(object.lods.medium ? { medium: lod(object.lods.medium) } : {}),
      ...(object.lods.low ? { low: lod(object.lods.low) } : {}),
      ...(object.lods.lowest ? { lowest: lod(object.lods.lowest) } : {}),
    },
    ...(object.physicsMesh ? { physicsMesh: lod(object.physicsMesh) } : {}),
    ...(object.hull ? { hull: placePositions(pl, object.hull) } : {}),
    ...(object.decomposition ? { decomposition: object.decomposition.map((h) => placePositions(pl, h)) } : {}),
  };
}

/**
 * The prim-frame axis closest to world up (Z): the object's placement rotates its prim frame into
 * the world (rows of a row-major rotation are the world axes in prim coordinates); without one
 * the prim frame is the world. A glTF node without rotation comes out Y-up (the importer's
 * Y-up to Z-up turn).
 */
export function primUpAxis(object: SlObject): 0 | 1 | 2 {
  const r = object.placement?.rotation;
  if (!r) return 2;
  const row = [Math.abs(r[6]), Math.abs(r[7]), Math.abs(r[8])];
  return row[0] >= row[1] && row[0] >= row[2] ? 0 : row[1] >= row[2] ? 1 : 2;
}

/**
 * The other objects of a linkset whose world boxes come within `reach` (world metres) of object
 * `index`'s sideways and reach `overhead` or more above its base (any height above that), in
 * order: the parts whose high LODs make its surroundings (linksetSurroundings).
 *
 * `boxes` are the objects' world boxes (`worldBox`, in the same order). A caller that asks for
 * every object of a linkset in turn passes them, made once: a world box reads every vertex of
 * high, and made again for each object they cost time in the square of the object count (800
 * parts of 1,280 triangles: 14 s).
 */
export function nearParts(
  objects: readonly SlObject[],
  index: number,
  reach: number,
  overhead = 0,
  boxes: readonly Box3[] = objects.map(worldBox),
): number[] {
  const own = boxes[index];
  if (isEmptyBox(own)) return [];
  // Beside it within reach (world z is up), and reaching `overhead` above its base.
  const near = (b: Box3) =>
    !isEmptyBox(b) &&
    b.max[2] >= own.min[2] + overhead &&
    [0, 1].every((k) => b.max[k] >= own.min[k] - reach && b.min[k] <= own.max[k] + reach);
  const out: number[] = [];
  for (let i = 0; i < objects.length; i++) if (i !== index && near(boxes[i])) out.push(i);
  return out;
}

/**
 * The high LODs of objects `near` (indices, nearParts gives them) as one triangle soup in object
 * `index`'s prim frame (what the physics opening test takes as `surroundings`, which keeps only
 * what lies overhead), or undefined when there are none.
 */
export function linksetSurroundings(
  objects: readonly SlObject[],
  index: number,
  near: readonly number[],
): { positions: Float32Array; indices: Uint32Array } | undefined {
  const self = objects[index];
  const parts = near.map((i) => objects[i]);
  if (parts.length === 0) return undefined;
  const faces = parts.flatMap((o) => o.lods.high.faces.map((f) => ({ o, f })));
  const vertices = faces.reduce((a, { f }) => a + f.positions.length / 3, 0);
  const positions = new Float32Array(3 * vertices);
  const indices = new Uint32Array(faces.reduce((a, { f }) => a + f.indices.length, 0));
  // World = R p + t for each part; into this prim frame: R_selfᵀ (world - t_self) (R a rotation).
  const r = self.placement?.rotation ?? [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const t = self.placement?.translation ?? [0, 0, 0];
  let v = 0,
    w = 0;
  for (const { o, f } of faces) {
    const world = placePositions(o.placement, f.positions);
    for (let i = 0; i + 2 < world.length; i += 3) {
      const x = world[i] - t[0],
        y = world[i + 1] - t[1],
        z = world[i + 2] - t[2];
      positions[3 * v + i] = r[0] * x + r[3] * y + r[6] * z;
      positions[3 * v + i + 1] = r[1] * x + r[4] * y + r[7] * z;
      positions[3 * v + i + 2] = r[2] * x + r[5] * y + r[8] * z;
    }
    for (let i = 0; i < f.indices.length; i++) indices[w + i] = f.indices[i] + v;
    v += f.positions.length / 3;
    w += f.indices.length;
  }
  return { positions, indices };
}
