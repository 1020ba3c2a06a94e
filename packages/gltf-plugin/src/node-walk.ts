/**
 * Walks a glTF node tree depth-first, in scene order, without recursion: a 10,000-level chain
 * of nodes needs no stack, and each node's world matrix is its parent's times its own local
 * matrix, computed once (walking up to the root for every node would be quadratic).
 *
 * Guarantees: every node is visited at most once, even if a hostile file made a node its own
 * ancestor or shared it between parents; the work is linear in the number of nodes.
 */

import type { Node } from '@gltf-transform/core';

type Mat4 = number[];

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Mat4 {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return out;
}

const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Calls `visit(node, world)` for each node below `roots` (pre-order, children in order). */
export function walkSceneNodes(roots: readonly Node[], visit: (node: Node, world: ArrayLike<number>) => void): void {
  const seen = new Set<Node>();
  const stack: { node: Node; parent: Mat4 }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i], parent: IDENTITY });
  while (stack.length) {
    const { node, parent } = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const world = multiply(parent, node.getMatrix());
    visit(node, world);
    const children = node.listChildren();
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent: world });
  }
}
