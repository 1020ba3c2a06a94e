/**
 * slReport: the cost report of an in-memory Document, as `slmesh cost --json` prints it for a
 * file (docs/cost-report.schema.json), like glTF-Transform's `inspect`. It reads the document the
 * way the viewer's importer does (`Name_LOD2` / `_LOD1` / `_LOD0` / `_PHYS` nodes are the
 * object's LODs and physics), encodes every object as the uploader does and prices it. The
 * document is not changed.
 */

import type { Document } from '@gltf-transform/core';
import { assignDefaults, LOD_FACTOR_DEFAULT, type DeflateFn } from '@slmesh/core';
import { makeCostReport, reportModel, type CostReport, type SizeRequest } from './report.js';
import { documentToModel } from './to-model.js';
import { VERSION } from './version.js';

/** Options for {@link slReport}. */
export interface SlReportOptions {
  /** zlib deflate (RFC 1950). Default: core's zlibNgDeflate (the viewer's zlib-ng level 9, byte for byte; pure TypeScript, browser-safe). */
  deflate?: DeflateFn;
  /** RenderVolumeLODFactor for the LOD switch distances. Default: 2 (Firestorm's default). */
  lodFactor?: number;
  /** Price at another size: `{ longestSide }` or `{ scale: [x, y, z] }`, metres. Default: the model's own size. */
  size?: SizeRequest;
  /** Price as animesh. Default: false. */
  animesh?: boolean;
  /** Scripts in the linkset (server weight). Default: 0. */
  scripts?: number;
  /** Linkability rule: 'current' or 'legacy'. Default: 'current'. */
  linkRule?: 'current' | 'legacy';
  /** The name the report gives the document (its `files[0].path`). Default: the root's name, else 'document'. */
  path?: string;
}

export const SL_REPORT_DEFAULTS = {
  lodFactor: LOD_FACTOR_DEFAULT,
  animesh: false,
  scripts: 0,
  linkRule: 'current' as 'current' | 'legacy',
};

/**
 * The cost report of `document`: per object and for the linkset, download, physics and server
 * weight, land impact, linkability, LOD distances and diagnostics.
 *
 * ```javascript
 * import { NodeIO } from '@gltf-transform/core';
 * import { slReport } from '@slmesh/gltf-plugin/node';
 *
 * const report = slReport(await new NodeIO().read('chair.glb'));
 * console.log(report.files[0].linkset.landImpact);
 * ```
 */
export function slReport(document: Document, options: SlReportOptions = {}): CostReport {
  const o = assignDefaults(SL_REPORT_DEFAULTS, options);
  const path = o.path ?? (document.getRoot().getName() || 'document');
  const read = documentToModel(document, { source: path });
  const { report } = reportModel(read, path, {
    deflate: o.deflate,
    lodFactor: o.lodFactor,
    animesh: o.animesh,
    scripts: o.scripts,
    linkability: { rule: o.linkRule },
    size: o.size,
  });
  return makeCostReport(
    [report],
    { lodFactor: o.lodFactor, ...(o.size ? { size: o.size } : {}), animesh: o.animesh, linkabilityRule: o.linkRule },
    VERSION,
  );
}
