/**
 * Finds the model files `slmesh check` and `slmesh init` work on: plain paths, globs
 * (glob.ts) and folders, walked from the folder each glob's literal prefix names.
 *
 * Guarantees: a path comes back once, with `/` separators, relative to `cwd` (or absolute
 * when the pattern was), sorted by code unit so every machine gets the same order. Folders
 * named `node_modules` and folders whose name starts with `.` (`.git`, caches) are not
 * walked; symbolic links to folders are not followed (no cycles). Sibling LOD / physics files
 * (`chair_LOD2.glb`) whose main file (`chair.glb`) is also present are parts of that asset,
 * not assets of their own, when siblings are read.
 */

import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { isSiblingFileName, siblingFileName } from '@slmesh/gltf-plugin/node';
import { globBase, globMatcher, isGlob, normalizePattern } from './glob.js';
import { ignoredBy, readGitignore, type GitignoreRules } from './gitignore.js';

/** The model files a bare folder argument stands for. */
export const MODEL_EXTENSIONS = ['.glb', '.gltf'];

export const toPosix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** A path as slmesh prints it: relative to cwd with `/`, or absolute when outside cwd's tree. */
export function displayPath(abs: string, cwd: string): string {
  const rel = toPosix(relative(cwd, abs));
  if (rel === '') return '.';
  return isAbsolute(rel) || rel === '..' || rel.startsWith('../') ? toPosix(abs) : rel;
}

/** Every file under `dir` (absolute paths), skipping node_modules and dot folders. */
export async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (d === dir && (code === 'ENOENT' || code === 'ENOTDIR')) return [];
      throw new SlmeshError('INPUT_UNREADABLE', `${d}: cannot list folder (${code ?? String(e)})`);
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        stack.push(p);
      } else if (e.isFile()) out.push(p);
      else if (e.isSymbolicLink()) {
        try {
          if ((await stat(p)).isFile()) out.push(p);
        } catch {
          // a dangling link is not a model file
        }
      }
    }
  }
  return out;
}

/** The repository a folder is in: the nearest ancestor with `.git`, or undefined. */
export async function repositoryRoot(dir: string): Promise<string | undefined> {
  let d = resolve(dir);
  for (let i = 0; i < 256; i++) {
    try {
      await lstat(join(d, '.git'));
      return d;
    } catch {
      // not here
    }
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/**
 * Every model file below `root` (absolute paths, sorted): `.glb` / `.gltf` in any letter case,
 * not in node_modules or a dot folder, and not ignored by a `.gitignore` (of `root`, of any
 * folder below it, or of its folders up to the repository's root). `slmesh check` with no
 * arguments judges all of them, so a new folder or a `.GLB` cannot pass unjudged.
 */
export async function findAllModels(root: string): Promise<string[]> {
  const out: string[] = [];
  type Layer = { base: string; rules: GitignoreRules };
  const ignored = (layers: Layer[], abs: string, isDir: boolean) => {
    let verdict = false;
    for (const l of layers) verdict = ignoredBy(l.rules, toPosix(relative(l.base, abs)), isDir) ?? verdict;
    return verdict;
  };
  // 1. The .gitignore files above `root`, up to the repository's root.
  const top: Layer[] = [];
  const repo = await repositoryRoot(root);
  if (repo) {
    const chain: string[] = [];
    for (let d = dirname(resolve(root)); d.startsWith(repo) && chain.length < 256; d = dirname(d)) {
      chain.unshift(d);
      if (d === repo || dirname(d) === d) break;
    }
    for (const d of chain) {
      const rules = await readGitignore(d, displayPath(join(d, '.gitignore'), process.cwd()));
      if (rules) top.push({ base: d, rules });
    }
  }
  // 2. Walk, reading each folder's .gitignore on the way down.
  const stack: { dir: string; layers: Layer[] }[] = [{ dir: resolve(root), layers: top }];
  while (stack.length) {
    const { dir, layers: parent } = stack.pop()!;
    const own = await readGitignore(dir, displayPath(join(dir, '.gitignore'), process.cwd()));
    const layers = own ? [...parent, { base: dir, rules: own }] : parent;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      throw new SlmeshError(
        'INPUT_UNREADABLE',
        `${displayPath(dir, process.cwd())}: cannot list folder (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name.startsWith('.') || ignored(layers, p, true)) continue;
        stack.push({ dir: p, layers });
      } else if ((e.isFile() || e.isSymbolicLink()) && MODEL_EXTENSIONS.some((x) => e.name.toLowerCase().endsWith(x))) {
        // A link is kept: reading it checks where it leads (and fails the run if outside).
        if (!ignored(layers, p, false)) out.push(p);
      }
    }
  }
  return out.sort(byCodeUnit);
}

export interface FindAssetsOptions {
  /** Folder relative paths and globs are resolved against. */
  cwd: string;
  /** Drop sibling LOD / physics files whose main file is present. Default true. */
  siblings?: boolean;
}

/**
 * Expands arguments into model files (absolute paths, sorted). Each argument must yield at
 * least one file: a missing path or a glob that matches nothing is an error naming it.
 */
export async function findAssets(args: readonly string[], options: FindAssetsOptions): Promise<string[]> {
  const found = new Set<string>();
  for (const raw of args) {
    const arg = normalizePattern(toPosix(raw));
    if (!isGlob(arg)) {
      // 1. A plain path: a file, or a folder standing for every model file under it.
      const abs = resolve(options.cwd, arg);
      let isDir = false;
      try {
        isDir = (await stat(abs)).isDirectory();
      } catch {
        throw new SlmeshError('INPUT_UNREADABLE', `${raw}: no such file`);
      }
      if (isDir) {
        const models = (await walkFiles(abs)).filter((f) => MODEL_EXTENSIONS.some((x) => f.toLowerCase().endsWith(x)));
        for (const f of models) found.add(f);
        if (models.length === 0)
          throw new SlmeshError('INPUT_UNREADABLE', `${raw}: no .glb or .gltf files in this folder`);
      } else found.add(abs);
      continue;
    }
    // 2. A glob: walk from its literal prefix and match paths in the glob's own frame.
    const matches = await findMatching([arg], options.cwd);
    for (const f of matches) found.add(f);
    if (matches.length === 0) throw new SlmeshError('INPUT_UNREADABLE', `no files match "${raw}"`);
  }
  return dropSiblings([...found], options.siblings ?? true).sort(byCodeUnit);
}

/**
 * Files matching any of `patterns`, each matched against its path relative to `root` (or its
 * absolute path, for an absolute pattern). Absolute paths, unsorted; none is not an error.
 */
export async function findMatching(patterns: readonly string[], root: string): Promise<string[]> {
  const found = new Set<string>();
  const bases = new Map<string, string[]>();
  for (const raw of patterns) {
    const p = normalizePattern(toPosix(raw));
    const base = resolve(root, globBase(p) || '.');
    bases.set(base, [...(bases.get(base) ?? []), p]);
  }
  // Walk each distinct base once; a base inside another is walked again (cheap, and rare).
  for (const [base, list] of bases) {
    let rel: (p: string) => boolean;
    let abs: (p: string) => boolean;
    try {
      rel = globMatcher(list.filter((p) => !isAbsolute(p)));
      abs = globMatcher(list.filter((p) => isAbsolute(p)));
    } catch (e) {
      throw new SlmeshError('USAGE', (e as Error).message);
    }
    for (const f of await walkFiles(base)) {
      if (rel(toPosix(relative(root, f))) || abs(toPosix(f))) found.add(f);
    }
  }
  return [...found];
}

/** Removes `x_LOD2.glb`-style files whose main file is in the list (they are read with it). */
export function dropSiblings(files: string[], siblings: boolean): string[] {
  if (!siblings) return files;
  const set = new Set(files);
  return files.filter((f) => {
    const name = basename(f);
    if (!isSiblingFileName(name)) return true;
    const dot = name.lastIndexOf('.');
    const stem = name.slice(0, dot > 0 ? dot : name.length).replace(/_(LOD[012]|PHYS)$/, '');
    const main = join(dirname(f), stem + (dot > 0 ? name.slice(dot) : ''));
    // Only a real pair: the main file's sibling name for some slot must be this file.
    const pairs = (['medium', 'low', 'lowest', 'physics'] as const).some(
      (s) => siblingFileName(basename(main), s) === name,
    );
    return !(pairs && set.has(main));
  });
}

export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
