/**
 * Validates one budget file against docs/budget.schema.json (budget-schema.ts) with Ajv, the
 * JSON Schema validator, and turns it into a BudgetSpec.
 *
 * Guarantees: the CLI accepts exactly what the published schema accepts (plus the checks a
 * schema cannot state: no empty rule list, unique names, rule `extends`, in budget.ts). A
 * refusal is one line naming the file and the JSON path of the first problem, in words a
 * budget author understands (`rules[2].maxTriangles.high: must be a whole number, got 1.5`),
 * and an unknown key suggests the nearest known one, so a typo never silently drops a limit.
 * Ajv's raw errors (which quote schema internals) are never printed.
 */

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { SlmeshError } from '@slmesh/core';
import { BUDGET_SCHEMA } from './budget-schema.js';
import {
  BOOLEAN_LIMITS,
  LIMIT_KEYS,
  LOD_SLOTS,
  NUMBER_LIMITS,
  PRICING_KEYS,
  REQUIRABLE,
  RULE_KEYS,
  TOP_KEYS,
  type BudgetSpec,
  type Limits,
  type LodSlotName,
  type Pricing,
  type Requirable,
  type RuleSpec,
  type SizeSpec,
} from './budget-types.js';

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ allErrors: true, strict: false }).compile(BUDGET_SCHEMA as object);
  return compiled;
}

type Json = unknown;

/** `rules[0].maxTriangles.high`, `rules[0]["//"]` from a JSON pointer's segments. */
export function jsonPath(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function pointer(p: string): string[] {
  return p === ''
    ? []
    : p
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describe(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function valueAt(root: Json, segs: readonly string[]): Json {
  let v = root;
  for (const s of segs) v = v !== null && typeof v === 'object' ? (v as Record<string, Json>)[s] : undefined;
  return v;
}

const quoted = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');

/** What a value at this place must be, in words (for type / oneOf / enum failures). */
function expectation(segs: readonly string[]): string {
  const key = segs[segs.length - 1] ?? '';
  const parent = segs[segs.length - 2] ?? '';
  const top = segs.length === 1;
  if (key === '//' || key === '$comment') return 'a comment must be a string or an array of strings';
  if (
    segs.length === 0 ||
    (parent === 'rules' && /^\d+$/.test(key)) ||
    (top && (key === 'defaults' || key === 'pricing'))
  )
    return 'must be an object';
  if (top && key === 'rules') return 'must be an array of rules';
  if (top && key === '$schema') return 'must be a string';
  if (key === 'files' || key === 'exclude' || (top && (key === 'ignore' || key === 'extends')))
    return 'must be a string or a non-empty array of strings';
  if (/^\d+$/.test(key) && ['files', 'exclude', 'ignore', 'extends'].includes(parent))
    return 'must be a non-empty string';
  if (key === 'name' || key === 'extends') return 'must be a non-empty string';
  if ((NUMBER_LIMITS as readonly string[]).includes(key) || key === 'lodFactor' || key === 'linkSpan')
    return 'must be a number';
  if ((BOOLEAN_LIMITS as readonly string[]).includes(key) || key === 'animesh' || key === 'siblings')
    return 'must be true or false';
  if (key === 'maxTriangles')
    return 'must be a whole number or an object of limits per LOD (high, medium, low, lowest)';
  if (parent === 'maxTriangles' || key === 'maxHullVertices' || key === 'maxPrims' || key === 'scripts')
    return 'must be a whole number';
  if (key === 'requiredLods') return `must be an array of ${quoted(REQUIRABLE)}`;
  if (parent === 'requiredLods') return `must be one of ${quoted(REQUIRABLE)}`;
  if (key === 'atSizes') return 'must be a non-empty array of sizes (longest side in metres, or "asset")';
  if (parent === 'atSizes') return 'must be a size in metres greater than 0, or "asset"';
  if (key === 'linkRule') return 'must be "current" or "legacy"';
  return 'is not allowed here';
}

/** The keys known at this place, for "did you mean". */
function knownKeys(segs: readonly string[]): readonly string[] {
  if (segs.length === 0) return TOP_KEYS;
  const key = segs[segs.length - 1];
  if (segs.length === 1 && key === 'defaults') return LIMIT_KEYS;
  if (segs.length === 1 && key === 'pricing') return PRICING_KEYS;
  if (key === 'maxTriangles') return LOD_SLOTS;
  return RULE_KEYS;
}

/** The known key within edit distance 3 (or a case-insensitive match), for "did you mean". */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key.toLowerCase().slice(0, 64), k.toLowerCase());
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

/** Ranks Ajv's errors: the deepest place first, then the most specific keyword. */
const SPECIFIC = [
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'uniqueItems',
  'minimum',
  'exclusiveMinimum',
  'pattern',
];

/** One line (after the file name) for the first problem Ajv found. */
function explain(errors: readonly ErrorObject[], json: Json): string {
  const placed = errors.map((e) => {
    const segs = pointer(e.instancePath);
    if (e.keyword === 'additionalProperties')
      segs.push(String((e.params as { additionalProperty: string }).additionalProperty));
    if (e.keyword === 'unevaluatedProperties')
      segs.push(String((e.params as { unevaluatedProperty: string }).unevaluatedProperty));
    if (e.keyword === 'uniqueItems')
      segs.push(String(Math.max((e.params as { i: number; j: number }).i, (e.params as { i: number; j: number }).j)));
    return { e, segs };
  });
  const rank = (x: (typeof placed)[number]) => {
    const k = SPECIFIC.indexOf(x.e.keyword);
    return (k < 0 ? SPECIFIC.length : k) - x.segs.length * 100;
  };
  // Comments are checked on their own: an unknown key beside a bad comment is not "deeper".
  placed.sort((a, b) => rank(a) - rank(b));
  const { e, segs } = placed[0];
  const where = jsonPath(segs) || '(top level)';
  const value = valueAt(json, segs);
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const known = knownKeys(segs.slice(0, -1));
      const near = nearest(segs[segs.length - 1], known);
      return `${where}: unknown key${near ? ` (did you mean "${near}"?)` : ` (known keys: ${known.join(', ')})`}`;
    }
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      if (segs.length === 0) return `${where}: a budget needs "rules" (or "extends" naming a budget that has them)`;
      if (missing === 'files') return `${where}: a rule needs "files": the glob(s) of the assets it budgets`;
      return `${where}: needs "${missing}"`;
    }
    case 'uniqueItems':
      return `${where}: ${segs[segs.length - 2] === 'atSizes' ? `size ${JSON.stringify(value)}` : JSON.stringify(value)} is listed twice`;
    case 'minimum':
      return `${where}: must be at least ${(e.params as { limit: number }).limit}, got ${describe(value)}`;
    case 'exclusiveMinimum':
      return `${where}: must be greater than ${(e.params as { limit: number }).limit}, got ${describe(value)}`;
  }
  // Which of several shapes was meant cannot be known: say what the place takes.
  const want = expectation(segs);
  if (segs.length === 0 && (e.keyword === 'anyOf' || e.keyword === 'oneOf'))
    return `${where}: a budget needs "rules" (or "extends" naming a budget that has them)`;
  return `${where}: ${want}, got ${describe(value)}`;
}

/** Validates a parsed budget file; throws one line (INPUT_INVALID) naming the file and the JSON path. */
export function validateBudgetJson(json: Json, file: string): BudgetSpec {
  const validate = validator();
  if (!validate(json)) throw new SlmeshError('INPUT_INVALID', `${file}: ${explain(validate.errors ?? [], json)}`);
  return toSpec(json as Record<string, Json>, file);
}

const asList = (v: Json): string[] => (v === undefined ? [] : typeof v === 'string' ? [v] : (v as string[]));

function limitsOf(o: Record<string, Json>): Limits {
  const out: Limits = {};
  for (const k of LIMIT_KEYS) {
    if (!(k in o)) continue;
    const v = o[k];
    // A bare number limits the high LOD, the one every LOD falls back to.
    if (k === 'maxTriangles' && typeof v === 'number') out.maxTriangles = { high: v };
    else if (k === 'maxTriangles' && v !== null) {
      const t: Partial<Record<LodSlotName, number | null>> = {};
      for (const s of LOD_SLOTS) if (s in (v as object)) t[s] = (v as Record<string, number | null>)[s];
      out.maxTriangles = t;
    } else if (k === 'requiredLods') out.requiredLods = v as Requirable[] | null;
    else if (k === 'atSizes') out.atSizes = v as SizeSpec[] | null;
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function toSpec(o: Record<string, Json>, file: string): BudgetSpec {
  const rules: RuleSpec[] = ((o.rules as Record<string, Json>[] | undefined) ?? []).map((r, i) => {
    const path = `rules[${i}]`;
    return {
      ...limitsOf(r),
      files: asList(r.files),
      exclude: asList(r.exclude),
      ...(r.name !== undefined ? { name: r.name as string } : {}),
      ...(r.extends !== undefined ? { extends: r.extends as string } : {}),
      origin: `${file}: ${path}`,
      file,
      path,
    };
  });
  const pricing: Partial<Pricing> = {};
  for (const k of PRICING_KEYS)
    if (o.pricing && k in (o.pricing as object))
      (pricing as Record<string, unknown>)[k] = (o.pricing as Record<string, unknown>)[k];
  return {
    extends: asList(o.extends),
    defaults: o.defaults ? limitsOf(o.defaults as Record<string, Json>) : {},
    rules,
    ignore: asList(o.ignore),
    pricing,
  };
}
