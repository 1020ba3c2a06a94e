/** check/glob.ts: the glob dialect of budget rules and `slmesh check` arguments. */

import { describe, expect, it } from 'vitest';
import { compileGlob, expandBraces, globBase, globMatcher, isGlob, MAX_ALTERNATIVES } from '../src/check/glob.js';

const m = (pattern: string, path: string) => compileGlob(pattern)(path);

describe('compileGlob', () => {
  it('** matches any number of folders, including none', () => {
    expect(m('props/**/*.glb', 'props/chair.glb')).toBe(true);
    expect(m('props/**/*.glb', 'props/a/b/c/chair.glb')).toBe(true);
    expect(m('props/**/*.glb', 'other/chair.glb')).toBe(false);
    expect(m('**/*.glb', 'chair.glb')).toBe(true);
    expect(m('**/*.glb', 'a/b/chair.glb')).toBe(true);
    expect(m('props/**', 'props/a/b.glb')).toBe(true);
  });

  it('* and ? stay inside one path segment', () => {
    expect(m('props/*.glb', 'props/chair.glb')).toBe(true);
    expect(m('props/*.glb', 'props/sub/chair.glb')).toBe(false);
    expect(m('props/chair?.glb', 'props/chair2.glb')).toBe(true);
    expect(m('props/chair?.glb', 'props/chair.glb')).toBe(false);
    expect(m('*', 'a/b')).toBe(false);
  });

  it('{a,b} alternatives, nested and empty', () => {
    expect(m('*.{glb,gltf}', 'x.gltf')).toBe(true);
    expect(m('*.{glb,gltf}', 'x.obj')).toBe(false);
    expect(m('{props,{furniture,deco}/big}/*.glb', 'deco/big/x.glb')).toBe(true);
    expect(m('{props,{furniture,deco}/big}/*.glb', 'deco/x.glb')).toBe(false);
    expect(m('chair{,_v2}.glb', 'chair.glb')).toBe(true);
    expect(m('chair{,_v2}.glb', 'chair_v2.glb')).toBe(true);
    expect(expandBraces('a{b,c}d{e,f}')).toEqual(['abde', 'abdf', 'acde', 'acdf']);
    expect(expandBraces('a{b}c')).toEqual(['a{b}c']); // no comma: literal
  });

  it('character classes, ranges and negation', () => {
    expect(m('lod[0-2].glb', 'lod1.glb')).toBe(true);
    expect(m('lod[0-2].glb', 'lod3.glb')).toBe(false);
    expect(m('lod[!0-2].glb', 'lod3.glb')).toBe(true);
    expect(m('lod[^0-2].glb', 'lod1.glb')).toBe(false);
    expect(m('[abc]x', 'bx')).toBe(true);
    expect(m('[!a]x', '/x')).toBe(false); // a class never matches a separator
  });

  it('dot files only match a pattern that spells the dot', () => {
    expect(m('*.glb', '.hidden.glb')).toBe(false);
    expect(m('**/*.glb', '.cache/x.glb')).toBe(false);
    expect(m('.cache/*.glb', '.cache/x.glb')).toBe(true);
  });

  it('treats regular-expression characters and escapes literally', () => {
    expect(m('a+b(1).glb', 'a+b(1).glb')).toBe(true);
    expect(m('a.glb', 'aXglb')).toBe(false);
    expect(m('\\*.glb', '*.glb')).toBe(true);
    expect(m('\\*.glb', 'x.glb')).toBe(false);
    expect(m('./props/x.glb', 'props/x.glb')).toBe(true);
  });

  it('matches hostile patterns in polynomial time (a backtracking regex would not finish)', () => {
    const hostile = compileGlob('**/**/**/**/**/**/**/*a*a*a*a*a*a*a*a*a*a*b');
    expect(hostile('a/'.repeat(30) + 'a'.repeat(60))).toBe(false);
    expect(hostile('a/'.repeat(30) + 'a'.repeat(60) + 'b')).toBe(true);
  });

  it('refuses a pattern whose braces expand past the limit', () => {
    expect(() => compileGlob('{a,b}'.repeat(13))).toThrow(new RegExp(String(MAX_ALTERNATIVES)));
  });
});

describe('helpers', () => {
  it('isGlob, globBase and globMatcher', () => {
    expect(isGlob('props/chair.glb')).toBe(false);
    expect(isGlob('props/*.glb')).toBe(true);
    expect(isGlob('props/\\*.glb')).toBe(false);
    expect(globBase('props/chairs/**/*.glb')).toBe('props/chairs');
    expect(globBase('*.glb')).toBe('');
    expect(globBase('a/{b,c}/x.glb')).toBe('a');
    const match = globMatcher(['a/*.glb', 'b/**/*.gltf']);
    expect(match('a/x.glb')).toBe(true);
    expect(match('b/c/x.gltf')).toBe(true);
    expect(match('b/x.glb')).toBe(false);
    expect(globMatcher([])('x')).toBe(false);
  });
});
