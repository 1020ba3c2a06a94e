/** The cost report of a file on disk (Node): read it with its siblings, price it with zlibNgDeflate. */

import { assignDefaults, zlibNgDeflate } from '@slmesh/core';
import { readModelFile } from './read-file.js';
import { reportModel as reportModelWith, type FileReport, type ReportFileOptions } from './report.js';

/** reportModel with zlibNgDeflate (the viewer's zlib-ng level 9) as the default deflate. */
export function reportModel(
  ...[read, path, options]: Parameters<typeof reportModelWith>
): ReturnType<typeof reportModelWith> {
  return reportModelWith(read, path, assignDefaults({ deflate: zlibNgDeflate }, options));
}

/** Reads a file (and its siblings) and prices it. */
export async function reportFile(
  path: string,
  options: ReportFileOptions = {},
): Promise<{ report: FileReport; assets?: Map<string, Uint8Array> }> {
  return reportModel(await readModelFile(path, options), path, options);
}
