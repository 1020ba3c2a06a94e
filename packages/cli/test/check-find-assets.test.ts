/** check/find-assets.ts: which files `slmesh check` and `slmesh init` work on. */

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, dropSiblings, findAssets, findMatching } from '../src/check/find-assets.js';

function tree(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-find-'));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  return dir;
}

const FILES = [
  'props/b.glb',
  'props/a.glb',
  'props/deep/c.gltf',
  'props/notes.txt',
  'vase.glb',
  'vase_LOD2.glb',
  'vase_PHYS.glb',
  'orphan_LOD1.glb',
  '.git/x.glb',
  'node_modules/pkg/y.glb',
  '.cache/z.glb',
];

describe('findAssets', () => {
  const dir = tree(FILES);
  const rel = (list: string[]) => list.map((f) => displayPath(f, dir));

  it('expands globs relative to cwd, sorted, without dot folders or node_modules', async () => {
    expect(rel(await findAssets(['**/*.glb'], { cwd: dir }))).toEqual([
      'orphan_LOD1.glb',
      'props/a.glb',
      'props/b.glb',
      'vase.glb',
    ]);
  });

  it('drops sibling LOD / physics files whose main file is there, keeps orphans', async () => {
    expect(rel(await findAssets(['*.glb'], { cwd: dir }))).toEqual(['orphan_LOD1.glb', 'vase.glb']);
    expect(rel(await findAssets(['*.glb'], { cwd: dir, siblings: false }))).toEqual([
      'orphan_LOD1.glb',
      'vase.glb',
      'vase_LOD2.glb',
      'vase_PHYS.glb',
    ]);
  });

  it('takes files and folders (every .glb / .gltf below), once each, whatever the order', async () => {
    const a = rel(await findAssets(['props', 'props/a.glb', 'props/*.glb'], { cwd: dir }));
    const b = rel(await findAssets(['props/*.glb', 'props/a.glb', 'props'], { cwd: dir }));
    expect(a).toEqual(['props/a.glb', 'props/b.glb', 'props/deep/c.gltf']);
    expect(b).toEqual(a);
  });

  it('fails closed: a missing file, a glob matching nothing, a folder without models', async () => {
    await expect(findAssets(['props/missing.glb'], { cwd: dir })).rejects.toThrow('props/missing.glb: no such file');
    await expect(findAssets(['nothing/**/*.glb'], { cwd: dir })).rejects.toThrow('no files match "nothing/**/*.glb"');
    mkdirSync(join(dir, 'empty'), { recursive: true });
    await expect(findAssets(['empty'], { cwd: dir })).rejects.toThrow('empty: no .glb or .gltf files');
  });

  it('findMatching matches relative to its root and returns nothing for no match', async () => {
    expect(rel(await findMatching(['props/**/*.{glb,gltf}'], dir)).sort()).toEqual([
      'props/a.glb',
      'props/b.glb',
      'props/deep/c.gltf',
    ]);
    expect(await findMatching(['nope/*.glb'], dir)).toEqual([]);
  });
});

describe('dropSiblings and displayPath', () => {
  it('only drops a real pair', () => {
    expect(dropSiblings(['/a/x.glb', '/a/x_LOD0.glb', '/a/y_LOD0.glb', '/b/x_LOD0.glb'], true)).toEqual([
      '/a/x.glb',
      '/a/y_LOD0.glb',
      '/b/x_LOD0.glb',
    ]);
  });
  it('prints paths relative to cwd with /', () => {
    expect(displayPath('/work/p/props/a.glb', '/work/p')).toBe('props/a.glb');
    expect(displayPath('/elsewhere/a.glb', '/work/p')).toBe('/elsewhere/a.glb');
  });
});
