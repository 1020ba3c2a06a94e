/**
 * The budget file (`slmesh.budget.json`, schema docs/budget.schema.json): rules matched by
 * glob, each with limits on what Second Life will charge for the assets it matches.
 *
 * 1. Read and parse the file; a JSON error names the line and column.
 * 2. Validate it structurally, in code (the CLI has no schema validator at run time): every
 *    error is one line naming the file and the JSON path (`rules[2].maxTriangles.high`), and an
 *    unknown key suggests the nearest known one, so a typo can never silently drop a limit.
 * 3. Follow `extends` (other budget files, relative to the file that names them): their
 *    `defaults` and `pricing` are merged under this file's, their `rules` come first.
 * 4. Resolve each rule's limits: the merged `defaults`, or the named rule it `extends`, then
 *    its own keys; `null` removes an inherited limit.
 *
 * Globs in every file are relative to the folder of the budget file given to the command.
 */

import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { SlmeshError, LOD_FACTOR_DEFAULT } from '@slmesh/core';
import { globMatcher } from './glob.js';
import { displayPath, toPosix } from './find-assets.js';
import { assignDefaults } from '@slmesh/core';

export const LOD_SLOTS = ['high', 'medium', 'low', 'lowest'] as const;
export type LodSlotName = (typeof LOD_SLOTS)[number];
export const REQUIRABLE = ['medium', 'low', 'lowest', 'physics'] as const;
export type Requirable = (typeof REQUIRABLE)[number];

/** A size at which limits are checked: the longest side in metres, or the asset's own size. */
export type SizeSpec = number | 'asset';

/** The limits a rule (or `defaults`) sets. Every key is optional; `null` unsets an inherited one. */
export interface Limits {
  maxLandImpact?: number | null;
  maxDownload?: number | null;
  maxPhysics?: number | null;
  maxServer?: number | null;
  maxTriangles?: Partial<Record<LodSlotName, number | null>> | null;
  requiredLods?: Requirable[] | null;
  maxHullVertices?: number | null;
  maxPrims?: number | null;
  linkable?: boolean | null;
  canBePhysical?: boolean | null;
  uploadable?: boolean | null;
  atSizes?: SizeSpec[] | null;
}

/** Limits after inheritance: no nulls, and `atSizes` always set. */
export interface ResolvedLimits {
  maxLandImpact?: number;
  maxDownload?: number;
  maxPhysics?: number;
  maxServer?: number;
  maxTriangles?: Partial<Record<LodSlotName, number>>;
  requiredLods?: Requirable[];
  maxHullVertices?: number;
  maxPrims?: number;
  linkable?: boolean;
  canBePhysical?: boolean;
  uploadable?: boolean;
  atSizes: SizeSpec[];
}

/** How assets are priced for the whole check (the same for every rule). */
export interface Pricing {
  /** RenderVolumeLODFactor for switch distances in the report. Default 2. */
  lodFactor: number;
  /** Price as animated objects. Default false. */
  animesh: boolean;
  /** Scripts per linkset, for server weight. Default 0. */
  scripts: number;
  /** Linkability rule. Default current. */
  linkRule: 'current' | 'legacy';
  /** Largest linkable span, metres. Default: core's (54). */
  linkSpan?: number;
  /** Read sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS` files. Default true. */
  siblings: boolean;
}

export const PRICING_DEFAULTS: Pricing = { lodFactor: LOD_FACTOR_DEFAULT, animesh: false, scripts: 0, linkRule: 'current', siblings: true };

export interface BudgetRule {
  /** `name`, or the rule's `files` when it has none. */
  name: string;
  /** Position in the resolved list (base files' rules first). */
  index: number;
  /** Where the rule is written: `base.budget.json: rules[0]`. */
  origin: string;
  files: string[];
  exclude: string[];
  limits: ResolvedLimits;
  /** Whether the rule applies to a path relative to the budget's folder. */
  matches(path: string): boolean;
}

export interface Budget {
  /** The budget file as the user named it. */
  file: string;
  /** Absolute folder the globs are relative to. */
  dir: string;
  rules: BudgetRule[];
  ignore: string[];
  pricing: Pricing;
  /** Whether `ignore` drops a path relative to the budget's folder. */
  isIgnored(path: string): boolean;
  /**
   * The path rules, `ignore` and shards see for an absolute path: relative to the budget's
   * folder, `/`-separated; for a file outside that folder, the path as printed (relative to
   * the working directory, or absolute), so a rule like `**\/*.glb` still applies to it.
   */
  relativePath(abs: string): string;
}

// -------------------------------------------------------------------------------------------
// Validation
// -------------------------------------------------------------------------------------------

const COMMENT_KEYS = ['$comment', '//'];
const NUMBER_LIMITS = ['maxLandImpact', 'maxDownload', 'maxPhysics', 'maxServer'] as const;
const BOOLEAN_LIMITS = ['linkable', 'canBePhysical', 'uploadable'] as const;
const LIMIT_KEYS = [...NUMBER_LIMITS, 'maxTriangles', 'requiredLods', 'maxHullVertices', 'maxPrims', ...BOOLEAN_LIMITS, 'atSizes'];
const RULE_KEYS = ['files', 'exclude', 'name', 'extends', ...LIMIT_KEYS];
const TOP_KEYS = ['$schema', 'extends', 'defaults', 'rules', 'ignore', 'pricing'];
const PRICING_KEYS = ['lodFactor', 'animesh', 'scripts', 'linkRule', 'linkSpan', 'siblings'];

interface RuleSpec extends Limits {
  files: string[];
  exclude: string[];
  name?: string;
  extends?: string;
  origin: string;
  /** The file the rule is written in, for error messages. */
  file: string;
  path: string;
}

interface BudgetSpec {
  extends: string[];
  defaults: Limits;
  rules: RuleSpec[];
  ignore: string[];
  pricing: Partial<Pricing>;
}

type Json = unknown;

class Reader {
  constructor(readonly file: string) {}

  fail(path: string, problem: string): never {
    throw new SlmeshError('INPUT_INVALID', `${this.file}: ${path || '(top level)'}: ${problem}`);
  }

  object(v: Json, path: string, allowed: readonly string[]): Record<string, Json> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `must be an object, got ${describe(v)}`);
    const o = v as Record<string, Json>;
    for (const k of Object.keys(o)) {
      if (COMMENT_KEYS.includes(k)) {
        this.comment(o[k], join(path, k));
        continue;
      }
      if (!allowed.includes(k)) {
        const near = nearest(k, allowed);
        this.fail(join(path, k), `unknown key${near ? ` (did you mean "${near}"?)` : ` (known keys: ${allowed.join(', ')})`}`);
      }
    }
    return o;
  }

  comment(v: Json, path: string): void {
    if (typeof v === 'string') return;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return;
    this.fail(path, `a comment must be a string or an array of strings, got ${describe(v)}`);
  }

  number(v: Json, path: string, opts: { min?: number; exclusiveMin?: number; max?: number; integer?: boolean }): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, `must be a number, got ${describe(v)}`);
    if (opts.integer && !Number.isInteger(v)) this.fail(path, `must be a whole number, got ${v}`);
    if (opts.min !== undefined && v < opts.min) this.fail(path, `must be at least ${opts.min}, got ${v}`);
    if (opts.exclusiveMin !== undefined && v <= opts.exclusiveMin) this.fail(path, `must be greater than ${opts.exclusiveMin}, got ${v}`);
    if (opts.max !== undefined && v > opts.max) this.fail(path, `must be at most ${opts.max}, got ${v}`);
    return v;
  }

  boolean(v: Json, path: string): boolean {
    if (typeof v !== 'boolean') this.fail(path, `must be true or false, got ${describe(v)}`);
    return v;
  }

  string(v: Json, path: string): string {
    if (typeof v !== 'string' || v.trim() === '') this.fail(path, `must be a non-empty string, got ${describe(v)}`);
    return v;
  }

  /** A string or a non-empty array of strings, as an array. */
  strings(v: Json, path: string): string[] {
    if (typeof v === 'string') return [this.string(v, path)];
    if (!Array.isArray(v) || v.length === 0) this.fail(path, `must be a string or a non-empty array of strings, got ${describe(v)}`);
    return v.map((x, i) => this.string(x, `${path}[${i}]`));
  }

  limits(o: Record<string, Json>, path: string): Limits {
    const out: Limits = {};
    for (const k of NUMBER_LIMITS) if (k in o) out[k] = o[k] === null ? null : this.number(o[k], join(path, k), { min: 0 });
    for (const k of BOOLEAN_LIMITS) if (k in o) out[k] = o[k] === null ? null : this.boolean(o[k], join(path, k));
    if ('maxHullVertices' in o) out.maxHullVertices = o.maxHullVertices === null ? null : this.number(o.maxHullVertices, join(path, 'maxHullVertices'), { min: 1, integer: true });
    if ('maxPrims' in o) out.maxPrims = o.maxPrims === null ? null : this.number(o.maxPrims, join(path, 'maxPrims'), { min: 1, integer: true });
    if ('maxTriangles' in o) {
      const p = join(path, 'maxTriangles');
      if (o.maxTriangles === null) out.maxTriangles = null;
      else if (typeof o.maxTriangles === 'number') {
        // A bare number limits the high LOD, the one every LOD falls back to.
        out.maxTriangles = { high: this.number(o.maxTriangles, p, { min: 0, integer: true }) };
      } else {
        const t = this.object(o.maxTriangles, p, LOD_SLOTS);
        const lim: Partial<Record<LodSlotName, number | null>> = {};
        for (const s of LOD_SLOTS) if (s in t) lim[s] = t[s] === null ? null : this.number(t[s], join(p, s), { min: 0, integer: true });
        out.maxTriangles = lim;
      }
    }
    if ('requiredLods' in o) {
      const p = join(path, 'requiredLods');
      if (o.requiredLods === null) out.requiredLods = null;
      else {
        if (!Array.isArray(o.requiredLods)) this.fail(p, `must be an array of ${REQUIRABLE.map((x) => `"${x}"`).join(', ')}, got ${describe(o.requiredLods)}`);
        const seen = new Set<string>();
        out.requiredLods = o.requiredLods.map((x, i) => {
          if (typeof x !== 'string' || !(REQUIRABLE as readonly string[]).includes(x)) this.fail(`${p}[${i}]`, `must be one of ${REQUIRABLE.map((r) => `"${r}"`).join(', ')}, got ${describe(x)}`);
          if (seen.has(x)) this.fail(`${p}[${i}]`, `"${x}" is listed twice`);
          seen.add(x);
          return x as Requirable;
        });
      }
    }
    if ('atSizes' in o) {
      const p = join(path, 'atSizes');
      if (o.atSizes === null) out.atSizes = null;
      else {
        if (!Array.isArray(o.atSizes) || o.atSizes.length === 0) this.fail(p, `must be a non-empty array of sizes (longest side in metres, or "asset"), got ${describe(o.atSizes)}`);
        const seen = new Set<SizeSpec>();
        out.atSizes = o.atSizes.map((x, i) => {
          const s: SizeSpec = x === 'asset' ? 'asset' : this.number(x, `${p}[${i}]`, { exclusiveMin: 0 });
          if (seen.has(s)) this.fail(`${p}[${i}]`, `size ${JSON.stringify(s)} is listed twice`);
          seen.add(s);
          return s;
        });
      }
    }
    return out;
  }

  pricing(v: Json, path: string): Partial<Pricing> {
    const o = this.object(v, path, PRICING_KEYS);
    const out: Partial<Pricing> = {};
    if ('lodFactor' in o) out.lodFactor = this.number(o.lodFactor, join(path, 'lodFactor'), { exclusiveMin: 0 });
    if ('animesh' in o) out.animesh = this.boolean(o.animesh, join(path, 'animesh'));
    if ('scripts' in o) out.scripts = this.number(o.scripts, join(path, 'scripts'), { min: 0, integer: true });
    if ('linkRule' in o) {
      if (o.linkRule !== 'current' && o.linkRule !== 'legacy') this.fail(join(path, 'linkRule'), `must be "current" or "legacy", got ${describe(o.linkRule)}`);
      out.linkRule = o.linkRule;
    }
    if ('linkSpan' in o) out.linkSpan = this.number(o.linkSpan, join(path, 'linkSpan'), { exclusiveMin: 0 });
    if ('siblings' in o) out.siblings = this.boolean(o.siblings, join(path, 'siblings'));
    return out;
  }

  rule(v: Json, path: string): RuleSpec {
    const o = this.object(v, path, RULE_KEYS);
    if (!('files' in o)) this.fail(path, 'a rule needs "files": the glob(s) of the assets it budgets');
    return {
      ...this.limits(o, path),
      files: this.strings(o.files, join(path, 'files')),
      exclude: 'exclude' in o ? this.strings(o.exclude, join(path, 'exclude')) : [],
      ...('name' in o ? { name: this.string(o.name, join(path, 'name')) } : {}),
      ...('extends' in o ? { extends: this.string(o.extends, join(path, 'extends')) } : {}),
      origin: `${this.file}: ${path}`,
      file: this.file,
      path,
    };
  }

  budget(v: Json): BudgetSpec {
    const o = this.object(v, '', TOP_KEYS);
    if ('$schema' in o && typeof o.$schema !== 'string') this.fail('$schema', `must be a string, got ${describe(o.$schema)}`);
    const ext = 'extends' in o ? this.strings(o.extends, 'extends') : [];
    if (!('rules' in o) && ext.length === 0) this.fail('', 'a budget needs "rules" (or "extends" naming a budget that has them)');
    let rules: RuleSpec[] = [];
    if ('rules' in o) {
      if (!Array.isArray(o.rules)) this.fail('rules', `must be an array of rules, got ${describe(o.rules)}`);
      rules = o.rules.map((r, i) => this.rule(r, `rules[${i}]`));
    }
    return {
      extends: ext,
      defaults: 'defaults' in o ? this.limits(this.object(o.defaults, 'defaults', LIMIT_KEYS), 'defaults') : {},
      rules,
      ignore: 'ignore' in o ? this.strings(o.ignore, 'ignore') : [],
      pricing: 'pricing' in o ? this.pricing(o.pricing, 'pricing') : {},
    };
  }
}

function join(path: string, key: string): string {
  if (!path) return key;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describe(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** The known key within edit distance 3 (or a case-insensitive match), for "did you mean". */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return bestD <= Math.min(3, Math.max(2, Math.floor(key.length / 3))) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** Parses JSON text, or throws one line naming the file, line and column. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0];
    const m = /position (\d+)/.exec(msg);
    let where = '';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const col = pos - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${col}`;
    } else if (/end of JSON/i.test(msg)) where = ' (it ends too early)';
    throw new SlmeshError('INPUT_UNREADABLE', `${file}: not valid JSON${where}: ${msg.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

// -------------------------------------------------------------------------------------------
// Loading, extends and inheritance
// -------------------------------------------------------------------------------------------

async function readSpec(abs: string, shown: string): Promise<BudgetSpec> {
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: ${code === 'ENOENT' ? 'no such budget file (slmesh init writes a starting one)' : `cannot read (${code ?? String(e)})`}`);
  }
  return new Reader(shown).budget(parseJsonFile(text, shown));
}

/** Reads a budget file and every file it extends into one spec (bases first). */
async function loadSpec(abs: string, shown: string, chain: string[], cwd: string): Promise<BudgetSpec> {
  const own = await readSpec(abs, shown);
  let acc: BudgetSpec = { extends: [], defaults: {}, rules: [], ignore: [], pricing: {} };
  for (const [i, ext] of own.extends.entries()) {
    const where = `${shown}: extends${own.extends.length > 1 ? `[${i}]` : ''}`;
    const baseAbs = resolve(dirname(abs), ext);
    if (chain.includes(baseAbs) || baseAbs === abs) throw new SlmeshError('INPUT_INVALID', `${where}: "${ext}" leads back to ${shown} (a cycle)`);
    try {
      if (!(await stat(baseAbs)).isFile()) throw new Error('not a file');
    } catch {
      throw new SlmeshError('INPUT_INVALID', `${where}: no such budget file "${ext}"`);
    }
    const baseShown = displayPath(baseAbs, cwd);
    acc = mergeSpecs(acc, await loadSpec(baseAbs, baseShown, [...chain, abs], cwd));
  }
  return mergeSpecs(acc, own);
}

function mergeSpecs(base: BudgetSpec, own: BudgetSpec): BudgetSpec {
  return {
    extends: [],
    defaults: stackLimits(base.defaults, own.defaults),
    rules: [...base.rules, ...own.rules],
    ignore: [...base.ignore, ...own.ignore],
    pricing: { ...base.pricing, ...own.pricing },
  };
}

/** `own` over `base`: a key set in own wins; null unsets; maxTriangles merges per LOD. */
function stackLimits(base: Limits, own: Limits): Limits {
  const out: Limits = { ...base };
  for (const [k, v] of Object.entries(own) as [keyof Limits, unknown][]) {
    if (v === undefined || !LIMIT_KEYS.includes(k)) continue;
    if (k === 'maxTriangles' && v !== null && base.maxTriangles) out.maxTriangles = { ...base.maxTriangles, ...(v as object) };
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

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
 * Throws SlmeshError (exit 2) for a missing, unparsable or invalid budget.
 */
export async function loadBudget(file: string, cwd: string = process.cwd()): Promise<Budget> {
  const abs = resolve(cwd, file);
  const spec = await loadSpec(abs, file, [], cwd);
  return resolveBudget(spec, file, dirname(abs), cwd);
}

/** Validates an already-parsed budget object (no `extends` to follow unless files exist). */
export function budgetFromJson(json: unknown, file: string, dir: string, cwd: string = process.cwd()): Budget {
  const spec = new Reader(file).budget(json);
  if (spec.extends.length) throw new SlmeshError('INPUT_INVALID', `${file}: extends: only a budget read from a file can extend another`);
  return resolveBudget(spec, file, dir, cwd);
}

function resolveBudget(spec: BudgetSpec, file: string, dir: string, cwd: string): Budget {
  if (spec.rules.length === 0) throw new SlmeshError('INPUT_INVALID', `${file}: rules: the budget has no rules`);
  // 1. Names: explicit ones must be unique; the others are their globs.
  const byName = new Map<string, RuleSpec>();
  for (const r of spec.rules) {
    if (r.name === undefined) continue;
    const dup = byName.get(r.name);
    if (dup) throw new SlmeshError('INPUT_INVALID', `${r.file}: ${r.path}.name: "${r.name}" is also the name of ${dup.origin}`);
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
        throw new SlmeshError('INPUT_INVALID', `${r.file}: ${r.path}.extends: no rule is named "${r.extends}"${near ? ` (did you mean "${near}"?)` : ''}`);
      }
      if (parent === r || chain.includes(parent)) throw new SlmeshError('INPUT_INVALID', `${r.file}: ${r.path}.extends: "${r.extends}" leads back to this rule (a cycle)`);
      base = limitsOf(parent, [...chain, r]);
    }
    const own: Limits = {};
    const written = r as unknown as Record<string, unknown>;
    for (const k of LIMIT_KEYS) if (written[k] !== undefined) (own as Record<string, unknown>)[k] = written[k];
    const l = stackLimits(base, own);
    resolved.set(r, l);
    return l;
  };
  const globs = (list: string[], where: string) => {
    try {
      return globMatcher(list);
    } catch (e) {
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
