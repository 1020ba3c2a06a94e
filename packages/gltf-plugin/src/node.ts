/**
 * @slmesh/gltf-plugin/node: everything the browser-safe entry has, with core's zlibNgDeflate (the
 * viewer's zlib-ng level 9, byte for byte) as the default `deflate` of slLods, slReport and
 * reportModel, plus the Node conveniences: reading files with their sibling LOD / physics files
 * (`readModelFile`, `readDocument`, `reportFile`), a NodeIO with every extension and the Draco /
 * meshopt decoders (`createNodeIO`), node:zlib's inflate (`nodeInflate`) and the whole optimize
 * pipeline (`optimizeFile`).
 */
import type { Document, Transform } from '@gltf-transform/core';
import { assignDefaults, zlibNgDeflate } from '@slmesh/core';
import { slLods as slLodsWith, type SlLodsOptions } from './sl-lods.js';
import { slReport as slReportWith, type SlReportOptions } from './sl-report.js';
import type { CostReport } from './report.js';

export * from './index.js';
export * from './safe-read.js';
export * from './node-io.js';
export * from './read-file.js';
export * from './node-zlib.js';
export * from './optimize.js';
export { errorFromWorker, hasFunction, workerErrorMessage, type WorkerErrorMessage } from './worker-messages.js';
export { reportModel, reportFile } from './report-file.js';

/** {@link slLodsWith | slLods}, with zlibNgDeflate as the default deflate. */
export function slLods(options: SlLodsOptions): Transform {
  return slLodsWith(assignDefaults({ deflate: zlibNgDeflate }, options));
}

/** {@link slReportWith | slReport}, with zlibNgDeflate as the default deflate. */
export function slReport(document: Document, options: SlReportOptions = {}): CostReport {
  return slReportWith(document, assignDefaults({ deflate: zlibNgDeflate }, options));
}
