/**
 * Shared helpers of the `slmesh check` tests (not a test file): paths, priced bundled assets,
 * budgets from JSON, temp folders, and running the built bin.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { budgetFromJson, PRICING_DEFAULTS, type Budget } from '../src/check/budget.js';
import { priceAsset, type PricedAsset } from '../src/check/price-asset.js';
import { baselineValues, compareWithBaseline, type BaselineValues } from '../src/check/baseline.js';
import { makeSummary, type AssetResult, type CheckRun } from '../src/check/check-report.js';
import { evaluateRule, sizesFor } from '../src/check/evaluate.js';

export const root = resolve(__dirname, '../../..');
export const bin = join(root, 'packages/cli/dist/bin.js');
export const asset = (name: string) => join(root, 'test-assets', name);

/** Prices a bundled asset as `slmesh check` does (from source). */
export async function priced(name: string, sizes: number[] = [], path = asset(name)): Promise<PricedAsset> {
  const r = await priceAsset({ path, pricing: PRICING_DEFAULTS, sizes });
  if ('error' in r) throw new Error(r.error.message);
  return JSON.parse(r.json) as PricedAsset;
}

export function budget(json: unknown, file = 'slmesh.budget.json', dir = '/project'): Budget {
  return budgetFromJson(json, file, dir);
}

/** A temp folder with bundled assets copied in: { 'props/cube.glb': 'cube.glb', ... }. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-check-'));
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(asset(from), join(dir, to));
  }
  return dir;
}

export function slmesh(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A CheckRun as `slmesh check` builds it, from bundled assets shown under other paths:
 * files = { 'props/chair.glb': 'chair.glb', ... }, judged against a budget's rules.
 */
export async function checkRun(
  files: Record<string, string>,
  budgetJson: unknown,
  options: {
    baseline?: Record<string, BaselineValues>;
    maxIncrease?: number;
    removed?: string[];
    shard?: { index: number; count: number };
  } = {},
): Promise<CheckRun> {
  const b = budget(budgetJson);
  const assets: AssetResult[] = [];
  for (const [path, name] of Object.entries(files).sort(([x], [y]) => (x < y ? -1 : 1))) {
    const rules = b.rules.filter((r) => r.matches(path));
    const p = await priced(name, sizesFor(rules));
    p.report.path = path;
    const results = rules.map((r) => evaluateRule(p, r));
    const base = options.baseline
      ? compareWithBaseline(baselineValues(p.report), options.baseline[path], options.maxIncrease ?? 0)
      : undefined;
    const unmatched = rules.length === 0;
    assets.push({
      path,
      report: p.report,
      rules: results,
      unmatched,
      ...(base ? { baseline: base } : {}),
      ok: !unmatched && results.every((r) => r.ok) && (base?.ok ?? true),
    });
  }
  const summary = makeSummary(b.file, assets, {
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.baseline
      ? { baseline: { file: 'main.json', maxIncrease: options.maxIncrease ?? 0, removed: options.removed ?? [] } }
      : {}),
  });
  return { summary, settings: { lodFactor: 2, animesh: false, linkabilityRule: 'current' }, assets };
}

/** Parses with Python's xml.etree (an independent, strict XML parser) into suites and cases. */
export function parseJunit(xml: string): {
  name: string;
  tests: number;
  failures: number;
  suites: {
    name: string;
    tests: number;
    failures: number;
    cases: { name: string; file: string; failure: string | null; message: string | null }[];
  }[];
} {
  const py = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
out = {"name": root.get("name"), "tests": int(root.get("tests")), "failures": int(root.get("failures")), "suites": []}
for s in root.findall("testsuite"):
    cases = []
    for c in s.findall("testcase"):
        f = c.find("failure")
        cases.append({"name": c.get("name"), "file": c.get("file"), "failure": None if f is None else f.text, "message": None if f is None else f.get("message")})
    out["suites"].append({"name": s.get("name"), "tests": int(s.get("tests")), "failures": int(s.get("failures")), "cases": cases})
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', py], { input: xml, encoding: 'utf8' }));
}
