/**
 * Broken and hostile files through `slmesh cost`: every one ends with exit 2, one line naming
 * the file and the problem, nothing on stdout and no file written. And the same input always
 * gives byte-identical output.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const dir = mkdtempSync(join(tmpdir(), 'slmesh-hostile-'));

function slmesh(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A one-triangle GLB (positions only) built by hand: the container format is simple. */
async function triangleGlb(positions: number[], name = 'Tri'): Promise<Uint8Array> {
  const bin = new Uint8Array(new Float32Array(positions).buffer);
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name, mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: positions.length / 3, type: 'VEC3' }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: bin.length }],
    buffers: [{ byteLength: bin.length }],
  };
  const head = new Uint8Array(20);
  const empty = new Uint8Array(0);
  const glb = editGlbJson(concat(head, empty, chunk(bin, 0x004e4942)), () => undefined, json);
  return glb;
}

function chunk(data: Uint8Array, type: number): Uint8Array {
  const pad = (4 - (data.length % 4)) % 4;
  const out = new Uint8Array(8 + data.length + pad);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length + pad, true);
  v.setUint32(4, type, true);
  out.set(data, 8);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Rewrites the JSON chunk of a GLB (keeping the BIN chunk); `replace` gives the whole JSON. */
function editGlbJson(glb: Uint8Array, edit: (json: any) => void, replace?: unknown): Uint8Array {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLen = v.getUint32(12, true);
  const json = replace ?? JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)));
  edit(json);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = new Uint8Array(text.length + ((4 - (text.length % 4)) % 4)).fill(0x20);
  padded.set(text);
  const rest = glb.subarray(20 + jsonLen);
  const out = concat(glb.subarray(0, 12), chunk(padded, 0x4e4f534a).subarray(0, 8), padded, rest);
  const o = new DataView(out.buffer);
  o.setUint32(0, 0x46546c67, true);
  o.setUint32(4, 2, true);
  o.setUint32(8, out.length, true);
  return out;
}

const cases: Record<string, RegExp> = {};
beforeAll(async () => {
  const ok = await triangleGlb([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  writeFileSync(join(dir, 'ok.glb'), ok);
  writeFileSync(join(dir, 'nan.glb'), await triangleGlb([0, 0, 0, NaN, 0, 0, 0, 1, 0]));
  cases['nan.glb'] = /NaN or infinite/;
  writeFileSync(
    join(dir, 'inf-scale.glb'),
    editGlbJson(ok, (j) => ((j.nodes[0].scale = [1e38, 1e38, 1e38]), (j.nodes[0].translation = [3e38, 0, 0]))),
  );
  cases['inf-scale.glb'] = /infinite or NaN/;
  writeFileSync(
    join(dir, 'overrun.glb'),
    editGlbJson(ok, (j) => (j.accessors[0].count = 1000000)),
  );
  cases['overrun.glb'] = /runs past the end/;
  writeFileSync(
    join(dir, 'huge-count.glb'),
    editGlbJson(ok, (j) => (j.accessors[0].count = 2 ** 40)),
  );
  cases['huge-count.glb'] = /not a sensible count/;
  writeFileSync(
    join(dir, 'bad-component.glb'),
    editGlbJson(ok, (j) => (j.accessors[0].componentType = 9999)),
  );
  cases['bad-component.glb'] = /unknown componentType/;
  writeFileSync(
    join(dir, 'view-overrun.glb'),
    editGlbJson(ok, (j) => (j.bufferViews[0].byteLength = 1e9)),
  );
  cases['view-overrun.glb'] = /runs past the end of buffer|declares/;
  writeFileSync(
    join(dir, 'escape.glb'),
    editGlbJson(ok, (j) => (j.images = [{ uri: '../../etc/passwd' }])),
  );
  cases['escape.glb'] = /outside the model's folder/;
  writeFileSync(
    join(dir, 'http.glb'),
    editGlbJson(ok, (j) => (j.images = [{ uri: 'http://127.0.0.1:9/x.png' }])),
  );
  cases['http.glb'] = /URL scheme/;
  // assimp-testmodels' wrongTypes/badArray.gltf: primitives is not an array.
  writeFileSync(
    join(dir, 'wrong-type.glb'),
    editGlbJson(ok, (j) => (j.meshes[0].primitives = 5)),
  );
  cases['wrong-type.glb'] = /meshes\[0\]\.primitives is not an array/;
  // Dangling references glTF-Transform dropped without a word: a POSITION naming no accessor was
  // priced as nothing (land impact 0, so `check` passed it), indices of -1 priced the vertices as
  // a triangle soup, a node's missing mesh or material went unnoticed.
  const dangling: Record<string, [(j: any) => unknown, RegExp]> = {
    'no-position.glb': [
      (j) => (j.meshes[0].primitives[0].attributes.POSITION = 99),
      /POSITION 99 does not name an accessor/,
    ],
    'bad-indices.glb': [(j) => (j.meshes[0].primitives[0].indices = -1), /indices -1 does not name an accessor/],
    'bad-mesh.glb': [(j) => (j.nodes[0].mesh = 7), /nodes\[0\]\.mesh 7 does not name a mesh/],
    'bad-material.glb': [(j) => (j.meshes[0].primitives[0].material = 5), /material 5 does not name a material/],
    'bad-texture.glb': [
      (j) => (j.materials = [{ normalTexture: {} }]),
      /materials\[0\]\.normalTexture\.index is missing/,
    ],
  };
  for (const [name, [edit, why]] of Object.entries(dangling)) {
    writeFileSync(join(dir, name), editGlbJson(ok, edit));
    cases[name] = why;
  }
});

describe('hostile input through slmesh cost', () => {
  for (const name of [
    'nan.glb',
    'inf-scale.glb',
    'overrun.glb',
    'huge-count.glb',
    'bad-component.glb',
    'view-overrun.glb',
    'escape.glb',
    'http.glb',
    'wrong-type.glb',
    'no-position.glb',
    'bad-indices.glb',
    'bad-mesh.glb',
    'bad-material.glb',
    'bad-texture.glb',
  ]) {
    it(`${name}: exit 2, one line naming the file and the problem, no output`, () => {
      const out = join(dir, `out-${name}`);
      const r = slmesh('cost', name, '--emit-asset', out);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(name);
      expect(lines[0]).toMatch(cases[name]);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('refuses a file over --max-triangles with one line', () => {
    const r = slmesh('cost', 'ok.glb', '--max-triangles', '0.5');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ok\.glb: more than .* triangles/);
  });

  it('one bad file among good ones: nothing is printed or written', () => {
    const out = join(dir, 'mixed');
    const r = slmesh('cost', 'ok.glb', 'nan.glb', '--emit-asset', out);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('a hostile node name cannot drive the terminal or escape the asset folder', async () => {
    writeFileSync(join(dir, 'name.glb'), await triangleGlb([0, 0, 0, 1, 0, 0, 0, 1, 0], '../../\u001b[31mevil\u0007'));
    const out = join(dir, 'named');
    const r = slmesh('cost', 'name.glb', '--emit-asset', out);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b|\u0007/);
    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*\.llmesh$/);
    expect(readdirSync(dir).filter((f) => f.includes('evil'))).toEqual([]);
  });
});

describe('determinism', () => {
  it('the same input and options give byte-identical JSON and assets', () => {
    const a = slmesh('cost', '--json', join(root, 'test-assets/chair.glb'), '--emit-asset', join(dir, 'det-a'));
    const b = slmesh('cost', '--json', join(root, 'test-assets/chair.glb'), '--emit-asset', join(dir, 'det-b'));
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    for (const f of readdirSync(join(dir, 'det-a'))) {
      expect(Buffer.compare(readFileSync(join(dir, 'det-a', f)), readFileSync(join(dir, 'det-b', f)))).toBe(0);
    }
  });

  it('optimize writes byte-identical GLBs (every sibling file) and reports for the same input', () => {
    const outDir = (run: string) => join(dir, `opt-${run}`);
    for (const run of ['a', 'b']) {
      mkdirSync(outDir(run), { recursive: true });
      const r = slmesh(
        'optimize',
        join(root, 'test-assets/vase.glb'),
        '-o',
        join(outDir(run), 'vase.glb'),
        '--report',
        join(outDir(run), 'vase.json'),
      );
      expect(r.status, r.stderr).toBe(0);
    }
    const glbs = readdirSync(outDir('a'))
      .filter((f) => f.endsWith('.glb'))
      .sort();
    expect(glbs).toEqual(
      ['vase.glb', 'vase_LOD0.glb', 'vase_LOD1.glb', 'vase_LOD2.glb', 'vase_PHYS.glb'].filter((f) => glbs.includes(f)),
    );
    expect(glbs).toContain('vase_LOD2.glb');
    expect(
      readdirSync(outDir('b'))
        .filter((f) => f.endsWith('.glb'))
        .sort(),
    ).toEqual(glbs);
    for (const f of glbs)
      expect(Buffer.compare(readFileSync(join(outDir('a'), f)), readFileSync(join(outDir('b'), f))), f).toBe(0);
    // The reports differ only in the output folder they name.
    const report = (run: string) =>
      readFileSync(join(outDir(run), 'vase.json'), 'utf8')
        .split(JSON.stringify(outDir(run)).slice(1, -1))
        .join('OUT');
    expect(report('a')).toBe(report('b'));
  });
});
