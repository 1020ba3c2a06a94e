/**
 * Re-prices a model at another size in the page, with @slmesh/core, exactly as
 * `slmesh cost --json --size X` does (core cost-report.ts `costReport` with the scale factors
 * of gltf-plugin report.ts `scaleFactorsFor`).
 *
 * Resizing a model in world does not change its uploaded asset, so the compressed LOD sizes,
 * the hull and the decomposition keep their weights. What changes with size: each object's
 * scale, radius and position (scaled about the linkset's centre), hence its download weight and
 * LOD switch distances; the physics mesh's triangle widths (its weight); the linkset's box
 * (physical penalty) and the prim centres (linkability). Each object is priced by core's
 * priceObjectAtScale and the linkset by core's linksetCost, the functions the report uses, so the
 * numbers are identical, not merely close (tested against the CLI).
 *
 * The diagnostics of `cost --size X` are those of the model's own size, except `not-linkable`
 * and `scale-capped` (the uploader's Scale cap, core upload-scale.ts), which follow the size:
 * priceAtSize does the same.
 */

import {
  linksetCost,
  boxCenter,
  boxSize,
  priceObjectAtScale,
  uploadScaleCap,
  type LodSwitchDistances,
  type Vec3,
} from '@slmesh/core';
import type { DecodedPreview, ReportDiagnostic, ReportLinkset, ReportObject } from './payload.js';

export interface PricedObject {
  name: string;
  scale: Vec3;
  position: Vec3;
  radius: number;
  switchDistances: LodSwitchDistances & { lodFactor: number };
  streaming: number;
  physics: ReportObject['physics'];
  server: number;
  landImpact: number;
}

export interface Priced {
  /** Longest side of the linkset box, metres. */
  longestSide: number;
  /** The per-axis factors from the model's own size. */
  factors: Vec3;
  objects: PricedObject[];
  linkset: ReportLinkset;
  diagnostics: ReportDiagnostic[];
}

/** gltf-plugin report.ts scaleFactorsFor with `{ longestSide }`. */
export function scaleFactorsForLongestSide(current: Vec3, longestSide: number | undefined): Vec3 {
  if (longestSide === undefined) return [1, 1, 1];
  const longest = Math.max(...current);
  const f = longest > 0 ? longestSide / longest : 1;
  return [f, f, f];
}

/**
 * The costs at a linkset longest side of `longestSide` metres (undefined: the model's own size),
 * with switch distances for RenderVolumeLODFactor `lodFactor`.
 */
export function priceAtSize(preview: DecodedPreview, longestSide: number | undefined, lodFactor: number): Priced {
  const { data } = preview;
  const file = data.report.files[0];
  const report = file.linkset;

  // 1. The factors and the linkset's centre and box at that size. The report priced its objects at
  //    factors r from the model's own size (1, or the uploader's Scale cap, core uploadScale); at
  //    the size asked for, the cap is taken again (core uploadScaleCap), as `cost --size` does.
  const size0 = boxSize(data.linksetBox);
  const k = size0.indexOf(Math.max(...size0));
  const r = size0[k] > 0 ? report.scale[k] / size0[k] : 1;
  const asked = scaleFactorsForLongestSide(size0, longestSide ?? Math.max(...size0) * r);
  const sized = file.objects.map((o) => ({
    name: o.name,
    size: o.scale.map((v, j) => (v / r) * asked[j]) as Vec3,
  }));
  const upload = uploadScaleCap(sized, Math.max(...size0.map((v, j) => v * asked[j])));
  const f: Vec3 = [asked[0] * upload.cap, asked[1] * upload.cap, asked[2] * upload.cap];
  const g: Vec3 = [f[0] / r, f[1] / r, f[2] / r];
  const centre = boxCenter(data.linksetBox);
  const linksetScale: Vec3 = [size0[0] * f[0], size0[1] * f[1], size0[2] * f[2]];

  // 2. Each object: core's one per-object price (the report's own computation).
  const objects: PricedObject[] = file.objects.map((o, i) => {
    const bytes = {
      high: o.lods.high.blockBytes,
      medium: o.lods.medium.blockBytes,
      low: o.lods.low.blockBytes,
      lowest: o.lods.lowest.blockBytes,
    };
    const mesh = preview.objects[i].physicsMesh;
    const priced = priceObjectAtScale(
      {
        scale: o.scale,
        position: o.position,
        bytes,
        physics: o.physics,
        ...(o.physics.mesh && mesh ? { physicsMesh: mesh } : {}),
      },
      g,
      centre,
      { lodFactor },
    );
    return { name: o.name, ...priced };
  });

  // 3. The linkset: core's own computation, with the report's linkability limits.
  const linkset: ReportLinkset = linksetCost(objects, linksetScale, {
    linkability: { maxSpan: report.linkable.limit, maxPrims: report.linkable.maxPrims },
    physics: { maxPhysicalCost: report.physical.limit },
  });

  // 4. Diagnostics: those of the model's own size; linkability and the Scale cap follow the size.
  const diagnostics = file.diagnostics.filter((d) => d.code !== 'not-linkable' && d.code !== 'scale-capped');
  if (upload.diagnostic) diagnostics.push(upload.diagnostic);
  if (!linkset.linkable.ok)
    diagnostics.push({
      severity: 'warning',
      code: 'not-linkable',
      message: `not linkable: ${linkset.linkable.reason}`,
    });

  return { longestSide: Math.max(...linksetScale), factors: f, objects, linkset, diagnostics };
}

/** Log-spaced sizes from `min` to `max` metres (inclusive), `count` of them. */
export function logSizes(min: number, max: number, count: number): number[] {
  const out: number[] = [];
  const a = Math.log(min),
    b = Math.log(max);
  for (let i = 0; i < count; i++) out.push(Math.exp(a + ((b - a) * i) / (count - 1)));
  out[0] = min;
  out[count - 1] = max;
  return out;
}
