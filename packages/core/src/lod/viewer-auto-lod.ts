/**
 * The Second Life viewer's own auto-LODs, the baseline slmesh's LODs must beat: what the
 * uploader's "Generate" does by default (LLModelPreview::genMeshOptimizerLODs in mode
 * MESH_OPTIMIZER_AUTO, indra/newview/llmodelpreview.cpp, viewer 7.x; spec section 5).
 *
 * Per object, each lower LOD is simplified from high to 1/3, 1/9, 1/27 of its triangles
 * (target indices = floor(indices / 3^k), at least 3) with meshopt_simplify, no attributes, no
 * flags and a target error of 1 (100 % of the object's size: unlimited). The faces are simplified
 * together (genMeshOptimizerPerModel); each face was welded on its own first (LLVolumeFace::remap).
 * When a result keeps more than 1.8 times the wanted triangles, the viewer retries with a shadow
 * index buffer that ignores normals (vertices welded by position and uv over all faces), then one
 * that also ignores UVs (by position), then simplifySloppy with its own corrections; if sloppy
 * fails or is worse, it goes back to the first method, or copies high. Triangles are given back to
 * the face of their first vertex.
 *
 * Not modelled: the per-face fallback when a face would exceed 65535 vertices (never the case for
 * a simplified face), the 5-second time limit of the sloppy retries.
 */

import {
  prepareLodSource,
  splitIntoFaces,
  weldRemap,
  type LodSource,
  type MeshSimplifier,
  type SimplifiedLod,
} from './lod-generator.js';
import type { MeshLod, SlObject } from '../types.js';

/** The viewer's LOD decimation per step (LLModelPreview: decimation = 3). */
export const VIEWER_LOD_DECIMATION = 3;
/** allowed_ratio_drift and sloppy_ratio_drift of genMeshOptimizerLODs. */
const ALLOWED_RATIO_DRIFT = 1.8;
const SLOPPY_RATIO_DRIFT = 1.4;

type ViewerMode = 'full' | 'no-normals' | 'no-uvs' | 'sloppy';

interface ViewerRun {
  /** size_indices / new_indices, or -1 when fewer than 3 indices remain (the viewer's failure). */
  ratio: number;
  result: SimplifiedLod;
}

/**
 * The index count the viewer asks meshoptimizer for when it decimates `sizeIndices` indices by
 * `decimator`: llclamp(llfloor(size_indices / decimator), 3, size_indices), in whole triangles
 * (meshoptimizer's JS API asks for a multiple of 3).
 */
export function viewerTargetIndexCount(sizeIndices: number, decimator: number): number {
  return Math.floor(Math.min(Math.max(Math.floor(sizeIndices / decimator), 3), sizeIndices) / 3) * 3;
}

function run(
  source: LodSource,
  s: MeshSimplifier,
  decimator: number,
  mode: ViewerMode,
  remaps: Map<ViewerMode, Uint32Array>,
): ViewerRun {
  const sizeIndices = source.indices.length;
  const target = viewerTargetIndexCount(sizeIndices, decimator);
  let indices = source.indices;
  if (mode === 'no-normals' || mode === 'no-uvs') {
    let remap = remaps.get(mode);
    if (!remap) {
      remap = weldRemap(source, mode === 'no-normals', true);
      remaps.set(mode, remap);
    }
    indices = new Uint32Array(sizeIndices);
    for (let i = 0; i < sizeIndices; i++) indices[i] = remap[source.indices[i]];
  }
  const [out, error] =
    mode === 'sloppy'
      ? s.simplifySloppy(indices, source.positions, 3, null, target, 1)
      : s.simplify(indices, source.positions, 3, target, 1, []);
  const result = splitIntoFaces(
    source,
    out,
    error * source.maxSide,
    mode === 'full' ? 'no-uvs' : mode === 'no-normals' ? 'no-normals' : mode === 'no-uvs' ? 'no-uvs' : 'sloppy',
  );
  const ratio = out.length < 3 || result.triangles === 0 ? -1 : sizeIndices / out.length;
  return { ratio, result };
}

/** One LOD the way genMeshOptimizerLODs (MESH_OPTIMIZER_AUTO) makes it from `source` (high). */
export function viewerAutoLod(
  source: LodSource,
  simplifier: MeshSimplifier,
  decimator: number,
  remaps = new Map<ViewerMode, Uint32Array>(),
): SimplifiedLod {
  const copyHigh = (): SimplifiedLod => splitIntoFaces(source, source.indices, 0, 'no-uvs');
  let precise = run(source, simplifier, decimator, 'full', remaps);
  let current = precise;
  if (precise.ratio < 0 || precise.ratio * ALLOWED_RATIO_DRIFT < decimator) {
    precise = current = run(source, simplifier, decimator, 'no-normals', remaps);
  }
  if (precise.ratio < 0 || precise.ratio * ALLOWED_RATIO_DRIFT < decimator) {
    precise = current = run(source, simplifier, decimator, 'no-uvs', remaps);
  }
  if (precise.ratio < 0 || precise.ratio * ALLOWED_RATIO_DRIFT < decimator) {
    // The sloppy variant and its corrections.
    let lastWorking: ViewerRun | undefined;
    let sloppy = run(source, simplifier, decimator, 'sloppy', remaps);
    if (sloppy.ratio > 0) lastWorking = sloppy;
    if (sloppy.ratio > decimator * SLOPPY_RATIO_DRIFT || sloppy.ratio < 0) {
      const corrected = (decimator * (decimator / sloppy.ratio + 1)) / 2;
      sloppy = run(
        source,
        simplifier,
        corrected > 0 && Number.isFinite(corrected) ? corrected : decimator,
        'sloppy',
        remaps,
      );
    }
    if (lastWorking && sloppy.ratio < lastWorking.ratio) sloppy = run(source, simplifier, decimator, 'sloppy', remaps);
    if (sloppy.ratio < 0) {
      const step = Math.sqrt(VIEWER_LOD_DECIMATION);
      let d = decimator / step;
      while (sloppy.ratio < 0 && d > precise.ratio && d > 1) {
        sloppy = run(source, simplifier, d, 'sloppy', remaps);
        d /= step;
      }
    }
    if (sloppy.ratio < 0 || sloppy.ratio < precise.ratio) {
      current =
        precise.ratio < 0 ? { ratio: 1, result: copyHigh() } : run(source, simplifier, decimator, 'full', remaps);
    } else {
      current = sloppy;
    }
  }
  return current.ratio < 0 ? copyHigh() : current.result;
}

/**
 * The viewer's auto-LOD chain for an object: medium, low, lowest at 1/3, 1/9, 1/27 of high.
 * `highSource`: high already prepared, used when its weld is known to be exact (LodSource.exactWeld,
 * prepareLodSource with checkExactWeld).
 */
export function viewerAutoLods(
  object: SlObject,
  simplifier: MeshSimplifier,
  highSource?: LodSource,
): { object: SlObject; lods: { medium: MeshLod; low: MeshLod; lowest: MeshLod } } {
  const source = highSource?.exactWeld ? highSource : prepareLodSource(object.lods.high, { weldTolerance: 0 });
  const remaps = new Map<ViewerMode, Uint32Array>();
  const d = VIEWER_LOD_DECIMATION;
  const lods = {
    medium: viewerAutoLod(source, simplifier, d, remaps).lod,
    low: viewerAutoLod(source, simplifier, d * d, remaps).lod,
    lowest: viewerAutoLod(source, simplifier, d * d * d, remaps).lod,
  };
  return { object: { ...object, lods: { high: object.lods.high, ...lods } }, lods };
}
