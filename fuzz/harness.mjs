/**
 * Fuzz harness: seeded mutations of the bundled test assets, run through slmesh commands as a
 * user runs them (a child process each, with a timeout). Every case must end with success or
 * a clean error: exit 0/1/2, at most one line on stderr for an error, no "internal error", no
 * stack trace, no hang past the timeout, and no output files left behind when it fails. Each
 * case runs with a canary secret in its environment, in a folder planted with symbolic links
 * out of it (to /etc/passwd, /proc/self/environ, /dev/zero, /) and a `.git/config` holding the
 * canary: no byte of any of them may appear in an output or a message (docs/security.md).
 *
 * Used by packages/cli/test/fuzz.test.ts (a bounded number of cases in CI) and by `pnpm fuzz`
 * (longer runs; failing inputs are kept in test-assets/fuzz-regressions/ and replayed by tests).
 */

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '@slmesh/core';
import { editGlbJson, glbParts, withGlbJson } from '../scripts/glb-json.mjs';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const bin = join(root, 'packages/cli/dist/bin.js');

const rng = mulberry32;

export function seedAssets() {
  const dir = join(root, 'test-assets');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.glb') && !/_(LOD\d|PHYS)\.glb$/.test(f) && statSize(join(dir, f)) < 64 * 1024)
    .map((f) => join(dir, f));
}

function statSize(p) {
  return readFileSync(p).length;
}

/** editGlbJson with the case's PRNG passed on to `edit`. */
function editJson(bytes, r, edit) {
  return editGlbJson(bytes, (json) => edit(json, r));
}

const pick = (r, list) => list[Math.floor(r() * list.length)];

/** The mutations: each takes the bytes and a PRNG and returns new bytes. */
export const MUTATIONS = {
  bitflips(bytes, r) {
    const out = bytes.slice();
    const n = 1 + Math.floor(r() * 16);
    for (let i = 0; i < n; i++) out[Math.floor(r() * out.length)] ^= 1 << Math.floor(r() * 8);
    return out;
  },
  truncate(bytes, r) {
    return bytes.slice(0, Math.floor(r() * bytes.length));
  },
  corruptJson(bytes, r) {
    const { json } = glbParts(bytes);
    const chars = [...json];
    const n = 1 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++)
      chars[Math.floor(r() * chars.length)] = pick(r, ['{', '}', '"', ',', ':', '9', 'x', ']']);
    return withGlbJson(bytes, chars.join(''));
  },
  hugeCount(bytes, r) {
    return editJson(bytes, r, (j) => {
      const a = pick(r, j.accessors ?? [{}]);
      a.count = pick(r, [2 ** 31, 2 ** 24, 1e9, -1, 0, 3.5, (a.count ?? 0) + 1]);
    });
  },
  wrongComponentType(bytes, r) {
    return editJson(bytes, r, (j) => {
      const a = pick(r, j.accessors ?? [{}]);
      if (r() < 0.5) a.componentType = pick(r, [5120, 5121, 5122, 5123, 5125, 5126, 1234]);
      else a.type = pick(r, ['SCALAR', 'VEC2', 'VEC4', 'MAT4', 'BOGUS']);
    });
  },
  badIndices(bytes, r) {
    return editJson(bytes, r, (j) => {
      const m = pick(r, j.meshes ?? [{ primitives: [{}] }]);
      const p = pick(r, m.primitives ?? [{}]);
      p.indices = pick(r, [p.attributes?.POSITION, 999, -1, 'x']);
    });
  },
  badTransform(bytes, r) {
    return editJson(bytes, r, (j) => {
      const n = pick(r, j.nodes ?? [{}]);
      const v = pick(r, [1e39, -1e39, 0, 1e-30, 3e38]);
      n.scale = [v, v, v];
      if (r() < 0.3) n.matrix = [v, 0, 0, 0, 0, v, 0, 0, 0, 0, v, 0, 0, 0, 0, 1];
    });
  },
  hostileUri(bytes, r) {
    return editJson(bytes, r, (j) => {
      const uri = pick(r, [
        '../../../../etc/passwd',
        '/etc/passwd',
        'http://127.0.0.1:1/x.bin',
        'file:///etc/passwd',
        '%2e%2e/%2e%2e/x',
        'data:,',
        'C:\\\\x.bin',
      ]);
      if (r() < 0.5) j.images = [{ uri }];
      else j.buffers = [...(j.buffers ?? []), { uri, byteLength: 4 }];
    });
  },
  linkedUri(bytes, r) {
    return editJson(bytes, r, (j) => {
      const uri = pick(r, LINKS);
      if (r() < 0.5) j.images = [{ uri }];
      else j.buffers = [...(j.buffers ?? []), { uri, byteLength: 4 }];
      if (j.images && !j.textures) j.textures = [{ source: 0 }];
    });
  },
  hostileName(bytes, r) {
    return editJson(bytes, r, (j) => {
      const n = pick(r, j.nodes ?? [{}]);
      n.name = pick(r, [
        '../../x',
        '<script>alert(1)</script>',
        '\u001b[2J',
        'a'.repeat(5000),
        '',
        'x_LOD2',
        'CON',
        '\u0000',
      ]);
    });
  },
};

/** The canary every case's environment and `.git/config` carry. */
export const CANARY = 'slmesh-fuzz-canary-5d1c';
/** Names planted in every case's folder: links out of it, and a hidden file. */
const LINKS = ['l-passwd.bin', 'l-environ.png', 'l-zero.bin', 'l-root/etc/passwd', '.git/config', 'l-git.bin'];

function plantLinks(work) {
  const link = (target, name) => {
    try {
      symlinkSync(target, join(work, name));
    } catch {
      // a platform without symbolic links: the textual checks still run
    }
  };
  link('/etc/passwd', 'l-passwd.bin');
  link('/proc/self/environ', 'l-environ.png');
  link('/dev/zero', 'l-zero.bin');
  link('/', 'l-root');
  mkdirSync(join(work, '.git'));
  writeFileSync(join(work, '.git/config'), `[http] extraheader = AUTHORIZATION: basic ${CANARY}\n`);
  link('.git/config', 'l-git.bin');
}

/** Whether a finished run leaked the canary or a system file into `text`. */
function leaks(text) {
  return text.includes(CANARY) || text.includes('root:x:0:0');
}

export function mutate(bytes, seed) {
  const r = rng(seed);
  const names = Object.keys(MUTATIONS);
  const name = names[Math.floor(r() * names.length)];
  let out = bytes;
  try {
    out = MUTATIONS[name](bytes, r);
  } catch {
    out = MUTATIONS.bitflips(bytes, r);
  }
  return { name, bytes: out };
}

/** The commands each case runs: [args, allowed exit codes, output path or undefined]. */
export function commandsFor(file, work) {
  const cmds = [
    [
      ['cost', file],
      [0, 2],
    ],
    [['cost', '--json', file, '--emit-asset', join(work, 'assets')], [0, 2], join(work, 'assets')],
  ];
  if (existsSync(join(root, 'packages/cli/dist/commands/optimize.js')))
    cmds.push([['optimize', file, '-o', join(work, 'out.glb')], [0, 2], join(work, 'out.glb')]);
  if (existsSync(join(root, 'packages/cli/dist/commands/check.js'))) {
    writeFileSync(
      join(work, 'slmesh.budget.json'),
      JSON.stringify({ rules: [{ files: '**/*.glb', maxLandImpact: 50 }] }),
    );
    cmds.push([
      ['check', file, '--budget', join(work, 'slmesh.budget.json')],
      [0, 1, 2],
    ]);
  }
  return cmds;
}

/** Runs one input through every command; returns the problems found (empty = clean). */
export function runCase(bytes, label, timeoutMs = 30000) {
  const work = mkdtempSync(join(tmpdir(), 'slmesh-fuzz-'));
  const file = join(work, 'case.glb');
  writeFileSync(file, bytes);
  plantLinks(work);
  const problems = [];
  try {
    for (const [args, allowed, output] of commandsFor(file, work)) {
      const r = spawnSync(process.execPath, [bin, ...args], {
        encoding: 'utf8',
        timeout: timeoutMs,
        cwd: work,
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, SLMESH_FUZZ_CANARY: CANARY },
        input: '',
      });
      const what = `${label}: slmesh ${args[0]}`;
      if (leaks(`${r.stdout}${r.stderr}`)) problems.push(`${what}: printed the canary or a system file's bytes`);
      if (output && existsSync(output) && statSync(output).isFile() && leaks(readFileSync(output, 'latin1')))
        problems.push(`${what}: wrote the canary or a system file's bytes into ${output}`);
      if (r.error?.code === 'ETIMEDOUT' || r.signal)
        problems.push(`${what}: hung or was killed (${r.signal ?? r.error?.code})`);
      else if (!allowed.includes(r.status))
        problems.push(`${what}: exit ${r.status}: ${r.stderr.trim().split('\n')[0]}`);
      else if (r.status !== 0) {
        const lines = r.stderr.trim().split('\n');
        if (lines.length !== 1 && r.status === 2) problems.push(`${what}: ${lines.length} lines on stderr`);
        if (/internal error|\n\s+at /.test(r.stderr)) problems.push(`${what}: ${lines[0]}`);
        if (r.status === 2 && output && existsSync(output))
          problems.push(`${what}: left ${output} behind after failing`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return problems;
}

/** Runs `count` seeded cases from `seed`; keeps failing inputs in `keepDir` when given. */
export function fuzz({ count, seed = 1, keepDir, log = () => {} }) {
  const assets = seedAssets();
  const failures = [];
  for (let i = 0; i < count; i++) {
    const s = seed + i;
    const src = assets[s % assets.length];
    const { name, bytes } = mutate(new Uint8Array(readFileSync(src)), s);
    const label = `seed ${s} ${name} of ${src.slice(root.length + 1)}`;
    const problems = runCase(bytes, label);
    if (problems.length) {
      failures.push(...problems);
      if (keepDir) {
        mkdirSync(keepDir, { recursive: true });
        writeFileSync(join(keepDir, `seed-${s}-${name}.glb`), bytes);
      }
    }
    log(`${i + 1}/${count} ${label}: ${problems.length ? 'FAIL' : 'ok'}`);
  }
  return failures;
}
