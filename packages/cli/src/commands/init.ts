/**
 * `slmesh init [globs...]`: writes a starting budget (slmesh.budget.json) from the assets it
 * finds, so `slmesh check` passes today and fails when an asset grows.
 *
 * 1. Find the assets (default: every .glb / .gltf under the current folder) and price them on
 *    the worker pool, as `slmesh check` does; an unreadable asset stops it (exit 2).
 * 2. Group them by folder (one rule per top folder; descending while everything is in one).
 * 3. Each rule's limits are the group's largest value plus --headroom percent (default 10),
 *    rounded up to two significant digits; LODs every asset has become required; linkable and
 *    uploadable are required where every asset is. Keys every group shares go to `defaults`.
 * 4. Write it atomically, with `//` comments saying where each number came from. An existing
 *    budget is kept unless --force.
 */

import { stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { SlmeshError } from '@slmesh/core';
import type { FileReport } from '@slmesh/gltf-plugin/node';
import { EXIT_INPUT, EXIT_INTERNAL, EXIT_OK } from '../exit-codes.js';
import { writeFileAtomic } from '../write-atomic.js';
import { PRICING_DEFAULTS, REQUIRABLE, type Requirable } from '../check/budget.js';
import { formatCount, formatWeight, linksetTriangles } from '../check/evaluate.js';
import { byCodeUnit, displayPath, dropSiblings, findAllModels, findAssets, toPosix } from '../check/find-assets.js';
import { escapeGlob } from '../check/glob.js';
import { printable } from '../format-table.js';
import { runPool } from '../check/pool.js';
import { priceAsset, type PricedAsset, type PriceResult, type PriceTask } from '../check/price-asset.js';
import { ASSETS_PER_WORKER, DEFAULT_BUDGET, parsePercent, threadsFor } from './check.js';

export const SCHEMA_URL = 'https://slmesh.dev/schemas/budget.schema.json';

export interface InitCommandOptions {
  budget?: string;
  force?: boolean;
  headroom?: string;
  jobs?: string;
}

/** Rounds up to two significant digits (4.12 -> 4.2, 7,872 -> 7,900); never below x. */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 0;
  const step = 10 ** (Math.floor(Math.log10(x)) - 1);
  let v = Number((Math.ceil(x / step) * step).toPrecision(12));
  while (v < x) v = Number((v + step).toPrecision(12));
  return v;
}

interface Priced {
  /** Relative to the budget's folder. */
  rel: string;
  report: FileReport;
}

export interface FolderGroup {
  /** A folder relative to the budget ('' for the budget's own folder). */
  folder: string;
  /** Only the files directly in `folder` (true), or everything below it (false). */
  direct: boolean;
  paths: string[];
}

/** Splits paths into groups by their first folder, descending while all share one. */
export function groupByFolder(paths: readonly string[], prefix = ''): FolderGroup[] {
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const rest = p.slice(prefix.length);
    const slash = rest.indexOf('/');
    const key = slash < 0 ? '' : rest.slice(0, slash);
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  const here = prefix.replace(/\/$/, '');
  if (groups.size === 1 && !groups.has('')) {
    const [key, list] = [...groups][0];
    const deeper = groupByFolder(list, `${prefix}${key}/`);
    return deeper.length > 1 ? deeper : [{ folder: `${prefix}${key}`, direct: false, paths: list }];
  }
  return [...groups]
    .map(([key, list]) =>
      key === ''
        ? { folder: here, direct: true, paths: list }
        : { folder: `${prefix}${key}`, direct: false, paths: list },
    )
    .sort((a, b) => byCodeUnit(a.folder, b.folder) || Number(b.direct) - Number(a.direct));
}

/** A glob that matches `g`'s files literally: folder names and extensions have their glob characters escaped (`props[1]` -> `props\\[1\\]`), and extensions keep their letter case (`.GLB`). */
function globFor(g: FolderGroup): string {
  const exts = [...new Set(g.paths.map((p) => escapeGlob(p.slice(p.lastIndexOf('.') + 1))))].sort(byCodeUnit);
  const ext = exts.length === 1 ? exts[0] : `{${exts.join(',')}}`;
  const folder = g.folder.split('/').map(escapeGlob).join('/');
  if (!g.direct) return `${folder}/**/*.${ext}`;
  return folder ? `${folder}/*.${ext}` : `*.${ext}`;
}

function hasSlot(r: FileReport, slot: Requirable): boolean {
  return (
    r.objects.length > 0 &&
    r.objects.every((o) =>
      slot === 'physics'
        ? o.physics.shape !== 'convex-hull' || o.physics.convexHull.source === 'physics'
        : o.lods[slot].present,
    )
  );
}

export function budgetFor(assets: readonly Priced[], headroom: number): Record<string, unknown> {
  const up = (x: number) => niceCeil(x * (1 + headroom / 100));
  const upCount = (x: number) => Math.max(x, Math.ceil(niceCeil(x * (1 + headroom / 100))));
  const groups = groupByFolder(assets.map((a) => a.rel).sort(byCodeUnit));
  const byRel = new Map(assets.map((a) => [a.rel, a.report]));
  const everyAsset = (f: (r: FileReport) => boolean) => assets.every((a) => f(a.report));
  const allLinkable = everyAsset((r) => r.linkset.linkable.ok);
  const allUploadable = everyAsset((r) => !r.diagnostics.some((d) => d.severity === 'error'));
  const defaults: Record<string, unknown> = {
    '//': 'Every rule inherits these; a rule can override any key, or unset it with null.',
    ...(allUploadable ? { uploadable: true } : {}),
    ...(allLinkable ? { linkable: true } : {}),
  };
  const rules = groups.map((g) => {
    const reports = g.paths.map((p) => byRel.get(p)!);
    const worst = (f: (r: FileReport) => number) => {
      let best = 0;
      let at = g.paths[0];
      reports.forEach((r, i) => {
        if (f(r) > best) {
          best = f(r);
          at = g.paths[i];
        }
      });
      return { value: best, at };
    };
    const li = worst((r) => r.linkset.landImpact);
    const dl = worst((r) => r.linkset.streaming);
    const ph = worst((r) => r.linkset.physics);
    const sv = worst((r) => r.linkset.server);
    const tri = worst((r) => linksetTriangles(r, 'high'));
    const prims = worst((r) => r.linkset.prims);
    const required = REQUIRABLE.filter((s) => reports.every((r) => hasSlot(r, s)));
    const name = !g.direct ? g.folder : g.folder ? `${g.folder} (files directly in it)` : '(top folder)';
    const rule: Record<string, unknown> = {
      '//': [
        `${g.paths.length} asset${g.paths.length === 1 ? '' : 's'} today. Largest: land impact ${formatWeight(li.value)} (${li.at}), download ${formatWeight(dl.value)} (${dl.at}),`,
        `physics ${formatWeight(ph.value)} (${ph.at}), server ${formatWeight(sv.value)}, ${formatCount(tri.value)} high-LOD triangles (${tri.at}), ${prims.value} prim${prims.value === 1 ? '' : 's'}.`,
      ],
      name,
      files: globFor(g),
      maxLandImpact: up(li.value),
      maxDownload: up(dl.value),
      maxPhysics: up(ph.value),
      maxServer: up(sv.value),
      maxTriangles: { high: upCount(tri.value) },
      maxPrims: upCount(prims.value),
    };
    if (required.length) rule.requiredLods = required;
    if (!allLinkable && reports.every((r) => r.linkset.linkable.ok)) rule.linkable = true;
    if (!allUploadable && reports.every((r) => !r.diagnostics.some((d) => d.severity === 'error')))
      rule.uploadable = true;
    return rule;
  });
  return {
    $schema: SCHEMA_URL,
    '//': [
      `slmesh budget: \`slmesh check\` exits 1 when an asset goes over it. Written by \`slmesh init\` from ${assets.length} asset${assets.length === 1 ? '' : 's'};`,
      `each limit is today's largest value in its folder plus ${headroom}% headroom, rounded up. Edit freely.`,
      'Keys: maxLandImpact, maxDownload, maxPhysics, maxServer (weights), maxTriangles {high, medium, low, lowest},',
      'requiredLods [medium, low, lowest, physics], maxHullVertices, maxPrims, linkable, canBePhysical, uploadable,',
      'atSizes [longest side in metres, or "asset"]. Globs are relative to this file. Reference: docs/budget.schema.json.',
    ],
    pricing: {
      lodFactor: PRICING_DEFAULTS.lodFactor,
      animesh: PRICING_DEFAULTS.animesh,
      scripts: PRICING_DEFAULTS.scripts,
      linkRule: PRICING_DEFAULTS.linkRule,
      siblings: PRICING_DEFAULTS.siblings,
    },
    defaults,
    rules,
  };
}

export async function runInit(
  globs: string[],
  options: InitCommandOptions,
  io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string },
): Promise<number> {
  const cwd = io.cwd;
  const file = options.budget ?? DEFAULT_BUDGET;
  const abs = resolve(cwd, file);
  const headroom = options.headroom !== undefined ? parsePercent(options.headroom, '--headroom') : 10;
  threadsFor(options.jobs, 0); // a bad --jobs is a usage error before any work
  if (!options.force) {
    const exists = await stat(abs).then(
      () => true,
      () => false,
    );
    if (exists) throw new SlmeshError('USAGE', `${file}: already exists (use --force to overwrite it)`);
  }
  // 1. Find and price the assets.
  const dir = dirname(abs);
  // The same assets `slmesh check` finds with no arguments (any letter case, .gitignore respected).
  const found = globs.length
    ? await findAssets(globs, { cwd, siblings: PRICING_DEFAULTS.siblings })
    : dropSiblings(await findAllModels(dir), PRICING_DEFAULTS.siblings);
  if (found.length === 0)
    throw new SlmeshError('INPUT_UNREADABLE', `${displayPath(dir, cwd)}: no .glb or .gltf files below this folder`);
  const outside = found.find((f) => toPosix(relative(dir, f)).startsWith('../'));
  if (outside)
    throw new SlmeshError(
      'USAGE',
      `${displayPath(outside, cwd)}: outside the budget's folder ${displayPath(dir, cwd)}; budget globs are relative to it`,
    );
  const tasks: PriceTask[] = found.map((f) => ({ path: displayPath(f, cwd), pricing: PRICING_DEFAULTS, sizes: [] }));
  const results = await runPool<PriceTask, PriceResult>(tasks, {
    jobs: threadsFor(options.jobs, tasks.length),
    workerUrl: new URL('../check/worker.js', import.meta.url),
    inProcess: priceAsset,
  });
  const errors = results.flatMap((r) => ('error' in r ? [r.error] : []));
  if (errors.length) {
    for (const e of errors)
      io.stderr(`slmesh: ${e.internal ? 'internal error: ' : ''}${printable(e.message.split('\n')[0])}\n`);
    return errors.some((e) => e.internal) ? EXIT_INTERNAL : EXIT_INPUT;
  }
  const priced: Priced[] = results.map((r, i) => ({
    rel: toPosix(relative(dir, found[i])),
    report: (JSON.parse((r as { json: string }).json) as PricedAsset).report,
  }));

  // 2. The budget, written whole.
  const budget = budgetFor(priced, headroom);
  await writeFileAtomic(abs, `${JSON.stringify(budget, null, 2)}\n`);
  const n = (budget.rules as unknown[]).length;
  io.stdout(
    `wrote ${file}: ${n} rule${n === 1 ? '' : 's'} for ${priced.length} asset${priced.length === 1 ? '' : 's'}; run \`slmesh check\` to gate on it\n`,
  );
  return EXIT_OK;
}

export function registerInit(program: Command, run: (fn: () => Promise<number>) => Promise<void>): void {
  program
    .command('init')
    .description('write a starting budget (slmesh.budget.json) from the assets found, for `slmesh check`')
    .argument('[globs...]', 'assets: files, folders or globs (default: every .glb and .gltf under this folder)')
    .option('--budget <file>', 'the budget file to write', DEFAULT_BUDGET)
    .option('--headroom <percent>', "room above today's largest values", '10')
    .option('--force', 'overwrite an existing budget file')
    .option('-j, --jobs <n>', `worker threads (default: every core, one per ${ASSETS_PER_WORKER} assets)`)
    .action(async (globs: string[], options: InitCommandOptions) => {
      await run(() =>
        runInit(globs, options, {
          stdout: (s) => process.stdout.write(s),
          stderr: (s) => process.stderr.write(s),
          cwd: process.cwd(),
        }),
      );
    });
}
