/** check/gitignore.ts: the gitignore(5) rules `slmesh check` and `init` respect. */

import { describe, expect, it } from 'vitest';
import { ignoredBy, parseGitignore } from '../src/check/gitignore.js';

describe('parseGitignore / ignoredBy', () => {
  const rules = parseGitignore(
    '# comment\n\nbuild/\n*.tmp.glb\n/top.glb\ndeep/wip/*.glb\n!keep.tmp.glb\n.cache\n',
    '.gitignore',
  );

  it('matches names at any depth, anchored paths from the folder, folders only with a slash', () => {
    expect(ignoredBy(rules, 'build', true)).toBe(true);
    expect(ignoredBy(rules, 'build', false)).toBeUndefined();
    expect(ignoredBy(rules, 'a/b/x.tmp.glb', false)).toBe(true);
    expect(ignoredBy(rules, 'top.glb', false)).toBe(true);
    expect(ignoredBy(rules, 'sub/top.glb', false)).toBeUndefined();
    expect(ignoredBy(rules, 'deep/wip/a.glb', false)).toBe(true);
    expect(ignoredBy(rules, 'x/.cache', true)).toBe(true);
  });

  it('the last matching line wins: ! re-includes', () => {
    expect(ignoredBy(rules, 'keep.tmp.glb', false)).toBe(false);
  });
});
