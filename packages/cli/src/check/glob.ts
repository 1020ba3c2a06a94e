/**
 * Glob patterns for budget rules and `slmesh check` arguments, compiled to regular expressions
 * over POSIX-style relative paths (`props/chairs/oak.glb`).
 *
 * Supported: `**` (any number of whole path segments), `*` (any characters but `/`), `?` (one
 * character but `/`), `{a,b}` alternatives (nested, and with empty members), `[abc]`, `[a-z]`,
 * `[!a]` / `[^a]` character classes, and `\` to escape the next character. Like picomatch and
 * git, a `*`, `?`, class or `**` never matches a segment starting with `.` unless the pattern
 * spells the dot itself (`.hidden/*.glb`).
 *
 * No regular expressions: a segment is matched by the classic wildcard algorithm (backtrack to
 * the last `*` only, O(n*m)) and `**` by memoised matching over segments, so no pattern can
 * make matching take exponential time (a regex like `[^/]*a[^/]*a[^/]*b` can).
 */

/** True when the string has any glob syntax (otherwise it names one path). */
export function isGlob(pattern: string): boolean {
  return /[*?[\]{}]/.test(pattern.replace(/\\./g, ''));
}

/** A literal path segment as a glob that matches exactly it: every glob character escaped. */
export function escapeGlob(segment: string): string {
  return segment.replace(/[\\*?[\]{}!,]/g, (c) => `\\${c}`);
}

/** `./a/b` and `a//b` become `a/b`; backslash stays an escape. */
export function normalizePattern(pattern: string): string {
  let p = pattern.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/**
 * Expands `{a,b}` alternatives into separate patterns (`x.{glb,gltf}` -> `x.glb`, `x.gltf`),
 * nested braces included. A brace without a comma, or unbalanced, is literal.
 */
export function expandBraces(pattern: string): string[] {
  // 1. Find the first top-level `{` that has a matching `}` with a top-level comma inside.
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      if (end > 0) i = end;
      continue;
    }
    if (c !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = i; j < pattern.length; j++) {
      const d = pattern[j];
      if (d === '\\') {
        j++;
        continue;
      }
      if (d === '[') {
        const end = classEnd(pattern, j);
        if (end > 0) j = end;
        continue;
      }
      if (d === '{') depth++;
      else if (d === '}') {
        depth--;
        if (depth === 0) {
          close = j;
          break;
        }
      } else if (d === ',' && depth === 1) commas.push(j);
    }
    if (close < 0) return [pattern];
    if (commas.length === 0) continue;
    // 2. Split the alternatives and expand each result again (later braces, nested ones).
    const head = pattern.slice(0, i);
    const tail = pattern.slice(close + 1);
    const bounds = [i, ...commas, close];
    const out: string[] = [];
    for (let k = 0; k + 1 < bounds.length; k++) {
      out.push(...expandBraces(head + pattern.slice(bounds[k] + 1, bounds[k + 1]) + tail));
      if (out.length > MAX_ALTERNATIVES)
        throw new Error(
          `glob "${pattern.length > 60 ? `${pattern.slice(0, 60)}...` : pattern}" expands to more than ${MAX_ALTERNATIVES} alternatives`,
        );
    }
    return out;
  }
  return [pattern];
}

/** Index of the `]` closing a class opened at `start`, or -1 when it is not a class. */
function classEnd(p: string, start: number): number {
  let j = start + 1;
  if (p[j] === '!' || p[j] === '^') j++;
  if (p[j] === ']') j++; // a leading `]` is a member
  for (; j < p.length; j++) {
    if (p[j] === '\\') {
      j++;
      continue;
    }
    if (p[j] === '/') return -1;
    if (p[j] === ']') return j;
  }
  return -1;
}

type Token =
  | { kind: 'char'; c: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negate: boolean; test: (c: string) => boolean };
type Segment = { globstar: true } | { globstar: false; tokens: Token[]; literalDot: boolean };

/** The most alternatives a pattern's braces may expand to. */
export const MAX_ALTERNATIVES = 4096;

function classTest(body: string): (c: string) => boolean {
  const ranges: [string, string][] = [];
  const chars = new Set<string>();
  const items: string[] = [];
  for (let i = 0; i < body.length; i++) items.push(body[i] === '\\' && i + 1 < body.length ? body[++i] : body[i]);
  for (let i = 0; i < items.length; i++) {
    if (items[i + 1] === '-' && i + 2 < items.length) {
      ranges.push([items[i], items[i + 2]]);
      i += 2;
    } else chars.add(items[i]);
  }
  return (c) => chars.has(c) || ranges.some(([lo, hi]) => c >= lo && c <= hi);
}

function compileSegment(seg: string): Segment {
  if (seg === '**') return { globstar: true };
  const tokens: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '\\') {
      if (i + 1 < seg.length) tokens.push({ kind: 'char', c: seg[++i] });
    } else if (c === '*') {
      while (seg[i + 1] === '*') i++;
      tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && classEnd(seg, i) > 0) {
      const end = classEnd(seg, i);
      let body = seg.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      tokens.push({ kind: 'class', negate, test: classTest(body) });
      i = end;
    } else tokens.push({ kind: 'char', c });
  }
  return { globstar: false, tokens, literalDot: tokens[0]?.kind === 'char' && tokens[0].c === '.' };
}

function tokenMatches(t: Token, c: string): boolean {
  if (t.kind === 'char') return t.c === c;
  if (t.kind === 'any') return true;
  if (t.kind === 'class') return t.test(c) !== t.negate;
  return false;
}

/** One segment: the classic wildcard match, backtracking only to the last `*` (O(n*m)). */
function matchSegment(seg: Exclude<Segment, { globstar: true }>, s: string): boolean {
  if (s.startsWith('.') && !seg.literalDot) return false;
  const t = seg.tokens;
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < s.length) {
    if (i < t.length && t[i].kind !== 'star' && tokenMatches(t[i], s[j])) {
      i++;
      j++;
    } else if (i < t.length && t[i].kind === 'star') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < t.length && t[i].kind === 'star') i++;
  return i === t.length;
}

/** Whole path: `**` takes zero or more segments (none starting with a dot); memoised, O(P*S). */
function matchPath(segs: Segment[], parts: string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    if (i === segs.length) return j === parts.length;
    const key = i * (parts.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const seg = segs[i];
    let ok: boolean;
    if (seg.globstar) ok = go(i + 1, j) || (j < parts.length && !parts[j].startsWith('.') && go(i, j + 1));
    else ok = j < parts.length && matchSegment(seg, parts[j]) && go(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

function compilePattern(pattern: string): Segment[] {
  const segs: Segment[] = [];
  for (const part of pattern.split('/')) {
    const seg = compileSegment(part);
    if (seg.globstar && segs.length && segs[segs.length - 1].globstar) continue; // **/** is **
    segs.push(seg);
  }
  return segs;
}

/** Compiles a glob into a test of a whole POSIX path. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const alternatives = expandBraces(normalizePattern(pattern));
  const compiled = alternatives.map(compilePattern);
  return (path) => {
    const parts = path.split('/');
    return compiled.some((segs) => matchPath(segs, parts));
  };
}

/** A matcher for any of several globs. */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const tests = patterns.map(compileGlob);
  return (path) => tests.some((t) => t(path));
}

/**
 * The leading segments of a glob that have no glob syntax: the folder a search can start from
 * (`props/chairs/**\/*.glb` -> `props/chairs`; `*.glb` -> ``).
 */
export function globBase(pattern: string): string {
  const segs = normalizePattern(pattern).split('/');
  const base: string[] = [];
  for (let i = 0; i < segs.length - 1; i++) {
    if (isGlob(segs[i]) || segs[i].includes('\\')) break;
    base.push(segs[i]);
  }
  return base.join('/');
}
