/**
 * Synthetic models for the preview tests: what a file cannot carry yet (a convex decomposition,
 * a generated LOD), built as core objects.
 */

import type { Face, SlModel } from '@slmesh/core';
import { makeCostReport, reportModel } from '@slmesh/gltf-plugin/node';
import { makePreviewPayload } from '../../cli/src/preview/payload.js';
import { decodeGeometry, type DecodedPreview, type PreviewData } from '../src/payload.js';

/** An axis-aligned box as one face (12 triangles). */
export function boxFace(material: string, min: number[], max: number[]): Face {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const indices = quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
  return { material, positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

function corners(min: number[], max: number[]): Float32Array {
  return boxFace('x', min, max).positions;
}

/** An L-shaped shelf: two boxes, a generated-looking medium LOD (one box), a two-hull decomposition. */
export function shelfModel(): SlModel {
  const a = boxFace('Wood', [0, 0, 0], [2, 0.4, 0.1]);
  const b = boxFace('Wood', [0, 0, 0], [0.1, 0.4, 1.5]);
  const merged: Face = {
    material: 'Wood',
    positions: Float32Array.from([...a.positions, ...b.positions]),
    indices: Uint32Array.from([...a.indices, ...Array.from(b.indices, (i) => i + 8)]),
  };
  return {
    objects: [
      {
        name: 'Shelf',
        lods: { high: { faces: [merged] }, medium: { faces: [boxFace('Wood', [0, 0, 0], [2, 0.4, 1.5])] } },
        decomposition: [corners([0, 0, 0], [2, 0.4, 0.1]), corners([0, 0, 0], [0.1, 0.4, 1.5])],
      },
    ],
  };
}

export function previewOfModel(model: SlModel): DecodedPreview {
  const { report: file, assets } = reportModel({ model, diagnostics: [] }, 'shelf.glb', {
    lodFactor: 2,
    keepAssets: true,
  });
  const report = makeCostReport([file], { lodFactor: 2, animesh: false, linkabilityRule: 'current' }, 'test');
  const { data, geometry } = makePreviewPayload(model, report, 2, assets);
  const json = JSON.parse(JSON.stringify(data)) as PreviewData;
  return { data: json, objects: decodeGeometry(json, geometry) };
}
