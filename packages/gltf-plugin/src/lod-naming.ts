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

/** How `_LODn` / `_PHYS` nodes inside the high file are read. */
export type LodNodesMode = 'objects' | 'lods';

/** The viewer's label of a node: a name containing `_LOD` or `_PHYS` loses everything from its last `_` (`getLodlessLabel`). */
export function lodlessLabel(name: string): string {
  return name.includes('_LOD') || name.includes('_PHYS') ? name.slice(0, name.lastIndexOf('_')) : name;
}

/**
 * The slots the nodes of the high file fill. The glTF importer fills LOD and physics slots only
 * from their own files (`lookupLODModelFiles`: `chair_LOD2.glb` ... next to `chair.glb`); in the
 * high file a `Chair_LOD2` node is cut to `Chair`, clashes with the real one and is uploaded as
 * an extra object `Chair_copy_1` (spec 4). `objects` (what the uploader does, for pricing) makes
 * each such node an object and says so in a `lod-node-in-high-file` warning; `lods` (for
 * `optimize`, which writes the sibling files) takes them as the slots their names say.
 */
export function highFileSlots<N extends { name: string }>(
  nodes: N[],
  source: string,
  mode: LodNodesMode,
): {
  slotNodes: { base: string; slot: LodSlot; node: N; source: string }[];
  diagnostics: { severity: 'warning'; code: string; message: string; object?: string }[];
} {
  if (mode === 'lods')
    return { slotNodes: nodes.map((node) => ({ ...parseLodName(node.name), node, source })), diagnostics: [] };
  const diagnostics: { severity: 'warning'; code: string; message: string; object?: string }[] = [];
  const used = new Set<string>();
  const slotNodes = nodes.map((node) => {
    const base = lodlessLabel(node.name);
    let name = base;
    for (let k = 1; used.has(name); k++) name = `${base}_copy_${k}`;
    used.add(name);
    const slot = parseLodName(node.name).slot;
    if (slot !== 'high') {
      const file = source.replace(/^.*[\\/]/, '');
      diagnostics.push({
        severity: 'warning',
        code: 'lod-node-in-high-file',
        object: name,
        message: `${source}: node ${node.name} is not a ${slot === 'physics' ? 'physics model' : 'LOD'}: the uploader takes ${slot === 'physics' ? 'physics' : 'LODs'} only from sibling files, so it cuts the name to ${base} and uploads it as an extra object ${name} (priced so); move it to ${siblingFileName(file, slot)} or run slmesh optimize, which writes the sibling files`,
      });
    }
    return { base, slot: 'high' as LodSlot, node, source };
  });
  return { slotNodes, diagnostics };
}
