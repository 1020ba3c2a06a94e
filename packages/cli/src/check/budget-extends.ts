/**
 * Reads a budget file and every budget it `extends` (other files, relative to the file that
 * names them) into one spec: bases first, their `defaults` and `pricing` under the extending
 * file's, their `rules` before its own.
 *
 * Guarantees: each file is read once, through safe-read (a regular file whose real path is in
 * the repository holding the budget, or in the budget's folder outside a repository; never in
 * `.git`; at most BUDGET_LIMITS.fileBytes), so a diamond of `extends` costs one read per file,
 * not 2^n; a cycle is an error naming the file; more than BUDGET_LIMITS.files files is an
 * INPUT_LIMIT error. Errors never quote a file's contents.
 */

import { dirname, resolve } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { readInside, realFolder } from '@slmesh/gltf-plugin/node';
import { BUDGET_LIMITS, LIMIT_KEYS, type BudgetSpec, type Limits } from './budget-types.js';
import { validateBudgetJson } from './budget-validate.js';
import { displayPath, repositoryRoot } from './find-assets.js';

/** Parses JSON text, or throws one line naming the file, line and column (never quoting the text). */
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
      let line = 1;
      for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
      const col = pos - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${col}`;
    } else if (/end of JSON/i.test(msg)) where = ' (it ends too early)';
    // V8's message quotes the text around the error: keep only its kind.
    const kind = /^Unexpected (token|end|non-whitespace character|number|string)/.exec(msg)?.[0] ?? 'syntax error';
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${file}: not valid JSON${where}${where.startsWith(' (') ? '' : `: ${kind}`}`,
    );
  }
}

/** Reads a JSON file through safe-read and parses it. */
export async function readJsonInside(
  abs: string,
  shown: string,
  root: string,
  rootName: string,
  maxBytes: number,
  missing: string,
): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await readInside(abs, shown, { root, rootName, maxBytes, hidden: 'allow' });
  } catch (e) {
    if (e instanceof SlmeshError && e.message === `${shown}: no such file`)
      throw new SlmeshError('INPUT_UNREADABLE', `${shown}: ${missing}`);
    throw e;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: not UTF-8 text`);
  }
  return parseJsonFile(text, shown);
}

/** Reads the budget at `abs` (named `shown`) with everything it extends. */
export async function loadSpec(abs: string, shown: string, cwd: string): Promise<BudgetSpec> {
  // 1. Where extended budgets may live: the repository, else the budget's own folder.
  const own = await realFolder(dirname(abs), displayPath(dirname(abs), cwd));
  const root = (await repositoryRoot(own)) ?? own;
  const rootName = (await repositoryRoot(own)) ? 'the repository' : "the budget's folder";
  const first = await readJsonInside(
    abs,
    shown,
    dirname(abs),
    "the budget's folder",
    BUDGET_LIMITS.fileBytes,
    'no such budget file (slmesh init writes a starting one)',
  );
  // 2. Depth-first, each file once; `chain` is the path from the top file, for cycles.
  const done = new Map<string, BudgetSpec>();
  let reads = 1;
  const visit = async (file: string, shownName: string, json: unknown, chain: string[]): Promise<BudgetSpec> => {
    const spec = validateBudgetJson(json, shownName);
    let acc: BudgetSpec = { extends: [], defaults: {}, rules: [], ignore: [], pricing: {} };
    for (const [i, ext] of spec.extends.entries()) {
      const where = `${shownName}: extends${spec.extends.length > 1 ? `[${i}]` : ''}`;
      const baseAbs = resolve(dirname(file), ext);
      if (baseAbs === file || chain.includes(baseAbs))
        throw new SlmeshError('INPUT_INVALID', `${where}: "${ext}" leads back to ${shownName} (a cycle)`);
      if (done.has(baseAbs)) continue; // a diamond: its rules are already in
      if (++reads > BUDGET_LIMITS.files)
        throw new SlmeshError(
          'INPUT_LIMIT',
          `${shown}: extends more than ${BUDGET_LIMITS.files} budget files (the limit)`,
        );
      const baseShown = displayPath(baseAbs, cwd);
      const baseJson = await readJsonInside(
        baseAbs,
        `${where} "${ext}"`,
        root,
        rootName,
        BUDGET_LIMITS.fileBytes,
        'no such budget file',
      ).catch((e: unknown) => {
        if (e instanceof SlmeshError && e.message.endsWith(': no such budget file'))
          throw new SlmeshError('INPUT_INVALID', `${where}: no such budget file "${ext}"`);
        throw e;
      });
      const base = await visit(baseAbs, baseShown, baseJson, [...chain, file]);
      acc = mergeSpecs(acc, base);
    }
    const merged = mergeSpecs(acc, spec);
    done.set(file, merged);
    if (merged.rules.length > BUDGET_LIMITS.rules)
      throw new SlmeshError('INPUT_LIMIT', `${shown}: more than ${BUDGET_LIMITS.rules} rules (the limit)`);
    return merged;
  };
  return visit(abs, shown, first, []);
}

export function mergeSpecs(base: BudgetSpec, own: BudgetSpec): BudgetSpec {
  return {
    extends: [],
    defaults: stackLimits(base.defaults, own.defaults),
    rules: base.rules.concat(own.rules),
    ignore: base.ignore.concat(own.ignore),
    pricing: { ...base.pricing, ...own.pricing },
  };
}

/** `own` over `base`: a key set in own wins; null unsets; maxTriangles merges per LOD. */
export function stackLimits(base: Limits, own: Limits): Limits {
  const out: Limits = { ...base };
  for (const [k, v] of Object.entries(own) as [keyof Limits, unknown][]) {
    if (v === undefined || !LIMIT_KEYS.includes(k)) continue;
    if (k === 'maxTriangles' && v !== null && base.maxTriangles)
      out.maxTriangles = { ...base.maxTriangles, ...(v as object) };
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}
