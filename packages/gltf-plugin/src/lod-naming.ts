/**
 * The viewer's naming of LODs and physics in glTF: a node named `Chair` is the high LOD,
 * `Chair_LOD2` medium, `Chair_LOD1` low, `Chair_LOD0` lowest and `Chair_PHYS` the physics mesh,
 * in one file or in sibling files (`chair_LOD2.glb` next to `chair.glb`).
 *
 * Source: indra/newview/gltf/llgltfloader.cpp (lod_suffix, getSuffixPosition, getLodlessLabel):
 * a name containing `_LOD` or `_PHYS` loses everything from its last `_`.
 */

import { LOD_SUFFIXES, type LodName } from '@slmesh/core';

export type LodSlot = LodName | 'physics';

const SLOT_BY_SUFFIX: Record<string, LodSlot> = {
  [LOD_SUFFIXES.medium]: 'medium',
  [LOD_SUFFIXES.low]: 'low',
  [LOD_SUFFIXES.lowest]: 'lowest',
  [LOD_SUFFIXES.physics]: 'physics',
};

/** Splits a node name into the object it belongs to and the LOD slot it fills. */
export function parseLodName(name: string): { base: string; slot: LodSlot } {
  if (name.includes('_LOD') || name.includes('_PHYS')) {
    const cut = name.lastIndexOf('_');
    const suffix = name.slice(cut);
    const slot = SLOT_BY_SUFFIX[suffix];
    if (slot) return { base: name.slice(0, cut), slot };
    // Something like `Wall_LOD3`: the viewer still strips it; slmesh keeps it as its own object.
  }
  return { base: name, slot: 'high' };
}

/** The sibling file that holds a slot's meshes: `chair.glb` -> `chair_LOD2.glb`. */
export function siblingFileName(fileName: string, slot: Exclude<LodSlot, 'high'>): string {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = dot > 0 ? fileName.slice(dot) : '';
  return `${stem}${LOD_SUFFIXES[slot]}${ext}`;
}

/** True when a file name is itself a sibling LOD/physics file (`chair_LOD2.glb`). */
export function isSiblingFileName(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  return /_(LOD[012]|PHYS)$/.test(stem);
}
