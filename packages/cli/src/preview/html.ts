/**
 * Assembles the self-contained preview page: the bundled page script and style
 * (packages/preview/dist, made by `pnpm build`) inline, the preview data as JSON and the geometry
 * as base64, in one HTML file that opens without a network.
 *
 * Safety: nothing from the model is written as markup. The data sits in
 * `<script type="application/json">` with `<`, `>`, `&`, U+2028 and U+2029 escaped as \uXXXX, so
 * no name can close the element or start a comment; the geometry is base64; the page builds
 * its DOM with textContent. A Content-Security-Policy allows only the page's own script and
 * style (by hash), so even injected markup could not run script or load anything.
 */

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export interface PreviewApp {
  /** The page script (packages/preview/dist/app.js). */
  js: string;
  /** The page style (packages/preview/dist/app.css). */
  css: string;
}

/**
 * The built page: the `dist/` folder of the @slmesh/preview package, a dependency of this one
 * (a workspace link in a clone, an installed package elsewhere).
 */
export const PREVIEW_APP_DIR = `${dirname(createRequire(import.meta.url).resolve('@slmesh/preview/package.json'))}/dist/`;

let cached: PreviewApp | undefined;

/** Reads the built page script and style (once). */
export async function loadPreviewApp(dir = PREVIEW_APP_DIR): Promise<PreviewApp> {
  if (cached && dir === PREVIEW_APP_DIR) return cached;
  let app: PreviewApp;
  try {
    app = { js: await readFile(`${dir}/app.js`, 'utf8'), css: await readFile(`${dir}/app.css`, 'utf8') };
  } catch {
    throw new Error(`the preview page is not built (${dir}app.js is missing): run pnpm build`);
  }
  if (dir === PREVIEW_APP_DIR) cached = app;
  return app;
}

/**
 * JSON that is safe inside a `<script>` element: `<`, `>` and `&` (no `</script>`, no `<!--`)
 * and the line separators U+2028 / U+2029 become \uXXXX escapes, which JSON.parse reads back
 * unchanged.
 */
export function escapeJsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface PreviewHtmlInput {
  /** PreviewData as JSON (escaped here). */
  dataJson: string;
  /** The deflated geometry blob as base64. */
  geometryBase64: string;
  app: PreviewApp;
}

export function previewHtml({ dataJson, geometryBase64, app }: PreviewHtmlInput): string {
  if (!/^[A-Za-z0-9+/=]*$/.test(geometryBase64)) throw new Error('preview: geometry is not base64');
  // The bundle is checked at build time; check again, as a hand-edited dist could break the page.
  if (/<\/script|<!--/i.test(app.js) || /<\/style/i.test(app.css))
    throw new Error('preview: the page script or style would end its element early');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(app.js)}`,
    `style-src ${sha256(app.css)}`,
    'img-src data: blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>slmesh preview</title>',
    `<style>${app.css}</style>`,
    '</head>',
    '<body>',
    '<noscript>This page needs JavaScript to show the model; the numbers are also in <code>slmesh cost</code>.</noscript>',
    `<script type="application/json" id="slmesh-data">${escapeJsonForScript(dataJson)}</script>`,
    `<script type="application/octet-stream" id="slmesh-geometry">${geometryBase64}</script>`,
    `<script>${app.js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
