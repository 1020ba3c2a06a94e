/** The cost report of a file on disk (Node): read it with its siblings, price it with node:zlib. */

import { assignDefaults } from '@slmesh/core';
import { nodeDeflate } from './node-zlib.js';
import { readModelFile } from './read-file.js';
import { reportModel as reportModelWith, type FileReport, type ReportFileOptions } from './report.js';

/** reportModel with node:zlib as the default deflate. */
export function reportModel(...[read, path, options]: Parameters<typeof reportModelWith>): ReturnType<typeof reportModelWith> {
  return reportModelWith(read, path, assignDefaults({ deflate: nodeDeflate }, options));
}

/** Reads a file (and its siblings) and prices it. */
export async function reportFile(path: string, options: ReportFileOptions = {}): Promise<{ report: FileReport; assets?: Map<string, Uint8Array> }> {
  return reportModel(await readModelFile(path, options), path, options);
}
