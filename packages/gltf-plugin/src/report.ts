/**
 * The cost report of files: the JSON CI users and the preview depend on. Its schema is
 * docs/cost-report.schema.json; `schemaVersion` changes only when a field changes meaning or
 * goes away (new fields may be added).
 */

import {
  boxSize,
  COST_REPORT_SCHEMA_VERSION,
  costReport,
  emptyBox,
  unionBox,
  worldBox,
  zlibNgDeflate,
  type CostReportOptions,
  type DeflateFn,
  type Diagnostic,
  type LinksetCost,
  type ObjectCost,
  type SlModel,
  type Vec3,
} from '@slmesh/core';
import type { ReadModelFileOptions } from './read-file.js';

export interface FileReport {
  /** The file as named on the command line. */
  path: string;
  /** Sibling LOD / physics files that were read with it. */
  siblings: string[];
  objects: ObjectCost[];
  linkset: LinksetCost;
  diagnostics: Diagnostic[];
}

export interface CostReport {
  schemaVersion: number;
  generator: { name: 'slmesh'; version: string };
  settings: {
    lodFactor: number;
    /** The size asked about, when not the model's own. */
    size?: { scaleFactors: Vec3 } | { scale: Vec3 } | { longestSide: number };
    animesh: boolean;
    linkabilityRule: 'current' | 'legacy';
  };
  files: FileReport[];
}

/** How to choose the size a report is about, for a whole linkset. */
export type SizeRequest = { scale: Vec3 } | { longestSide: number } | undefined;

export interface ReportFileOptions extends Omit<CostReportOptions, 'deflate' | 'scaleFactors'>, ReadModelFileOptions {
  /** Price at another size: the linkset's box size [x, y, z] or its longest side, metres. */
  size?: SizeRequest;
  /** zlib deflate (RFC 1950), level 9 as the uploader. Default: core's zlibNgDeflate (the viewer's zlib-ng, byte for byte; pure TypeScript). */
  deflate?: CostReportOptions['deflate'];
}

/** The given deflate, else core's zlibNgDeflate (the viewer's zlib-ng level 9, browser-safe). */
export function deflateOrDefault(deflate: DeflateFn | undefined): DeflateFn {
  return deflate ?? zlibNgDeflate;
}

/** Scale factors that take a linkset of `current` size to the size asked for. */
export function scaleFactorsFor(current: Vec3, size: SizeRequest): Vec3 {
  if (!size) return [1, 1, 1];
  if ('longestSide' in size) {
    const longest = Math.max(...current);
    const f = longest > 0 ? size.longestSide / longest : 1;
    return [f, f, f];
  }
  return current.map((c, i) => (c > 0 ? size.scale[i] / c : 1)) as Vec3;
}

/** Prices a model already read (from a file, or a Document via documentToModel). */
export function reportModel(
  read: { model: SlModel; diagnostics: Diagnostic[]; files?: string[] },
  path: string,
  options: Omit<ReportFileOptions, keyof ReadModelFileOptions> = {},
): { report: FileReport; assets?: Map<string, Uint8Array> } {
  const deflate = deflateOrDefault(options.deflate);
  const box = read.model.objects.reduce((b, o) => unionBox(b, worldBox(o)), emptyBox());
  const scaleFactors = scaleFactorsFor(boxSize(box), options.size);
  const cost = costReport(read.model, { ...options, deflate, scaleFactors });
  return {
    report: {
      path,
      siblings: (read.files ?? []).slice(1),
      objects: cost.objects,
      linkset: cost.linkset,
      diagnostics: [...read.diagnostics, ...cost.diagnostics],
    },
    ...(cost.assets ? { assets: cost.assets } : {}),
  };
}

/**
 * The replacer every slmesh JSON output uses (cost and check reports, optimize's report, the
 * check cache): JSON has no Infinity, so an unbounded number (a LOD that never shows, the floor
 * chain's bound) is written as null.
 */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

export function makeCostReport(files: FileReport[], settings: CostReport['settings'], version: string): CostReport {
  return { schemaVersion: COST_REPORT_SCHEMA_VERSION, generator: { name: 'slmesh', version }, settings, files };
}
