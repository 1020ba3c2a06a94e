/**
 * meshoptimizer's simplifier as core's SimplifyFn, for the physics shapes: the decomposition's
 * proxy of a big mesh (decompose `simplify`) and the triangle physics mesh (`mesh.simplify`).
 * Core has no simplifier of its own (it stays dependency-free); this module injects one.
 *
 * `simplify` with an unbounded error (the target triangle count decides) and no attribute
 * weights: physics needs the shape only. Guarantees: returns indices into the given positions.
 */

import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { SimplifyFn } from '@slmesh/core';

/** Resolves to a SimplifyFn over meshoptimizer's `simplify`, once its WebAssembly is ready. */
export async function meshoptSimplifyFn(simplifier: typeof MeshoptSimplifier = MeshoptSimplifier): Promise<SimplifyFn> {
  await simplifier.ready;
  return (positions, indices, targetIndexCount) =>
    simplifier.simplify(indices, positions, 3, targetIndexCount, 1, [])[0];
}
