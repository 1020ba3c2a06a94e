/**
 * Issue #13, "a gate nobody can blind, spoof or use to read the CI machine": files from a pull
 * request through every command, tried as an attacker and as a careless contributor would.
 *
 * Every run has a canary secret in its environment and a canary file just outside the model's
 * folder; no byte of either may appear in any output or message. Every run must end with exit
 * 0, 1 or 2 (never 70, never a stack trace), a refusal must be one clean line, and nothing the
 * user did not name may be overwritten. Symbolic links are built in the test's own temporary
 * folder. Process timeouts are a safety net only: the bounds are asserted by counts.
 */

import { execFile, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const base = mkdtempSync(join(tmpdir(), 'slmesh-hostile-fs-'));
const CANARY = 'canary-7f3e9b2d-SECRET';
const outside = join(base, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, 'secret.bin'), `${CANARY}\n`.repeat(64));
writeFileSync(join(outside, 'secret.json'), `{"rules": [{"files": "${CANARY}", "maxLandImpact": "${CANARY}"}]}`);

let n = 0;
/** A fresh folder for one case. */
function folder(): string {
  const d = join(base, `case-${n++}`);
  mkdirSync(d, { recursive: true });
  return d;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** How every slmesh run here is started: the canary in its environment, bounded in time and output. */
const runOptions = (cwd: string) =>
  ({
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, SLMESH_CANARY_SECRET: CANARY },
  }) as const;

/** Writes `budget` as the folder's slmesh.budget.json. */
function writeBudget(dir: string, budget: object): void {
  writeFileSync(join(dir, 'slmesh.budget.json'), JSON.stringify(budget));
}

function slmesh(cwd: string, ...args: string[]): Run {
  const r = spawnSync(process.execPath, [bin, ...args], { ...runOptions(cwd), input: '' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * slmesh without blocking this test worker: a run of half a minute or more in spawnSync starves
 * vitest's RPC with the main process ("Timeout calling onTaskUpdate" fails the whole run).
 */
function slmeshAsync(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [bin, ...args], runOptions(cwd), (error, stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      done({ status: error ? (typeof code === 'number' ? code : null) : 0, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** Every file below `dir`, read (for the canary). */
function allOutput(dir: string): string {
  let s = '';
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    s += readFileSync(p, 'latin1');
  }
  return s;
}

/** The promises every run keeps. */
function clean(r: Run, dir?: string): void {
  expect([0, 1, 2], r.stderr).toContain(r.status);
  expect(r.stdout + r.stderr).not.toContain(CANARY);
  expect(r.stdout + r.stderr).not.toContain('root:x:0:0');
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  if (dir) expect(allOutput(dir)).not.toContain(CANARY);
}

/** Exit 2 with exactly one line matching `re`, nothing on stdout. */
function refused(r: Run, re: RegExp, dir?: string): void {
  clean(r, dir);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^slmesh: /);
  expect(lines[0]).toMatch(re);
}

interface TriOptions {
  buffer?: string;
  image?: string;
  normals?: number[];
  uvs?: number[];
  name?: string;
  extra?: (j: Record<string, any>) => void;
}

/** A one-triangle .gltf with its buffer in `buffer.bin` (or `buffer` as the uri). */
function triGltf(dir: string, file: string, o: TriOptions = {}): string {
  const pos = [0, 0, 0, 1, 0, 0, 0, 1, 0];
  const floats = [...pos, ...(o.normals ?? []), ...(o.uvs ?? [])];
  const data = Buffer.from(new Float32Array(floats).buffer);
  if (!o.buffer) writeFileSync(join(dir, 'buffer.bin'), data);
  const attributes: Record<string, number> = { POSITION: 0 };
  const accessors: any[] = [
    { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
  ];
  const bufferViews: any[] = [{ buffer: 0, byteOffset: 0, byteLength: 36 }];
  if (o.normals) {
    attributes.NORMAL = accessors.length;
    accessors.push({ bufferView: bufferViews.length, componentType: 5126, count: 3, type: 'VEC3' });
    bufferViews.push({ buffer: 0, byteOffset: 36, byteLength: 36 });
  }
  if (o.uvs) {
    attributes.TEXCOORD_0 = accessors.length;
    accessors.push({ bufferView: bufferViews.length, componentType: 5126, count: 3, type: 'VEC2' });
    bufferViews.push({ buffer: 0, byteOffset: 36 + (o.normals ? 36 : 0), byteLength: 24 });
  }
  const json: Record<string, any> = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: o.name ?? 'Tri', mesh: 0 }],
    meshes: [{ primitives: [{ attributes, ...(o.image ? { material: 0 } : {}) }] }],
    accessors,
    bufferViews,
    buffers: [{ uri: o.buffer ?? 'buffer.bin', byteLength: data.length }],
  };
  if (o.image) {
    json.images = [{ uri: o.image }];
    json.textures = [{ source: 0 }];
    json.materials = [{ name: 'm', pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
  }
  o.extra?.(json);
  writeFileSync(join(dir, file), JSON.stringify(json));
  return file;
}

describe('symbolic links and hidden files: nothing outside the model folder is read', () => {
  it('a buffer linked to a file outside is refused, not priced', () => {
    const d = folder();
    symlinkSync(join(outside, 'secret.bin'), join(d, 'evil.bin'));
    triGltf(d, 'm.gltf', { buffer: 'evil.bin' });
    refused(
      slmesh(d, 'cost', 'm.gltf'),
      /m\.gltf: buffers\[0\]\.uri "evil\.bin": resolves .* outside the model's folder/,
    );
    refused(slmesh(d, 'optimize', 'm.gltf', '-o', 'out.glb'), /outside the model's folder/, d);
    expect(existsSync(join(d, 'out.glb'))).toBe(false);
  });

  it('a buffer linked to /dev/zero, /dev/stdin or /etc/passwd ends at once with exit 2', () => {
    for (const target of ['/dev/zero', '/dev/stdin', '/etc/passwd']) {
      const d = folder();
      symlinkSync(target, join(d, 'b.bin'));
      triGltf(d, 'm.gltf', { buffer: 'b.bin' });
      refused(slmesh(d, 'cost', 'm.gltf'), /outside the model's folder|not a regular file|no such file/);
    }
  });

  it('a device inside the folder (a FIFO) is never opened for reading', () => {
    const d = folder();
    const r = spawnSync('mkfifo', [join(d, 'fifo.bin')]);
    if (r.status !== 0) return; // no mkfifo here
    triGltf(d, 'm.gltf', { buffer: 'fifo.bin' });
    refused(slmesh(d, 'cost', 'm.gltf'), /not a regular file/);
  });

  it('an image linked to /proc/self/environ is not read by cost and refused by optimize', () => {
    const d = folder();
    symlinkSync('/proc/self/environ', join(d, 'albedo.png'));
    triGltf(d, 'm.gltf', { image: 'albedo.png' });
    const cost = slmesh(d, 'cost', 'm.gltf', '--json');
    clean(cost);
    expect(cost.status, cost.stderr).toBe(0);
    refused(slmesh(d, 'optimize', 'm.gltf', '-o', 'out.glb'), /images\[0\]\.uri "albedo\.png": resolves .* outside/, d);
    expect(existsSync(join(d, 'out.glb'))).toBe(false);
  });

  it('an image inside the folder is copied by optimize', () => {
    const d = folder();
    writeFileSync(join(d, 'albedo.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    triGltf(d, 'm.gltf', { image: 'albedo.png' });
    const r = slmesh(d, 'optimize', 'm.gltf', '-o', 'out.glb');
    clean(r, d);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(d, 'out.glb')).includes(Buffer.from('89504e470d0a1a0a', 'hex'))).toBe(true);
  });

  it('a folder linked out of the model folder (sub -> outside) is refused', () => {
    const d = folder();
    symlinkSync(outside, join(d, 'sub'));
    triGltf(d, 'm.gltf', { buffer: 'sub/secret.bin' });
    refused(slmesh(d, 'cost', 'm.gltf'), /outside the model's folder/);
  });

  it('a model that is a link out of its folder is refused, through cost and check', () => {
    const d = folder();
    const o = folder();
    triGltf(o, 'real.gltf');
    copyFileSync(join(root, 'test-assets/cube.glb'), join(o, 'real.glb'));
    symlinkSync(join(o, 'real.glb'), join(d, 'link.glb'));
    refused(slmesh(d, 'cost', 'link.glb'), /link\.glb: resolves .* outside/);
    writeBudget(d, { rules: [{ files: '**/*.glb', maxLandImpact: 100 }] });
    refused(slmesh(d, 'check'), /link\.glb: resolves .* outside/);
  });

  it('a _LOD2 sibling that links out of the folder is an error, not skipped', () => {
    const d = folder();
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'chair.glb'));
    symlinkSync(join(outside, 'secret.bin'), join(d, 'chair_LOD2.glb'));
    refused(slmesh(d, 'cost', 'chair.glb'), /chair_LOD2\.glb: resolves .* outside/);
  });

  it('.git/config (a CI token lives there) is never a resource, link or no link', () => {
    const d = folder();
    mkdirSync(join(d, '.git'));
    writeFileSync(join(d, '.git/config'), `[http]\n\textraheader = AUTHORIZATION: basic ${CANARY}\n`.padEnd(64, ' '));
    triGltf(d, 'a.gltf', { image: '.git/config' });
    refused(slmesh(d, 'optimize', 'a.gltf', '-o', 'out.glb'), /hidden/);
    expect(existsSync(join(d, 'out.glb'))).toBe(false);
    triGltf(d, 'b.gltf', { buffer: '.git/config' });
    refused(slmesh(d, 'cost', 'b.gltf'), /hidden/);
    symlinkSync('.git/config', join(d, 'c.bin'));
    triGltf(d, 'c.gltf', { buffer: 'c.bin' });
    refused(slmesh(d, 'cost', 'c.gltf'), /hidden/);
  });
});

describe('input that cannot be decoded in full is an error, not an empty model', () => {
  it('invalid base64 in a data: URI', () => {
    const d = folder();
    triGltf(d, 'm.gltf', { extra: (j) => (j.buffers[0].uri = 'data:application/octet-stream;base64,!!!!AAAA') });
    refused(slmesh(d, 'cost', 'm.gltf'), /invalid base64/);
  });

  it('a .bin shorter than its byteLength', () => {
    const d = folder();
    triGltf(d, 'm.gltf');
    writeFileSync(join(d, 'buffer.bin'), Buffer.alloc(10));
    refused(slmesh(d, 'cost', 'm.gltf'), /declares 36 bytes but has 10/);
  });

  it('NaN normals and NaN UVs', () => {
    const d = folder();
    triGltf(d, 'n.gltf', { normals: [0, 0, 1, NaN, 0, 1, 0, 0, 1] });
    refused(slmesh(d, 'cost', 'n.gltf'), /normal is NaN or infinite/);
    const e = folder();
    triGltf(e, 'u.gltf', { uvs: [0, 0, Infinity, 0, 0, 1] });
    refused(slmesh(e, 'cost', 'u.gltf'), /texture coordinate .* NaN or infinite/);
  });

  it('limits count triangles: a strip of n indices is n - 2 triangles', () => {
    const d = folder();
    const count = 102; // 100 triangles as a strip; 34 if counted as indices / 3
    const pos: number[] = [];
    for (let i = 0; i < count; i++) pos.push(i >> 1, i & 1, 0);
    writeFileSync(join(d, 'strip.bin'), Buffer.from(new Float32Array(pos).buffer));
    const json = {
      asset: { version: '2.0' },
      scene: 0,
      scenes: [{ nodes: [0] }],
      nodes: [{ name: 'Strip', mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, mode: 5 }] }],
      accessors: [{ bufferView: 0, componentType: 5126, count, type: 'VEC3' }],
      bufferViews: [{ buffer: 0, byteLength: count * 12 }],
      buffers: [{ uri: 'strip.bin', byteLength: count * 12 }],
    };
    writeFileSync(join(d, 'strip.gltf'), JSON.stringify(json));
    refused(slmesh(d, 'cost', 'strip.gltf', '--max-triangles', '50'), /more than 50 triangles/);
    expect(slmesh(d, 'cost', 'strip.gltf', '--max-triangles', '100').status).toBe(0);
  });
});

describe('bounded work on tiny hostile inputs', () => {
  it('thousands of nodes with one name: linear naming, every object priced', () => {
    const d = folder();
    const nodes = 3000;
    triGltf(d, 'm.gltf', {
      extra: (j) => {
        j.nodes = Array.from({ length: nodes }, () => ({ name: 'Same', mesh: 0 }));
        j.scenes[0].nodes = j.nodes.map((_: unknown, i: number) => i);
      },
    });
    const r = slmesh(d, 'cost', 'm.gltf', '--json');
    clean(r);
    expect(r.status, r.stderr).toBe(0);
    const names = JSON.parse(r.stdout).files[0].objects.map((o: { name: string }) => o.name);
    expect(new Set(names).size).toBe(nodes);
    expect(names).toContain(`Same_copy_${nodes - 1}`);
  });

  it('a 10,000-level chain of nodes is read without recursion', () => {
    const d = folder();
    const depth = 10_000;
    triGltf(d, 'm.gltf', {
      extra: (j) => {
        j.nodes = Array.from({ length: depth }, (_, i) =>
          i < depth - 1 ? { name: `n${i}`, children: [i + 1], translation: [0.0001, 0, 0] } : { name: 'Leaf', mesh: 0 },
        );
      },
    });
    const r = slmesh(d, 'cost', 'm.gltf', '--json');
    clean(r);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).files[0].objects[0].name).toBe('Leaf');
  });

  it('optimize refuses a model over its triangle limit with a clear line', () => {
    const d = folder();
    refused(
      slmesh(d, 'optimize', join(root, 'test-assets/suzanne.glb'), '-o', 'out.glb', '--max-triangles', '10'),
      /suzanne\.glb: more than 10 triangles/,
    );
  });
});

describe('budgets and baselines from a pull request', () => {
  function withModel(d: string): void {
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'cube.glb'));
  }

  it('a diamond of extends is read once per file', () => {
    const d = folder();
    withModel(d);
    const levels = 30; // 2^30 paths, 61 files
    for (let i = 0; i < levels; i++) {
      const next = i + 1 < levels ? [`a${i + 1}.json`, `b${i + 1}.json`] : undefined;
      for (const side of ['a', 'b'])
        writeFileSync(
          join(d, `${side}${i}.json`),
          JSON.stringify(next ? { extends: next, rules: [] } : { rules: [{ files: '**/*.glb', maxLandImpact: 100 }] }),
        );
    }
    writeBudget(d, { extends: ['a0.json', 'b0.json'] });
    const r = slmesh(d, 'check');
    clean(r);
    // 61 files are over the 64-file limit? No: 60 + the top one; within it, and read once each.
    expect(r.status, r.stderr).toBe(0);
  });

  it('more extended files than the limit is one clear line', () => {
    const d = folder();
    withModel(d);
    for (let i = 0; i < 100; i++)
      writeFileSync(
        join(d, `c${i}.json`),
        JSON.stringify(i < 99 ? { extends: `c${i + 1}.json`, rules: [] } : { rules: [{ files: '*.glb' }] }),
      );
    writeBudget(d, { extends: 'c0.json' });
    refused(slmesh(d, 'check'), /slmesh\.budget\.json: extends more than 64 budget files \(the limit\)/);
  });

  it('2,000 rules of 4,096 brace alternatives stop at the alternatives limit', () => {
    const d = folder();
    withModel(d);
    const glob = `${'{a,b}'.repeat(12)}*.glb`;
    writeBudget(d, { rules: Array.from({ length: 2000 }, () => ({ files: glob })) });
    refused(slmesh(d, 'check'), /slmesh\.budget\.json: its globs expand to more than 20000 alternatives \(the limit/);
  });

  it('a budget or an extends that links out (or is absolute) is refused without quoting it', () => {
    const d = folder();
    withModel(d);
    symlinkSync(join(outside, 'secret.json'), join(d, 'slmesh.budget.json'));
    refused(slmesh(d, 'check'), /slmesh\.budget\.json: resolves .* outside/);
    const e = folder();
    withModel(e);
    mkdirSync(join(e, '.git'));
    symlinkSync(join(outside, 'secret.json'), join(e, 'base.json'));
    writeBudget(e, { extends: 'base.json' });
    refused(slmesh(e, 'check'), /extends "base\.json": resolves .* outside the repository/);
    writeBudget(e, { extends: join(outside, 'secret.json') });
    refused(slmesh(e, 'check'), /outside the repository/);
    writeBudget(e, { extends: '/etc/passwd' });
    refused(slmesh(e, 'check'), /outside the repository/);
  });

  it('a budget that is not JSON is refused without quoting its text', () => {
    const d = folder();
    withModel(d);
    writeFileSync(join(d, 'slmesh.budget.json'), `root:x:0:0:${CANARY}`);
    refused(slmesh(d, 'check'), /slmesh\.budget\.json: not valid JSON/);
  });

  it('a baseline with 1e999 is refused; one with 200k removed assets is tabled', async () => {
    const d = folder();
    withModel(d);
    writeBudget(d, { rules: [{ files: '**/*.glb', maxLandImpact: 100 }] });
    const file = (path: string, li: string) =>
      `{"path":${JSON.stringify(path)},"linkset":{"landImpact":${li},"streaming":1,"physics":1,"server":1,"prims":1},"objects":[]}`;
    writeFileSync(join(d, 'inf.json'), `{"generator":{"name":"slmesh"},"files":[${file('cube.glb', '1e999')}]}`);
    refused(
      slmesh(d, 'check', '--baseline', 'inf.json'),
      /inf\.json: files\[0\]\.linkset\.landImpact: must be a finite number/,
    );
    // Besides 200,000 removed assets: one still on disk but ignored (not checked, not removed),
    // an ignored dangling link (removed: nothing there) and a file where a folder was (removed).
    mkdirSync(join(d, 'wip'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'wip/kept.glb'));
    symlinkSync(join(d, 'nowhere.glb'), join(d, 'wip/dangling.glb'));
    writeFileSync(join(d, 'notafolder'), 'x');
    writeBudget(d, { ignore: 'wip/**', rules: [{ files: '**/*.glb', maxLandImpact: 100 }] });
    const many = Array.from({ length: 200_000 }, (_, i) => file(`gone/${i}.glb`, '1'));
    for (const p of ['wip/kept.glb', 'wip/dangling.glb', 'notafolder/x.glb']) many.push(file(p, '1'));
    writeFileSync(join(d, 'many.json'), `{"generator":{"name":"slmesh"},"files":[${many.join(',')}]}`);
    const r = await slmeshAsync(d, 'check', '--baseline', 'many.json', '--max-increase', '1000');
    clean(r);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/gone\/199999\.glb: removed/);
    expect(r.stdout).toMatch(/wip\/dangling\.glb: removed/);
    expect(r.stdout).toMatch(/notafolder\/x\.glb: removed/);
    expect(r.stdout).not.toMatch(/kept\.glb/);
    expect(r.stdout.match(/: removed/g)?.length).toBe(200_002);
  });
});

describe('the gate cannot be blinded or spoofed', () => {
  it('plain `slmesh check` judges every model below the budget, any letter case; no rule = failure', () => {
    const d = folder();
    mkdirSync(join(d, 'props'));
    mkdirSync(join(d, 'newfolder'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'props/cube.glb'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'newfolder/SHOUT.GLB'));
    writeBudget(d, { rules: [{ files: 'props/*.glb', maxLandImpact: 100 }] });
    const r = slmesh(d, 'check');
    clean(r);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/newfolder\/SHOUT\.GLB\s+\(none\).*NO RULE/);
  });

  it(".gitignore and the budget's ignore are respected", () => {
    const d = folder();
    mkdirSync(join(d, 'build'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'cube.glb'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'build/generated.glb'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'wip.glb'));
    writeFileSync(join(d, '.gitignore'), '# outputs\nbuild/\n');
    writeBudget(d, { ignore: 'wip.glb', rules: [{ files: 'cube.glb', maxLandImpact: 100 }] });
    const r = slmesh(d, 'check');
    clean(r);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/generated|wip/);
  });

  it('init writes globs that match folders such as props[1] and a{b,c} literally', () => {
    const d = folder();
    for (const f of ['props[1]', 'a{b,c}']) {
      mkdirSync(join(d, f));
      copyFileSync(join(root, 'test-assets/cube.glb'), join(d, f, 'cube.glb'));
    }
    const init = slmesh(d, 'init');
    clean(init);
    expect(init.status, init.stderr).toBe(0);
    const r = slmesh(d, 'check');
    clean(r);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/props\[1\]\/cube\.glb\s+props\[1\]\s/);
    expect(r.stdout).toMatch(/a\{b,c\}\/cube\.glb\s+a\{b,c\}\s/);
  });

  it('no output line can start a GitHub workflow command; control characters never reach a line', () => {
    const d = folder();
    triGltf(d, 'm.gltf', { name: '::stop-commands::pwned' });
    const cost = slmesh(d, 'cost', 'm.gltf');
    clean(cost);
    expect(cost.stdout).not.toMatch(/^\s*::/m);
    const bad = `bad\u001b[2J\rname.gltf`;
    writeFileSync(join(d, bad), 'not json');
    const r = slmesh(d, 'cost', bad);
    refused(r, /not a glTF/);
    writeBudget(d, { rules: [{ files: '*.gltf', maxLandImpact: 0 }] });
    const check = slmesh(d, 'check', 'm.gltf', '--format', 'github');
    clean(check);
    expect(check.status).toBe(1);
    for (const line of check.stdout.trimEnd().split('\n'))
      expect(line).toMatch(/^(::error file=m\.gltf,title=[^:]*::|slmesh check: )/);
    const table = slmesh(d, 'check', 'm.gltf');
    expect(table.stdout).not.toMatch(/^\s*::/m);
  });
});

describe('outputs: nothing overwritten the user did not name; every file-system error is exit 2', () => {
  it('optimize IN -o IN and a read-only output are refused, untouched', () => {
    const d = folder();
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'in.glb'));
    const before = readFileSync(join(d, 'in.glb'));
    refused(slmesh(d, 'optimize', 'in.glb', '-o', 'in.glb'), /in\.glb: is the input/);
    refused(slmesh(d, 'optimize', 'in.glb', '-o', './sub/../in.glb'), /is the input/);
    expect(readFileSync(join(d, 'in.glb')).equals(before)).toBe(true);
    writeFileSync(join(d, 'ro.glb'), 'keep');
    chmodSync(join(d, 'ro.glb'), 0o444);
    refused(slmesh(d, 'optimize', 'in.glb', '-o', 'ro.glb'), /ro\.glb: is read-only/);
    expect(readFileSync(join(d, 'ro.glb'), 'utf8')).toBe('keep');
  });

  it('a folder, a file as parent, --emit-asset FILE, --format json=DIR, --report DIR: one line, exit 2', () => {
    const d = folder();
    copyFileSync(join(root, 'test-assets/cube.glb'), join(d, 'in.glb'));
    mkdirSync(join(d, 'dir.glb'));
    mkdirSync(join(d, 'dir.json'));
    writeFileSync(join(d, 'file'), 'x');
    refused(slmesh(d, 'optimize', 'in.glb', '-o', 'dir.glb'), /dir\.glb: is a folder/);
    refused(slmesh(d, 'optimize', 'in.glb', '-o', 'file/out.glb'), /file\/out\.glb: cannot write/);
    refused(slmesh(d, 'optimize', 'in.glb', '-o', 'ok.glb', '--report', 'dir.json'), /dir\.json: is a folder/);
    expect(existsSync(join(d, 'ok.glb'))).toBe(false);
    refused(slmesh(d, 'cost', 'in.glb', '--emit-asset', 'file'), /cannot write/);
    writeBudget(d, { rules: [{ files: '*.glb', maxLandImpact: 100 }] });
    refused(slmesh(d, 'check', 'in.glb', '--format', 'json=dir.json'), /dir\.json: is a folder/);
    expect(statSync(join(d, 'dir.json')).isDirectory()).toBe(true);
  });

  it('optimize says what it drops: a skin', () => {
    const d = folder();
    triGltf(d, 'rig.gltf', {
      extra: (j) => {
        j.nodes.push({ name: 'Bone' });
        j.nodes[0].skin = 0;
        j.skins = [{ joints: [1] }];
        j.scenes[0].nodes = [0, 1];
      },
    });
    const r = slmesh(d, 'optimize', 'rig.gltf', '-o', 'out.glb');
    clean(r, d);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*a skin \(rig\); dropped/);
  });

  it('optimize says what it drops: morph targets and GPU instances', () => {
    const d = folder();
    triGltf(d, 'morph.gltf', {
      extra: (j) => {
        j.meshes[0].primitives[0].targets = [{ POSITION: 0 }];
        j.extensionsUsed = ['EXT_mesh_gpu_instancing'];
        j.nodes[0].extensions = { EXT_mesh_gpu_instancing: { attributes: { TRANSLATION: 0 } } };
      },
    });
    const r = slmesh(d, 'optimize', 'morph.gltf', '-o', 'out.glb');
    clean(r, d);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*morph targets; dropped/);
    expect(r.stderr).toMatch(/warning: .*GPU instances .*; dropped/);
  });

  it('the default optimize of a model over 2,000,000 triangles is refused at once, naming the limit', () => {
    const d = folder();
    const count = 2_000_010; // a strip: 2,000,008 triangles
    const pos = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) pos.set([i >> 1, i & 1, 0], i * 3);
    writeFileSync(join(d, 'big.bin'), Buffer.from(pos.buffer));
    writeFileSync(
      join(d, 'big.gltf'),
      JSON.stringify({
        asset: { version: '2.0' },
        scene: 0,
        scenes: [{ nodes: [0] }],
        nodes: [{ name: 'Big', mesh: 0 }],
        meshes: [{ primitives: [{ attributes: { POSITION: 0 }, mode: 5 }] }],
        accessors: [{ bufferView: 0, componentType: 5126, count, type: 'VEC3' }],
        bufferViews: [{ buffer: 0, byteLength: count * 12 }],
        buffers: [{ uri: 'big.bin', byteLength: count * 12 }],
      }),
    );
    refused(
      slmesh(d, 'optimize', 'big.gltf', '-o', 'out.glb'),
      /big\.gltf: more than 2,000,000 triangles \(the limit; raise it with --max-triangles\)/,
    );
    expect(existsSync(join(d, 'out.glb'))).toBe(false);
  });

  it('a reader that goes away (| head) ends quietly', () => {
    const d = folder();
    const r = spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${bin}" cost "${join(root, 'test-assets/prims-300.glb')}" | head -c 10 >/dev/null; echo "status $?"`,
      ],
      { cwd: d, encoding: 'utf8', timeout: 180_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('status 0');
  });
});
