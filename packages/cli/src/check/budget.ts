/**
 * The budget file (`slmesh.budget.json`, schema docs/budget.schema.json): rules matched by
 * glob, each with limits on what Second Life will charge for the assets it matches.
 *
 * 1. Read and parse the file; a JSON error names the line and column.
 * 2. Validate it against docs/budget.schema.json with Ajv (budget-validate.ts): every error is
 *    one line naming the file and the JSON path (`rules[2].maxTriangles.high`), and an unknown
 *    key suggests the nearest known one, so a typo can never silently drop a limit.
 * 3. Follow `extends` (budget-extends.ts: other budget files, each read once, safely): their
 *    `defaults` and `pricing` are merged under this file's, their `rules` come first.
 * 4. Resolve each rule's limits: the merged `defaults`, or the named rule it `extends`, then
 *    its own keys; `null` removes an inherited limit.
 *
 * Globs in every file are relative to the folder of the budget file given to the command.
 * Bounded (BUDGET_LIMITS): files extended, rules, and glob alternatives over the whole budget.
 * Types are in budget-types.ts.
 */

import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { assignDefaults, SlmeshError } from '@slmesh/core';
import { expandBraces, globMatcher } from './glob.js';
import { displayPath, toPosix } from './find-assets.js';
import {
  BUDGET_LIMITS,
  LIMIT_KEYS,
  PRICING_DEFAULTS,
  type Budget,
  type BudgetRule,
  type BudgetSpec,
  type Limits,
  type ResolvedLimits,
  type RuleSpec,
} from './budget-types.js';
import { validateBudgetJson, nearest } from './budget-validate.js';
import { loadSpec, stackLimits } from './budget-extends.js';

export * from './budget-types.js';
export { nearest } from './budget-validate.js';
export { parseJsonFile } from './budget-extends.js';

function resolveLimits(l: Limits): ResolvedLimits {
  const out: ResolvedLimits = { atSizes: l.atSizes ?? ['asset'] };
  for (const [k, v] of Object.entries(l)) {
    if (v === null || v === undefined || k === 'atSizes' || !LIMIT_KEYS.includes(k)) continue;
    if (k === 'maxTriangles') {
      const t = Object.fromEntries(Object.entries(v as object).filter(([, n]) => n !== null && n !== undefined));
      if (Object.keys(t).length) out.maxTriangles = t;
    } else (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * Loads a budget file. `file` is resolved against `cwd`; errors name it as given.
 * Throws SlmeshError (exit 2) for a missing, unparsable, invalid or oversized budget.
 */
export async function loadBudget(file: string, cwd: string = process.cwd()): Promise<Budget> {
  const abs = resolve(cwd, file);
  const spec = await loadSpec(abs, file, cwd);
  return resolveBudget(spec, file, dirname(abs), cwd);
}

/** Validates an already-parsed budget object (no `extends` to follow unless files exist). */
export function budgetFromJson(json: unknown, file: string, dir: string, cwd: string = process.cwd()): Budget {
  const spec = validateBudgetJson(json, file);
  if (spec.extends.length)
    throw new SlmeshError('INPUT_INVALID', `${file}: extends: only a budget read from a file can extend another`);
  return resolveBudget(spec, file, dir, cwd);
}

function resolveBudget(spec: BudgetSpec, file: string, dir: string, cwd: string): Budget {
  if (spec.rules.length === 0) throw new SlmeshError('INPUT_INVALID', `${file}: rules: the budget has no rules`);
  // 1. Names: explicit ones must be unique; the others are their globs.
  const byName = new Map<string, RuleSpec>();
  for (const r of spec.rules) {
    if (r.name === undefined) continue;
    const dup = byName.get(r.name);
    if (dup)
      throw new SlmeshError(
        'INPUT_INVALID',
        `${r.file}: ${r.path}.name: "${r.name}" is also the name of ${dup.origin}`,
      );
    byName.set(r.name, r);
  }
  const names = new Set<string>();
  const nameOf = (r: RuleSpec, i: number) => {
    let n = r.name ?? r.files.join(', ');
    if (r.name === undefined && (names.has(n) || byName.has(n))) n = `${n} (rule ${i + 1})`;
    names.add(n);
    return n;
  };
  // 2. Limits: defaults or the extended rule, then the rule's own keys.
  const resolved = new Map<RuleSpec, Limits>();
  const limitsOf = (r: RuleSpec, chain: RuleSpec[]): Limits => {
    const done = resolved.get(r);
    if (done) return done;
    let base = spec.defaults;
    if (r.extends !== undefined) {
      const parent = byName.get(r.extends);
      if (!parent) {
        const near = nearest(r.extends, [...byName.keys()]);
        throw new SlmeshError(
          'INPUT_INVALID',
          `${r.file}: ${r.path}.extends: no rule is named "${r.extends}"${near ? ` (did you mean "${near}"?)` : ''}`,
        );
      }
      if (parent === r || chain.includes(parent))
        throw new SlmeshError(
          'INPUT_INVALID',
          `${r.file}: ${r.path}.extends: "${r.extends}" leads back to this rule (a cycle)`,
        );
      base = limitsOf(parent, [...chain, r]);
    }
    const own: Limits = {};
    const written = r as unknown as Record<string, unknown>;
    for (const k of LIMIT_KEYS) if (written[k] !== undefined) (own as Record<string, unknown>)[k] = written[k];
    const l = stackLimits(base, own);
    resolved.set(r, l);
    return l;
  };
  // Every glob's alternatives count against one budget-wide limit (2,000 rules of 4,096
  // alternatives would otherwise take gigabytes).
  let alternatives = 0;
  const globs = (list: string[], where: string) => {
    try {
      for (const g of list) {
        alternatives += expandBraces(g).length;
        if (alternatives > BUDGET_LIMITS.alternatives)
          throw new SlmeshError(
            'INPUT_LIMIT',
            `${file}: its globs expand to more than ${BUDGET_LIMITS.alternatives} alternatives (the limit; at ${where})`,
          );
      }
      return globMatcher(list);
    } catch (e) {
      if (e instanceof SlmeshError) throw e;
      throw new SlmeshError('INPUT_INVALID', `${where}: ${(e as Error).message}`);
    }
  };
  const rules: BudgetRule[] = spec.rules.map((r, index) => {
    const include = globs(r.files, `${r.origin}.files`);
    const exclude = globs(r.exclude, `${r.origin}.exclude`);
    return {
      name: nameOf(r, index),
      index,
      origin: r.origin,
      files: r.files,
      exclude: r.exclude,
      limits: resolveLimits(limitsOf(r, [])),
      matches: (p: string) => include(p) && !exclude(p),
    };
  });
  const ignored = globs(spec.ignore, `${file}: ignore`);
  return {
    file,
    dir,
    rules,
    ignore: spec.ignore,
    pricing: assignDefaults(PRICING_DEFAULTS, spec.pricing),
    isIgnored: ignored,
    relativePath: (abs: string) => {
      const rel = toPosix(relative(dir, abs));
      return rel.startsWith('../') || rel === '..' || isAbsolute(rel) ? displayPath(abs, cwd) : rel;
    },
  };
}
