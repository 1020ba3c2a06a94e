/**
 * One preview page from one model file: read it (with its sibling LOD / physics files), price
 * it exactly as `slmesh cost --json` does at its own size, embed the report and the geometry,
 * and assemble the HTML. Any unreadable input is a SlmeshError naming the file.
 */

import { createHash } from 'node:crypto';
import type { Diagnostic, SlModel } from '@slmesh/core';
import { makeCostReport, readModelFile, reportModel } from '@slmesh/gltf-plugin/node';
import { VERSION } from '../version.js';
import { loadPreviewApp, previewHtml, type PreviewApp } from './html.js';
import { encodeGeometry, makePreviewPayload } from './payload.js';
import { LOD_FACTOR_DEFAULT } from '@slmesh/core';

export interface PreviewPageOptions {
  /** RenderVolumeLODFactor the page starts with (the page offers LOD_FACTOR_CHOICES). Default LOD_FACTOR_DEFAULT (2). */
  lodFactor?: number;
  /** Read sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS` files. Default true. */
  siblings?: boolean;
  /** When served: the version the page carries and the path of the server's event stream. */
  live?: { version: number; events: string };
  /** The built page (default: packages/preview/dist). */
  app?: PreviewApp;
}

export interface PreviewPage {
  html: string;
  /** Hash of what the page shows (report and geometry, not the time it was made). */
  contentHash: string;
  /** Every file read, the model first. */
  files: string[];
  objects: number;
}

/** Reads `path` and builds its preview page. */
export async function buildPreviewPage(path: string, options: PreviewPageOptions = {}): Promise<PreviewPage> {
  const read = await readModelFile(path, { siblings: options.siblings !== false });
  return previewPageOf(read, path, options);
}

/**
 * The preview page of a model already read (a file, or a model with generated LODs or a
 * convex decomposition): the page shows whatever LODs and physics shapes its objects carry.
 */
export async function previewPageOf(
  read: { model: SlModel; diagnostics: Diagnostic[]; files?: string[] },
  path: string,
  options: PreviewPageOptions = {},
): Promise<PreviewPage> {
  const lodFactor = options.lodFactor ?? LOD_FACTOR_DEFAULT;
  const app = options.app ?? (await loadPreviewApp());

  // 1. Price as `slmesh cost --json` does (own size, current link rule, no scripts).
  const { report: fileReport, assets } = reportModel(read, path, {
    lodFactor,
    animesh: false,
    scripts: 0,
    linkability: { rule: 'current' },
    keepAssets: true,
  });
  const report = makeCostReport([fileReport], { lodFactor, animesh: false, linkabilityRule: 'current' }, VERSION);

  // 2. Embed: JSON (report, boxes, references) and the deflated geometry.
  const { data, geometry } = makePreviewPayload(read.model, report, lodFactor, assets);
  const geometryBase64 = encodeGeometry(geometry);
  const contentHash = createHash('sha256')
    .update(JSON.stringify({ ...data, createdAt: '' }))
    .update(geometry)
    .digest('hex')
    .slice(0, 16);
  if (options.live) data.live = options.live;
  const html = previewHtml({ dataJson: JSON.stringify(data), geometryBase64, app });
  return { html, contentHash, files: read.files ?? [path], objects: fileReport.objects.length };
}
