/**
 * The result of a `slmesh check` run, and its JSON form: the cost report (schema
 * docs/cost-report.schema.json) with a `budget` object added to each file and a `check`
 * summary at the top, so any tool reading `slmesh cost --json` reads it too, and it can be the
 * baseline of a later run.
 *
 * Guarantees: assets are sorted by path and rules keep the budget's order, so the same inputs
 * give byte-identical output whatever the order of arguments, workers or cache hits.
 */

import { makeCostReport, type CostReport, type FileReport } from '@slmesh/gltf-plugin/node';
import { VERSION } from '../version.js';
import type { BaselineResult } from './baseline.js';
import type { RuleResult } from './evaluate.js';
import { jsonReplacer } from './price-asset.js';
import type { Shard } from './shard.js';

export interface AssetResult {
  /** Relative to cwd, `/`-separated (the report's path). */
  path: string;
  report: FileReport;
  /** One result per rule that matches the asset, in budget order. */
  rules: RuleResult[];
  /** No rule matches the asset (a failure: every asset checked needs a budget). */
  unmatched: boolean;
  baseline?: BaselineResult;
  /** Within every rule, matched, and not regressed. */
  ok: boolean;
}

export interface CheckSummary {
  /** The budget file as named. */
  budget: string;
  ok: boolean;
  assets: number;
  passed: number;
  failed: number;
  shard?: Shard;
  baseline?: { file: string; maxIncrease: number; removed: string[] };
}

export interface CheckRun {
  summary: CheckSummary;
  settings: CostReport['settings'];
  assets: AssetResult[];
}

export interface CheckReport extends CostReport {
  check: CheckSummary;
  files: (FileReport & { budget: { ok: boolean; unmatched?: true; rules: RuleResult[]; baseline?: BaselineResult } })[];
}

export function makeSummary(
  budget: string,
  assets: readonly AssetResult[],
  extra: Pick<CheckSummary, 'shard' | 'baseline'>,
): CheckSummary {
  const failed = assets.filter((a) => !a.ok).length;
  return {
    budget,
    ok: failed === 0,
    assets: assets.length,
    passed: assets.length - failed,
    failed,
    ...(extra.shard ? { shard: extra.shard } : {}),
    ...(extra.baseline ? { baseline: extra.baseline } : {}),
  };
}

export function checkReport(run: CheckRun): CheckReport {
  const files = run.assets.map((a) => ({
    ...a.report,
    budget: {
      ok: a.ok,
      ...(a.unmatched ? { unmatched: true as const } : {}),
      rules: a.rules,
      ...(a.baseline ? { baseline: a.baseline } : {}),
    },
  }));
  return { ...makeCostReport(files, run.settings, VERSION), check: run.summary, files };
}

export function formatJson(run: CheckRun): string {
  return `${JSON.stringify(checkReport(run), jsonReplacer, 2)}\n`;
}

/** Every failing line of an asset, without its path: budget checks, then baseline changes. */
export function failureLines(
  a: AssetResult,
): { kind: 'budget' | 'baseline' | 'unmatched'; rule?: string; message: string }[] {
  const out: { kind: 'budget' | 'baseline' | 'unmatched'; rule?: string; message: string }[] = [];
  if (a.unmatched)
    out.push({ kind: 'unmatched', message: 'no budget rule matches this asset (add a rule, or an "ignore" glob)' });
  for (const r of a.rules)
    for (const c of r.checks) if (!c.ok) out.push({ kind: 'budget', rule: r.rule, message: c.message });
  for (const c of a.baseline?.changes ?? []) if (!c.ok) out.push({ kind: 'baseline', message: c.message });
  return out;
}

/** The one-line verdict: `2 of 14 assets over budget` / `all 14 assets within budget`. */
export function verdict(run: CheckRun): string {
  const s = run.summary;
  const n = (k: number) => `${k} asset${k === 1 ? '' : 's'}`;
  const where = s.shard ? ` (shard ${s.shard.index}/${s.shard.count})` : '';
  if (s.assets === 0) return `no assets to check${where}`;
  if (s.ok) return `${s.assets === 1 ? 'the asset is' : `all ${n(s.assets)}`} within budget${where}`;
  return `${s.failed} of ${n(s.assets)} over budget${s.baseline ? ' or regressed' : ''}${where}`;
}
