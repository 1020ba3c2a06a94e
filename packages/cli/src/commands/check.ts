/**
 * `slmesh check [globs...] --budget slmesh.budget.json`: the CI gate on asset cost budgets.
 *
 * 1. Load the budget (check/budget.ts) and, with --baseline, the earlier report.
 * 2. Find the assets: the globs / files / folders given, or every file a rule's `files`
 *    matches; drop `ignore`d ones; keep this machine's shard (--shard i/n).
 * 3. Price each asset at its own size and at the sizes its rules name: from the cache
 *    (--cache DIR) when its bytes are unchanged, else on a pool of worker threads (--jobs).
 * 4. Judge each asset against each rule that matches it, and against the baseline.
 * 5. Write every output (--format FORMAT[=FILE], repeatable): all files atomically, then stdout.
 *
 * Exit status: 0 every asset within budget; 1 any over budget, regressed, or matched by no
 * rule; 2 the budget, the baseline, an option or any asset cannot be used (fails closed: an
 * unreadable asset is never skipped). Then nothing is printed or written but one line per
 * problem on stderr.
 */

import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { SlmeshError } from '@slmesh/core';
import type { CostReport } from '@slmesh/gltf-plugin/node';
import { EXIT_CHECK_FAILED, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK } from '../exit-codes.js';
import { writeAllOrNothing } from '../write-atomic.js';
import { VERSION } from '../version.js';
import { compareWithBaseline, baselineValues, loadBaseline, type Baseline } from '../check/baseline.js';
import { loadBudget, type Budget, type BudgetRule } from '../check/budget.js';
import { assetDigest, cacheKey, readCacheEntry, writeCacheEntry } from '../check/cache.js';
import { formatJson, makeSummary, type AssetResult, type CheckRun } from '../check/check-report.js';
import { evaluateRule, sizesFor } from '../check/evaluate.js';
import { byCodeUnit, displayPath, dropSiblings, findAllModels, findAssets } from '../check/find-assets.js';
import { formatGithub } from '../check/github.js';
import { formatJunit } from '../check/junit.js';
import { formatMarkdown } from '../check/markdown.js';
import { runPool } from '../check/pool.js';
import { priceAsset, type PricedAsset, type PriceResult, type PriceTask } from '../check/price-asset.js';
import { inShard, parseShard, type Shard } from '../check/shard.js';
import { formatCheckTable } from '../check/table.js';
import { noWorkflowCommands, printable } from '../format-table.js';

export const DEFAULT_BUDGET = 'slmesh.budget.json';
export const FORMATS = ['table', 'json', 'junit', 'github', 'markdown'] as const;
export type CheckFormat = (typeof FORMATS)[number];

export interface CheckCommandOptions {
  budget?: string;
  format?: string[];
  baseline?: string;
  maxIncrease?: string;
  jobs?: string;
  cache?: string;
  shard?: string;
  verbose?: boolean;
}

export interface OutputSpec {
  format: CheckFormat;
  /** Written atomically to this file; stdout when absent. */
  file?: string;
}

export function parseFormats(values: readonly string[] | undefined): OutputSpec[] {
  const out: OutputSpec[] = [];
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    const format = (eq < 0 ? v : v.slice(0, eq)).trim() as CheckFormat;
    const file = eq < 0 ? undefined : v.slice(eq + 1);
    if (!FORMATS.includes(format))
      throw new SlmeshError('USAGE', `--format is one of ${FORMATS.join(', ')} (optionally =FILE), got "${v}"`);
    if (file !== undefined && file.trim() === '')
      throw new SlmeshError('USAGE', `--format ${format}= needs a file name after "="`);
    out.push({ format, ...(file !== undefined ? { file } : {}) });
  }
  const toStdout = out.filter((o) => o.file === undefined);
  if (toStdout.length > 1)
    throw new SlmeshError(
      'USAGE',
      `only one --format can go to stdout (got ${toStdout.map((o) => o.format).join(', ')}); send the others to files with --format FORMAT=FILE`,
    );
  if (toStdout.length === 0) out.unshift({ format: 'table' });
  return out;
}

/** With --jobs unset, a worker thread is started for every this many assets to price, up to the cores: a worker costs a module load (about the time of pricing a few dozen small assets). */
export const ASSETS_PER_WORKER = 16;

/** Threads for `tasks` assets: --jobs exactly when given, else every core but no more than the work pays for. */
export function threadsFor(jobs: string | undefined, tasks: number): number {
  if (jobs !== undefined) {
    const n = Number(jobs);
    if (!Number.isInteger(n) || n < 1)
      throw new SlmeshError('USAGE', `--jobs must be a whole number of at least 1, got "${jobs}"`);
    return n;
  }
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(tasks / ASSETS_PER_WORKER)));
}

export function parsePercent(value: string | undefined, option = '--max-increase'): number {
  if (value === undefined) return 0;
  const n = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new SlmeshError('USAGE', `${option} must be a percentage of 0 or more, got "${value}"`);
  return n;
}

/**
 * The assets, when no globs are given: every model file below the budget's folder (any letter
 * case, .gitignore respected), not only those a rule names: the gate fails closed, so an asset
 * no rule matches fails the check instead of passing unjudged.
 */
async function assetsOfBudget(budget: Budget): Promise<string[]> {
  return findAllModels(budget.dir);
}

interface Planned {
  abs: string;
  path: string;
  rules: BudgetRule[];
  task: PriceTask;
  bytes: number;
  key?: string;
}

/** Prices every planned asset: cache hits first, the rest on the pool. Results in plan order. */
async function priceAll(
  plan: Planned[],
  options: { jobs: string | undefined; cache?: string; cacheShown?: string; siblings: boolean },
  log: (s: string) => void,
  warn: (s: string) => void,
): Promise<(PricedAsset | PriceResult)[]> {
  const out: (PricedAsset | PriceResult)[] = new Array(plan.length);
  // 1. Cache lookups, a few files at a time.
  if (options.cache) {
    const cacheDir = options.cache;
    for (let i = 0; i < plan.length; i += 32) {
      await Promise.all(
        plan.slice(i, i + 32).map(async (p, k) => {
          const digest = await assetDigest(p.abs, options.siblings);
          if (!digest) return;
          p.key = cacheKey({ path: p.path, digest, version: VERSION, pricing: p.task.pricing, sizes: p.task.sizes });
          const hit = await readCacheEntry(cacheDir, p.key);
          if (hit) out[i + k] = hit;
        }),
      );
    }
  }
  // 2. The misses on the pool, largest files first (so no worker is left with a big one last).
  const misses = plan.map((p, i) => ({ p, i })).filter(({ i }) => out[i] === undefined);
  misses.sort((a, b) => b.p.bytes - a.p.bytes || byCodeUnit(a.p.path, b.p.path));
  const jobs = threadsFor(options.jobs, misses.length);
  let cacheBroken = false;
  log(
    `slmesh check: ${plan.length - misses.length} cached, ${misses.length} to price on ${Math.max(1, Math.min(jobs, misses.length))} thread(s)`,
  );
  const results = await runPool<PriceTask, PriceResult>(
    misses.map((m) => m.p.task),
    {
      jobs,
      workerUrl: new URL('../check/worker.js', import.meta.url),
      inProcess: priceAsset,
      onResult: async (j, r) => {
        const key = misses[j].p.key;
        if (!options.cache || !key || !('json' in r) || cacheBroken) return;
        try {
          await writeCacheEntry(options.cache, key, r.json);
        } catch (e) {
          // The cache only saves time: say so once, and go on without it.
          cacheBroken = true;
          warn(
            `slmesh: warning: --cache ${options.cacheShown}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); results are not being cached`,
          );
        }
      },
    },
  );
  results.forEach((r, j) => (out[misses[j].i] = r));
  return out;
}

export async function runCheck(
  globs: string[],
  options: CheckCommandOptions,
  io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string },
): Promise<number> {
  const cwd = io.cwd;
  const outputs = parseFormats(options.format);
  threadsFor(options.jobs, 0); // a bad --jobs is a usage error before any work
  const shard: Shard | undefined = options.shard !== undefined ? parseShard(options.shard) : undefined;
  if (options.maxIncrease !== undefined && !options.baseline)
    throw new SlmeshError('USAGE', '--max-increase needs --baseline');
  const maxIncrease = parsePercent(options.maxIncrease);
  const log = options.verbose ? (s: string) => io.stderr(`${s}\n`) : () => {};

  // 1. The budget and the baseline.
  const budget = await loadBudget(options.budget ?? DEFAULT_BUDGET, cwd);
  const baseline: Baseline | undefined = options.baseline
    ? await loadBaseline(options.baseline, budget.pricing, cwd)
    : undefined;

  // 2. The assets, this shard's.
  let found = globs.length
    ? await findAssets(globs, { cwd, siblings: budget.pricing.siblings })
    : await assetsOfBudget(budget);
  found = dropSiblings(found, budget.pricing.siblings).filter((f) => !budget.isIgnored(budget.relativePath(f)));
  if (found.length === 0) {
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${budget.file}: no assets to check (${globs.length ? 'every file given is ignored by the budget' : "no .glb or .gltf file below the budget's folder"})`,
    );
  }
  const plan: Planned[] = [];
  for (const abs of found) {
    const rel = budget.relativePath(abs);
    if (!inShard(rel, shard)) continue;
    const rules = budget.rules.filter((r) => r.matches(rel));
    const path = displayPath(abs, cwd);
    let bytes = 0;
    try {
      bytes = (await stat(abs)).size;
    } catch {
      // priceAsset reports the missing file
    }
    plan.push({ abs, path, rules, bytes, task: { path, pricing: budget.pricing, sizes: sizesFor(rules) } });
  }
  plan.sort((a, b) => byCodeUnit(a.path, b.path));
  log(
    `slmesh check: ${found.length} assets, ${plan.length} in ${shard ? `shard ${shard.index}/${shard.count}` : 'this run'}`,
  );

  // 3. Price them; any asset that cannot be read fails the run (exit 2).
  const priced = await priceAll(
    plan,
    {
      jobs: options.jobs,
      ...(options.cache ? { cache: resolve(cwd, options.cache), cacheShown: options.cache } : {}),
      siblings: budget.pricing.siblings,
    },
    log,
    (s) => io.stderr(`${s}\n`),
  );
  const errors = priced.flatMap((r, i) => (r && 'error' in r ? [{ path: plan[i].path, ...r.error }] : []));
  if (errors.length) {
    for (const e of errors)
      io.stderr(`slmesh: ${e.internal ? 'internal error: ' : ''}${printable(e.message.split('\n')[0])}\n`);
    return errors.some((e) => e.internal) ? EXIT_INTERNAL : EXIT_INPUT;
  }
  const assets = priced.map((r) => (r && 'json' in r ? (JSON.parse(r.json) as PricedAsset) : (r as PricedAsset)));

  // 4. Judge every asset against its rules and the baseline.
  const results: AssetResult[] = plan.map((p, i) => {
    const asset = assets[i];
    const rules = p.rules.map((r) => evaluateRule(asset, r));
    const base = baseline
      ? compareWithBaseline(baselineValues(asset.report), baseline.assets.get(p.path), maxIncrease)
      : undefined;
    const unmatched = p.rules.length === 0;
    return {
      path: p.path,
      report: asset.report,
      rules,
      unmatched,
      ...(base ? { baseline: base } : {}),
      ok: !unmatched && rules.every((r) => r.ok) && (base?.ok ?? true),
    };
  });
  let removed: string[] = [];
  if (baseline) {
    const current = new Set(plan.map((p) => p.path));
    const exists = existsOnDisk();
    const gone: string[] = [];
    for (const p of baseline.assets.keys()) {
      if (current.has(p) || !inShard(budget.relativePath(resolve(cwd, p)), shard)) continue;
      if (!exists(resolve(cwd, p))) gone.push(p);
    }
    removed = gone.sort(byCodeUnit);
  }
  const settings: CostReport['settings'] = {
    lodFactor: budget.pricing.lodFactor,
    animesh: budget.pricing.animesh,
    linkabilityRule: budget.pricing.linkRule,
  };
  const run: CheckRun = {
    summary: makeSummary(budget.file, results, {
      ...(shard ? { shard } : {}),
      ...(baseline ? { baseline: { file: baseline.file, maxIncrease, removed } } : {}),
    }),
    settings,
    assets: results,
  };

  // 5. Outputs: files first, all or none; then stdout.
  const render = (f: OutputSpec['format']): string => {
    switch (f) {
      case 'json':
        return formatJson(run);
      case 'junit':
        return formatJunit(
          run,
          budget.rules.map((r) => r.name),
        );
      case 'github':
        return formatGithub(run);
      case 'markdown':
        return formatMarkdown(run);
      case 'table':
        return formatCheckTable(run);
    }
  };
  const safe = (f: OutputSpec['format']) => (f === 'github' ? render(f) : noWorkflowCommands(render(f)));
  await writeAllOrNothing(
    outputs.filter((o) => o.file !== undefined).map((o) => ({ path: resolve(cwd, o.file!), data: safe(o.format) })),
  );
  const toStdout = outputs.find((o) => o.file === undefined);
  if (toStdout) io.stdout(safe(toStdout.format));
  return run.summary.ok ? EXIT_OK : EXIT_CHECK_FAILED;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Whether a path names something on disk (stat, so a dangling link does not). Folders are looked
 * up once each, and a file in a missing folder is not looked up at all: a baseline of 200,000
 * removed assets was 200,000 awaited stats (35 s), now one per folder.
 */
function existsOnDisk(): (path: string) => boolean {
  const folders = new Map<string, boolean>();
  const isThere = (path: string): boolean => {
    try {
      return statSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // unreadable counts as gone, as before
    }
  };
  const folder = (path: string): boolean => {
    let known = folders.get(path);
    if (known === undefined) {
      const parent = dirname(path);
      known = (parent === path || folder(parent)) && isThere(path);
      folders.set(path, known);
    }
    return known;
  };
  return (path) => folder(dirname(path)) && isThere(path);
}

export function registerCheck(program: Command, run: (fn: () => Promise<number>) => Promise<void>): void {
  program
    .command('check')
    .description('fail (exit 1) when an asset is over its cost budget (slmesh.budget.json): the CI gate')
    .argument('[globs...]', "assets to check: files, folders or globs (default: every file the budget's rules match)")
    .option('--budget <file>', 'the budget file', DEFAULT_BUDGET)
    .option(
      '--format <format[=file]>',
      `output: ${FORMATS.join(', ')}; repeatable, FORMAT=FILE writes a file (default: table to stdout)`,
      collect,
      [],
    )
    .option(
      '--baseline <report.json>',
      'compare with an earlier `slmesh check --format json` or `slmesh cost --json` report',
    )
    .option('--max-increase <percent>', 'with --baseline: fail on a larger increase of any number (default 0)')
    .option('-j, --jobs <n>', `worker threads (default: every core, one per ${ASSETS_PER_WORKER} assets to price)`)
    .option('--cache <dir>', 'reuse results of unchanged assets from <dir> (content-hash cache)')
    .option('--shard <i/n>', 'check only the i-th of n shards (CI matrix); every asset is in exactly one')
    .option('--verbose', 'say on stderr how many assets were cached and priced')
    .action(async (globs: string[], options: CheckCommandOptions) => {
      await run(() =>
        runCheck(globs, options, {
          stdout: (s) => process.stdout.write(s),
          stderr: (s) => process.stderr.write(s),
          cwd: process.cwd(),
        }),
      );
    });
}
