/**
 * `.gitignore` files, for the assets `slmesh check` and `slmesh init` find on their own: a
 * file git would not track is not an asset of the repository.
 *
 * Supported (gitignore(5)): blank lines and `#` comments, `!` re-includes, a trailing `/` for
 * folders only, a pattern with a `/` before its end anchored to its `.gitignore`'s folder, one
 * without matching a name at any depth, and the glob syntax of glob.ts. The last matching line
 * wins; a file inside an ignored folder stays ignored (git does not look inside it either).
 *
 * Guarantees: each `.gitignore` is read through safe-read (a regular file inside the walked
 * tree, at most MAX_GITIGNORE_BYTES) and has at most MAX_GITIGNORE_RULES lines; matching is
 * glob.ts's, which has no exponential case.
 */

import { join } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { readInside } from '@slmesh/gltf-plugin/node';
import { compileGlob } from './glob.js';

export const MAX_GITIGNORE_BYTES = 1024 * 1024;
export const MAX_GITIGNORE_RULES = 10_000;

interface Rule {
  negate: boolean;
  dirOnly: boolean;
  test: (rel: string) => boolean;
}

/** The rules of one `.gitignore`, matching paths relative to its folder. */
export function parseGitignore(text: string, shown: string): Rule[] {
  const rules: Rule[] = [];
  for (let raw of text.split(/\r?\n/)) {
    if (raw === '' || raw.startsWith('#')) continue;
    raw = raw.replace(/(?<!\\)\s+$/, '');
    if (raw === '') continue;
    let negate = false;
    if (raw.startsWith('!')) {
      negate = true;
      raw = raw.slice(1);
    } else if (raw.startsWith('\\!') || raw.startsWith('\\#')) raw = raw.slice(1);
    let dirOnly = false;
    if (raw.endsWith('/')) {
      dirOnly = true;
      raw = raw.replace(/\/+$/, '');
    }
    if (raw === '') continue;
    const anchored = raw.includes('/');
    const pattern = anchored ? raw.replace(/^\//, '') : `**/${raw}`;
    let test: (rel: string) => boolean;
    try {
      const g = compileGlob(pattern);
      // gitignore's `*` and `**` match names starting with a dot too: try the name with the
      // dot-rule off by matching a copy whose leading dots are replaced.
      test = (rel) => g(rel) || g(rel.replace(/(^|\/)\./g, '$1\u0000'));
    } catch {
      continue; // git ignores a line it cannot use
    }
    rules.push({ negate, dirOnly, test });
    if (rules.length > MAX_GITIGNORE_RULES)
      throw new SlmeshError('INPUT_LIMIT', `${shown}: more than ${MAX_GITIGNORE_RULES} patterns (the limit)`);
  }
  return rules;
}

/** The `.gitignore` of a folder, if it has one. */
export async function readGitignore(dir: string, shown: string): Promise<Rule[] | undefined> {
  const file = join(dir, '.gitignore');
  let bytes: Uint8Array;
  try {
    bytes = await readInside(file, shown, {
      root: dir,
      maxBytes: MAX_GITIGNORE_BYTES,
      rootName: 'its folder',
      hidden: 'allow',
    });
  } catch (e) {
    if (e instanceof SlmeshError && / no such file$/.test(e.message)) return undefined;
    throw e;
  }
  return parseGitignore(new TextDecoder().decode(bytes), shown);
}

/** Whether `rel` (relative to the rules' folder, `/`-separated) is ignored; undefined when no rule says. */
export function ignoredBy(rules: readonly Rule[], rel: string, isDir: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    if (r.test(rel)) verdict = !r.negate;
  }
  return verdict;
}

export type GitignoreRules = Rule[];
