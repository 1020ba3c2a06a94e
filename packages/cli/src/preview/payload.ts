/**
 * The data the preview page embeds: the cost report plus a compact binary of every object's
 * geometry in Second Life's frame (Z up, metres). The format (types, version, the geometry
 * encoder and the decoder) is owned by the preview package, `@slmesh/preview/payload`
 * (packages/preview/src/payload.ts, docs/preview.md); this module fills it from a model.
 *
 * One entry per object of the report, in its order: the objects the uploader would send (faces
 * over 65,525 vertices and objects over 8 faces split as the importer splits them), so face
 * indices always fit u16 in practice. LOD positions are quantised to u16 over each LOD's box
 * and normals to i8: enough to look at. Everything a cost depends on is exact float32: the
 * physics mesh (its weight depends on triangle widths at the priced size) and the hull points.
 * The page draws whatever LODs and physics shapes an object carries, so generated LODs and
 * decompositions appear without a change here.
 */

import { deflateSync } from 'node:zlib';
import {
  computeUploadNormalization,
  denormalizePoints,
  convexHull,
  decodeConvexBlock,
  emptyBox,
  inflateMeshBlock,
  lodPositions,
  lodTriangleCount,
  lodTriangles,
  bakePlacement,
  objectBox,
  placePositions,
  worldBox,
  prepareForUpload,
  readLlsdBinary,
  readMeshHeader,
  unionBox,
  type LodName,
  type SlModel,
  type SlObject,
} from '@slmesh/core';
import { nodeInflate, type CostReport, type FileReport } from '@slmesh/gltf-plugin/node';
import {
  BlobWriter,
  encodeGeometry as encodeGeometryWith,
  encodeLod,
  plainBox,
  PREVIEW_FORMAT,
  type PreviewData,
  type PreviewObject,
} from '@slmesh/preview/payload';

// The format (types, version, encoder, decoder) is the preview package's: one owner.
export {
  PREVIEW_FORMAT,
  quantise,
  type BlobRef,
  type PreviewFace as PreviewFaceOut,
  type PreviewObject as PreviewObjectOut,
} from '@slmesh/preview/payload';

/** PreviewData with the full cost report type (the page reads a subset of it). */
export interface PreviewDataOut extends Omit<PreviewData, 'report'> {
  report: CostReport;
}

/**
 * The single hull the report priced. From the encoded asset when there is one (its BoundingVerts,
 * back in the world frame: exactly what the uploader sends, without computing the hull again);
 * else the object's own hull, else core's convexHull of the report's source LOD.
 */
function pricedHull(object: SlObject, source: string, asset: Uint8Array | undefined): Float32Array {
  if (asset) {
    try {
      const header = readMeshHeader(asset);
      if (header.blocks.physics_convex) {
        const block = readLlsdBinary(inflateMeshBlock(asset, header, 'physics_convex', nodeInflate)).value;
        const unit = decodeConvexBlock(block).boundingVerts;
        if (unit && unit.length >= 12) {
          // Back to the world frame: the inverse of the uploader's normalisation.
          return denormalizePoints(unit, computeUploadNormalization(object.lods.high));
        }
      }
    } catch {
      // Fall through: compute the hull as the report did.
    }
  }
  if (object.hull) return object.hull;
  const lod = source === 'physics' ? object.physicsMesh : object.lods[source as LodName];
  return convexHull(lodPositions(lod ?? object.lods.high)).points;
}

/**
 * The preview data for one file's report. `model` is what the report was made from; objects the
 * report left out (blocked by geometry errors) are skipped the same way. `assets` (the report's
 * `keepAssets` output, by object name) saves computing the hulls again.
 */
export function makePreviewPayload(
  model: SlModel,
  report: CostReport,
  lodFactor: number,
  assets?: Map<string, Uint8Array>,
): { data: PreviewDataOut; geometry: Uint8Array } {
  const file: FileReport = report.files[0];
  // Assets are kept by name: only a name used once identifies its asset.
  const seen = new Map<string, number>();
  for (const o of file.objects) seen.set(o.name, (seen.get(o.name) ?? 0) + 1);
  const assetOf = (name: string) => (seen.get(name) === 1 ? assets?.get(name) : undefined);
  const parts = prepareForUpload(model);
  const w = new BlobWriter();

  // 1. The linkset's box over every part, as the report computes it.
  let linksetBox = emptyBox();
  for (const p of parts) linksetBox = unionBox(linksetBox, worldBox(p.object));

  // 2. Match parts to report objects in order (the report skips blocked objects).
  const objects: PreviewObject[] = [];
  let k = 0;
  for (const ro of file.objects) {
    while (k < parts.length && !(parts[k].object.name === ro.name && parts[k].submodelId === ro.submodelId)) k++;
    if (k >= parts.length) throw new Error(`preview: report object ${ro.name} has no geometry`);
    // Geometry is drawn in the world frame (the prim's rotation applied); `box` has the prim's
    // scale around its world position, which is what the page re-prices with.
    const prim = parts[k++].object;
    const object = bakePlacement(prim);

    const lods: PreviewObject['lods'] = {};
    for (const name of ['high', 'medium', 'low', 'lowest'] as const) {
      const lod = object.lods[name];
      if (lod && ro.lods[name].present) lods[name] = encodeLod(w, lod);
    }
    const out: PreviewObject = {
      box: plainBox(objectBox(object)),
      lods,
      hull: w.add(
        Float32Array.from(
          placePositions(prim.placement, pricedHull(prim, ro.physics.convexHull.source, assetOf(ro.name))),
        ),
        'f32',
      ),
    };
    if (object.decomposition && object.decomposition.length > 0)
      out.decomposition = object.decomposition.map((h) => w.add(Float32Array.from(h), 'f32'));
    if (object.physicsMesh && lodTriangleCount(object.physicsMesh) > 0) {
      const tri = lodTriangles(object.physicsMesh);
      out.physicsMesh = { positions: w.add(tri.positions, 'f32'), indices: w.add(tri.indices, 'u32') };
    }
    objects.push(out);
  }

  const geometry = w.bytes();
  const data: PreviewDataOut = {
    format: PREVIEW_FORMAT,
    report,
    lodFactor,
    linksetBox: plainBox(linksetBox),
    objects,
    geometryBytes: geometry.length,
    createdAt: new Date().toISOString(),
  };
  return { data, geometry };
}

/** zlib (RFC 1950) deflate and base64: what the page's DecompressionStream('deflate') reads. */
export function encodeGeometry(geometry: Uint8Array): string {
  return encodeGeometryWith(geometry, (data, level) => deflateSync(data, { level }));
}
