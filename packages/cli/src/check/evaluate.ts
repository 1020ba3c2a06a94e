/**
 * Judges a priced asset against one budget rule: one check per limit (per size for the limits
 * that depend on size), each saying which number, the limit and by how much it is over, in
 * words a Second Life creator knows (`land impact 6.21 > 5 (+24%) at 4 m`).
 *
 * Guarantees: a number is over its limit only when strictly greater (a limit is inclusive);
 * a printed value always differs from the printed limit when they differ (more decimals are
 * shown as needed); the checks come in a fixed order, so output is deterministic.
 */

import type { FileReport } from '@slmesh/gltf-plugin/node';
import type { LinksetCost, ObjectCost } from '@slmesh/core';
import type { BudgetRule, LodSlotName, Requirable, SizeSpec } from './budget.js';
import type { PricedAsset } from './price-asset.js';

export interface BudgetCheck {
  /** Stable id: landImpact, download, physics, server, linkable, canBePhysical, triangles.<lod>, lod.<slot>, hullVertices, prims, uploadable. */
  metric: string;
  /** The words shown to people: "land impact", "high LOD triangles". */
  label: string;
  limit: number | boolean;
  actual: number | boolean;
  ok: boolean;
  /** Longest side (metres) the asset was priced at; absent at its own size. */
  size?: number;
  /** The actual value is an estimate (a decomposition's physics weight). */
  estimate?: boolean;
  /** The object that sets the value (hull vertices). */
  object?: string;
  /** Objects that fail (a required LOD missing). */
  objects?: string[];
  /** One line without the asset's path: `land impact 6.21 > 5 (+24%)`. */
  message: string;
}

export interface RuleResult {
  rule: string;
  ok: boolean;
  checks: BudgetCheck[];
}

// -------------------------------------------------------------------------------------------
// Numbers as people read them
// -------------------------------------------------------------------------------------------

const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** A weight with 2 decimals, or more when needed to tell it from `other`. */
export function formatWeight(n: number, other?: number): string {
  for (let d = 2; d <= 6; d++) {
    const s = trim(n.toFixed(d));
    if (other === undefined || other === n || s !== trim(other.toFixed(d))) return s;
  }
  return String(n);
}

export const formatCount = (n: number) => n.toLocaleString('en-US');

/** How far over: `+24%`, `+2.4%`, `+0.24%`; empty for a limit of 0. */
export function formatOver(actual: number, limit: number): string {
  if (limit <= 0) return '';
  const pct = ((actual - limit) / limit) * 100;
  const abs = Math.abs(pct);
  const s = abs >= 10 ? pct.toFixed(0) : abs >= 1 ? trim(pct.toFixed(1)) : String(Number(pct.toPrecision(2)));
  return `${pct >= 0 ? '+' : ''}${s}%`;
}

const at = (size: number | undefined) => (size === undefined ? '' : ` at ${size} m`);

function numberCheck(
  metric: string,
  label: string,
  actual: number,
  limit: number,
  opts: { size?: number; estimate?: boolean; object?: string; count?: boolean } = {},
): BudgetCheck {
  const ok = !(actual > limit);
  const a = opts.count ? formatCount(actual) : formatWeight(actual, limit);
  const l = opts.count ? formatCount(limit) : formatWeight(limit, actual);
  const est = opts.estimate ? ' (estimate)' : '';
  const over = ok ? '' : formatOver(actual, limit);
  const message = `${label} ${a}${est} ${ok ? '<=' : '>'} ${l}${over ? ` (${over})` : ''}${opts.object !== undefined ? ` on ${opts.object}` : ''}${at(opts.size)}`;
  return {
    metric,
    label,
    limit,
    actual,
    ok,
    ...(opts.size !== undefined ? { size: opts.size } : {}),
    ...(opts.estimate ? { estimate: true } : {}),
    ...(opts.object !== undefined ? { object: opts.object } : {}),
    message,
  };
}

function names(list: string[], max = 3): string {
  return list.length <= max ? list.join(', ') : `${list.slice(0, max).join(', ')} and ${list.length - max} more`;
}

// -------------------------------------------------------------------------------------------
// Metrics
// -------------------------------------------------------------------------------------------

/** Triangles of a LOD over the linkset (what the viewer shows in that slot, summed). */
export function linksetTriangles(file: FileReport, lod: LodSlotName): number {
  return file.objects.reduce((n, o) => n + o.lods[lod].triangles, 0);
}

function hasSlot(o: ObjectCost, slot: Requirable): boolean {
  if (slot === 'physics') return o.physics.shape !== 'convex-hull' || o.physics.convexHull.source === 'physics';
  return o.lods[slot].present;
}

function sizeDependent(rule: BudgetRule, ls: LinksetCost, size: number | undefined): BudgetCheck[] {
  const l = rule.limits;
  const out: BudgetCheck[] = [];
  if (l.maxLandImpact !== undefined)
    out.push(
      numberCheck('landImpact', 'land impact', ls.landImpact, l.maxLandImpact, {
        size,
        estimate: ls.dominant === 'physics' && ls.physicsEstimate,
      }),
    );
  if (l.maxDownload !== undefined)
    out.push(numberCheck('download', 'download weight', ls.streaming, l.maxDownload, { size }));
  if (l.maxPhysics !== undefined)
    out.push(
      numberCheck('physics', 'physics weight', ls.physics, l.maxPhysics, { size, estimate: ls.physicsEstimate }),
    );
  if (l.maxServer !== undefined) out.push(numberCheck('server', 'server weight', ls.server, l.maxServer, { size }));
  if (l.linkable) {
    const ok = ls.linkable.ok;
    out.push({
      metric: 'linkable',
      label: 'linkable',
      limit: true,
      actual: ok,
      ok,
      ...(size !== undefined ? { size } : {}),
      message: ok
        ? `linkable (span ${formatWeight(ls.linkable.span)} m, ${ls.prims} prims)${at(size)}`
        : `not linkable: ${ls.linkable.reason ?? `span ${formatWeight(ls.linkable.span)} m over ${ls.linkable.limit} m`}${at(size)}`,
    });
  }
  if (l.canBePhysical) {
    const ok = ls.physical.canBePhysical;
    const w = formatWeight(ls.physical.weight, ls.physical.limit);
    out.push({
      metric: 'canBePhysical',
      label: 'can be set physical',
      limit: true,
      actual: ok,
      ok,
      ...(size !== undefined ? { size } : {}),
      message: ok
        ? `can be set physical (physical weight ${w} <= ${ls.physical.limit})${at(size)}`
        : `cannot be set physical: physical weight ${w} > ${ls.physical.limit} (${formatOver(ls.physical.weight, ls.physical.limit)})${at(size)}`,
    });
  }
  return out;
}

/** Every check of one rule on one priced asset. */
export function evaluateRule(asset: PricedAsset, rule: BudgetRule): RuleResult {
  const { report } = asset;
  const l = rule.limits;
  const checks: BudgetCheck[] = [];

  // 1. Limits that depend on size, at each size the rule names.
  for (const s of l.atSizes) checks.push(...sizeDependent(rule, linksetAt(asset, s), s === 'asset' ? undefined : s));

  // 2. Limits of the asset itself.
  for (const lod of ['high', 'medium', 'low', 'lowest'] as const) {
    const max = l.maxTriangles?.[lod];
    if (max !== undefined)
      checks.push(
        numberCheck(`triangles.${lod}`, `${lod} LOD triangles`, linksetTriangles(report, lod), max, { count: true }),
      );
  }
  for (const slot of l.requiredLods ?? []) {
    const missing = report.objects.filter((o) => !hasSlot(o, slot)).map((o) => o.name);
    const what = slot === 'physics' ? 'physics shape' : `${slot} LOD`;
    const ok = missing.length === 0 && report.objects.length > 0;
    checks.push({
      metric: `lod.${slot}`,
      label: what,
      limit: true,
      actual: ok,
      ok,
      ...(missing.length ? { objects: missing } : {}),
      message: ok
        ? `${what} present on every object`
        : report.objects.length === 0
          ? `${what} required, but the asset has no objects`
          : `${what} missing on ${names(missing)} (required)`,
    });
  }
  if (l.maxHullVertices !== undefined) {
    let worst: ObjectCost | undefined;
    for (const o of report.objects)
      if (!worst || o.physics.convexHull.vertices > worst.physics.convexHull.vertices) worst = o;
    checks.push(
      numberCheck('hullVertices', 'hull vertices', worst?.physics.convexHull.vertices ?? 0, l.maxHullVertices, {
        count: true,
        ...(worst ? { object: worst.name } : {}),
      }),
    );
  }
  if (l.maxPrims !== undefined)
    checks.push(numberCheck('prims', 'prims', report.linkset.prims, l.maxPrims, { count: true }));
  if (l.uploadable) {
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    const ok = errors.length === 0;
    checks.push({
      metric: 'uploadable',
      label: 'uploadable',
      limit: true,
      actual: ok,
      ok,
      message: ok
        ? 'uploadable (no upload errors)'
        : `not uploadable: ${errors.length} upload error${errors.length === 1 ? '' : 's'}, first ${errors[0].code}: ${errors[0].message}`,
    });
  }
  return { rule: rule.name, ok: checks.every((c) => c.ok), checks };
}

/** The linkset at a size the rule names. */
export function linksetAt(asset: PricedAsset, size: SizeSpec): LinksetCost {
  if (size === 'asset') return asset.report.linkset;
  const s = asset.sized.find((x) => x.longestSide === size);
  if (!s) throw new Error(`${asset.report.path} was not priced at ${size} m`);
  return s.linkset;
}

/** The sizes (longest side, metres) an asset must be priced at for a set of rules. */
export function sizesFor(rules: readonly BudgetRule[]): number[] {
  const set = new Set<number>();
  for (const r of rules) for (const s of r.limits.atSizes) if (s !== 'asset') set.add(s);
  return [...set].sort((a, b) => a - b);
}
