/**
 * `slmesh preview <model>`: one self-contained HTML page showing the model with the LOD Second
 * Life would show at the camera's distance, the four LODs side by side, the physics shapes, the
 * costs (re-priced in the page when the size changes) and the diagnostics.
 *
 *   slmesh preview chair.glb                 # writes chair.preview.html
 *   slmesh preview chair.glb -o page.html
 *   slmesh preview chair.glb --serve --watch # http://127.0.0.1:<port>/, reloads on re-export
 *
 * An unreadable model stops the command before anything is written (one line, exit 2). Under
 * --watch a failed re-run is reported and the last good page stays.
 */

import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { isSlmeshError, SlmeshError, LOD_FACTOR_DEFAULT } from '@slmesh/core';
import { buildPreviewPage } from '../preview/page.js';
import { PREVIEW_EVENTS_PATH, startPreviewServer, type PreviewServer } from '../preview/server.js';
import { watchModel, type ModelWatcher } from '../preview/watch.js';
import { writeFileAtomic } from '../write-atomic.js';
import { refuseOverwritingInputs } from '../fs/output-guard.js';

export interface PreviewCommandOptions {
  output?: string;
  serve?: boolean;
  port?: string;
  watch?: boolean;
  lodFactor?: string;
  siblings?: boolean;
}

export interface PreviewIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Ends a --serve / --watch session (default: SIGINT or SIGTERM). */
  stop?: Promise<void>;
}

/** The default page name: `<model stem>.preview.html` in the current folder. */
export function defaultPreviewPath(model: string): string {
  const base = basename(model);
  return `${base.slice(0, base.length - extname(base).length) || 'model'}.preview.html`;
}

function parseOptions(options: PreviewCommandOptions) {
  const lodFactor = options.lodFactor !== undefined ? Number(options.lodFactor) : LOD_FACTOR_DEFAULT;
  if (!Number.isFinite(lodFactor) || lodFactor <= 0)
    throw new SlmeshError('USAGE', `--lod-factor must be a positive number, got "${options.lodFactor}"`);
  let port = 0;
  if (options.port !== undefined) {
    if (!options.serve) throw new SlmeshError('USAGE', '--port needs --serve');
    port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new SlmeshError('USAGE', `--port must be a whole number from 0 to 65535, got "${options.port}"`);
  }
  return { lodFactor, port, siblings: options.siblings !== false };
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export async function runPreview(model: string, options: PreviewCommandOptions, io: PreviewIo): Promise<number> {
  const { lodFactor, port, siblings } = parseOptions(options);
  const output = options.output ?? (options.serve ? undefined : defaultPreviewPath(model));
  let version = 1;
  // The page never replaces the model or its sibling files (`-o model.glb`), nor a read-only file.
  if (output) await refuseOverwritingInputs(model, output, { split: false });

  // 1. The first page: an unreadable model stops here, before anything is written.
  let page = await buildPreviewPage(model, {
    lodFactor,
    siblings,
    live: options.serve ? { version, events: PREVIEW_EVENTS_PATH } : undefined,
  });
  if (output) {
    await writeFileAtomic(output, page.html);
    io.out(
      `wrote ${output} (${page.objects} object${page.objects === 1 ? '' : 's'}, ${kib(Buffer.byteLength(page.html))})`,
    );
  }
  if (!options.serve && !options.watch) return 0;

  // 2. Serve it, and re-run on changes.
  let server: PreviewServer | undefined;
  let watcher: ModelWatcher | undefined;
  const stop = io.stop ?? signalled();
  try {
    if (options.serve) {
      server = await startPreviewServer({ html: page.html, version }, { port });
      io.out(`serving ${model} at ${server.url}${options.watch ? ' (watching for changes)' : ''}; Ctrl-C to stop`);
    }
    if (options.watch) {
      if (!options.serve)
        io.out(
          `watching ${model}; the page is rewritten on each change (use --serve for a page that reloads itself); Ctrl-C to stop`,
        );
      watcher = watchModel(
        model,
        async () => {
          try {
            const next = await buildPreviewPage(model, {
              lodFactor,
              siblings,
              live: options.serve ? { version: version + 1, events: PREVIEW_EVENTS_PATH } : undefined,
            });
            if (next.contentHash === page.contentHash) return;
            version++;
            page = next;
            if (output) await writeFileAtomic(output, page.html);
            server?.setPage(page.html, version);
            io.out(`updated (version ${version}, ${page.objects} object${page.objects === 1 ? '' : 's'})`);
          } catch (e) {
            const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0];
            io.err(
              `slmesh: ${msg}${isSlmeshError(e) ? '' : ' (internal error)'}; the page keeps the last good version`,
            );
            server?.notifyError(msg);
          }
        },
        { ignore: output ? [basename(output)] : [] },
      );
    }
    await stop;
  } finally {
    watcher?.close();
    await server?.close();
  }
  return 0;
}

export function registerPreview(program: Command, run: (fn: () => Promise<number>) => Promise<void>): void {
  program
    .command('preview')
    .description(
      'see the model, its LODs at the distances Second Life shows them, its physics and costs in a browser page',
    )
    .argument('<model>', 'glTF or GLB file (sibling _LOD2/_LOD1/_LOD0/_PHYS files are picked up)')
    .option('-o, --output <file>', 'write the page here (default <model>.preview.html; with --serve only when given)')
    .option('--serve', 'serve the page on http://127.0.0.1 and print its URL')
    .option('--port <n>', 'port for --serve (default: a free one)')
    .option('--watch', 're-run when the model or its sibling files change (with --serve the page reloads itself)')
    .option('--lod-factor <F>', 'RenderVolumeLODFactor the page starts with', String(LOD_FACTOR_DEFAULT))
    .option('--no-siblings', 'do not read sibling _LOD2/_LOD1/_LOD0/_PHYS files')
    .action(async (model: string, options: PreviewCommandOptions) => {
      await run(() =>
        runPreview(model, options, {
          out: (s) => process.stdout.write(`${s}\n`),
          err: (s) => process.stderr.write(`${s}\n`),
        }),
      );
    });
}
