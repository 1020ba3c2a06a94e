/**
 * Regression mode (`slmesh check --baseline report.json --max-increase P`): compares each
 * asset with the same path in an earlier JSON report (from `slmesh check --format json` or
 * `slmesh cost --json`, for example main's) and fails an asset whose land impact, download,
 * physics or server weight, triangles of any LOD or prim count grew by more than P percent.
 *
 * Guarantees: a baseline priced differently (another size, animesh, another linkability rule)
 * is refused rather than compared; a value that was 0 and is no longer counts as an increase
 * beyond any percentage; unchanged values are not listed. The report is read through
 * safe-read (a regular file in the folder it is named in, at most MAX_BASELINE_BYTES), every
 * number in it must be finite (`1e999` is refused, not compared as Infinity), and the work is
 * linear in its size.
 */

import { dirname, resolve } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import type { FileReport } from '@slmesh/gltf-plugin/node';
import type { Pricing } from './budget.js';
import { readJsonInside } from './budget-extends.js';

/** Largest baseline report read, bytes. */
export const MAX_BASELINE_BYTES = 256 * 1024 * 1024;
import { formatCount, formatOver, formatWeight, linksetTriangles } from './evaluate.js';
import { displayPath } from './find-assets.js';

/** The values compared, per asset. */
export interface BaselineValues {
  landImpact: number;
  download: number;
  physics: number;
  server: number;
  'triangles.high': number;
  'triangles.medium': number;
  'triangles.low': number;
  'triangles.lowest': number;
  prims: number;
}

const METRICS: { key: keyof BaselineValues; label: string; count?: boolean }[] = [
  { key: 'landImpact', label: 'land impact' },
  { key: 'download', label: 'download weight' },
  { key: 'physics', label: 'physics weight' },
  { key: 'server', label: 'server weight' },
  { key: 'triangles.high', label: 'high LOD triangles', count: true },
  { key: 'triangles.medium', label: 'medium LOD triangles', count: true },
  { key: 'triangles.low', label: 'low LOD triangles', count: true },
  { key: 'triangles.lowest', label: 'lowest LOD triangles', count: true },
  { key: 'prims', label: 'prims', count: true },
];

export interface Baseline {
  file: string;
  /** Values by asset path (relative to cwd, `/`-separated). */
  assets: Map<string, BaselineValues>;
}

export interface BaselineChange {
  metric: keyof BaselineValues;
  label: string;
  before: number;
  after: number;
  /** Percent change; null when the value was 0. */
  changePercent: number | null;
  ok: boolean;
  message: string;
}

export interface BaselineResult {
  /** `new`: the asset is not in the baseline; `compared` otherwise. */
  status: 'new' | 'compared';
  ok: boolean;
  changes: BaselineChange[];
}

export function baselineValues(file: FileReport): BaselineValues {
  const ls = file.linkset;
  return {
    landImpact: ls.landImpact,
    download: ls.streaming,
    physics: ls.physics,
    server: ls.server,
    'triangles.high': linksetTriangles(file, 'high'),
    'triangles.medium': linksetTriangles(file, 'medium'),
    'triangles.low': linksetTriangles(file, 'low'),
    'triangles.lowest': linksetTriangles(file, 'lowest'),
    prims: ls.prims,
  };
}

/** Reads a baseline report; refuses one that is not a slmesh report or was priced differently. */
export async function loadBaseline(file: string, pricing: Pricing, cwd: string): Promise<Baseline> {
  const abs = resolve(cwd, file);
  const json = (await readJsonInside(
    abs,
    file,
    dirname(abs),
    'its folder',
    MAX_BASELINE_BYTES,
    'no such baseline report',
  )) as Record<string, unknown>;
  const bad = (path: string, problem: string): never => {
    throw new SlmeshError(
      'INPUT_INVALID',
      `${file}: ${path}: ${problem} (a baseline is the output of slmesh check --format json or slmesh cost --json)`,
    );
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) bad('(top level)', 'not a slmesh report');
  const gen = json.generator as { name?: unknown } | undefined;
  if (gen?.name !== 'slmesh') bad('generator.name', 'is not "slmesh"');
  if (!Array.isArray(json.files)) bad('files', 'missing');
  // 1. Priced the same way, or the numbers cannot be compared.
  const settings = (json.settings ?? {}) as { size?: unknown; animesh?: unknown; linkabilityRule?: unknown };
  if (settings.size !== undefined)
    bad('settings.size', "the baseline was priced at another size (--size / --scale); make it at the assets' own size");
  if (settings.animesh !== undefined && settings.animesh !== pricing.animesh)
    bad('settings.animesh', `is ${settings.animesh}, the budget prices animesh ${pricing.animesh}`);
  if (settings.linkabilityRule !== undefined && settings.linkabilityRule !== pricing.linkRule)
    bad('settings.linkabilityRule', `is "${settings.linkabilityRule}", the budget uses "${pricing.linkRule}"`);
  // 2. The values of every file.
  const assets = new Map<string, BaselineValues>();
  (json.files as unknown[]).forEach((f, i) => {
    const at = `files[${i}]`;
    const x = f as FileReport;
    if (typeof x?.path !== 'string') bad(`${at}.path`, 'must be a string');
    if (typeof x.linkset !== 'object' || x.linkset === null) bad(`${at}.linkset`, 'missing');
    const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    for (const k of ['landImpact', 'streaming', 'physics', 'server', 'prims'] as const)
      if (!finite(x.linkset[k])) bad(`${at}.linkset.${k}`, 'must be a finite number of at least 0');
    if (!Array.isArray(x.objects)) bad(`${at}.objects`, 'missing');
    x.objects.forEach((o, j) => {
      for (const lod of ['high', 'medium', 'low', 'lowest'] as const) {
        if (!finite(o?.lods?.[lod]?.triangles))
          bad(`${at}.objects[${j}].lods.${lod}.triangles`, 'must be a finite number of at least 0');
      }
    });
    const values = baselineValues(x);
    if (!Object.values(values).every(Number.isFinite)) bad(at, 'its numbers add up to more than a number can hold');
    assets.set(displayPath(resolve(cwd, x.path), cwd), values);
  });
  return { file, assets };
}

/** The changes of one asset against its baseline values (none when it is new). */
export function compareWithBaseline(
  current: BaselineValues,
  before: BaselineValues | undefined,
  maxIncrease: number,
): BaselineResult {
  if (!before) return { status: 'new', ok: true, changes: [] };
  const changes: BaselineChange[] = [];
  for (const m of METRICS) {
    const b = before[m.key];
    const a = current[m.key];
    if (a === b) continue;
    const ok = b > 0 ? a <= b * (1 + maxIncrease / 100) : a <= b;
    const fmt = (n: number, o: number) => (m.count ? formatCount(n) : formatWeight(n, o));
    const pct = b !== 0 ? ((a - b) / b) * 100 : null;
    const change = b !== 0 ? formatOver(a, b) : 'was 0';
    const message = `${m.label} ${fmt(b, a)} -> ${fmt(a, b)} (${change}${ok ? '' : `, more than the ${maxIncrease}% allowed`})`;
    changes.push({ metric: m.key, label: m.label, before: b, after: a, changePercent: pct, ok, message });
  }
  return { status: 'compared', ok: changes.every((c) => c.ok), changes };
}
