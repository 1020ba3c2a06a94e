/**
 * `slmesh cost` end to end on real Blender exports (test-assets/), through the built bin as a
 * user runs it. `pnpm test` builds first.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { zlibNgDeflate } from '@slmesh/core';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const asset = (name: string) => join(root, 'test-assets', name);
const pyReader = join(root, 'packages/core/test/asset/independent/read_llmesh.py');

function slmesh(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function costJson(...args: string[]) {
  const r = slmesh('cost', '--json', ...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

/** Spec section 1 in plain double precision, written independently of core's float32 version. */
function specStreaming(bytes: { high: number; medium: number; low: number; lowest: number }, radius: number): number {
  const high = bytes.high,
    mid = bytes.medium || high,
    low = bytes.low || mid,
    lowest = bytes.lowest || low;
  const tris = (b: number) => Math.max(b - 384, 16) / 16;
  const dlowest = Math.min(radius / 0.03, 512),
    dlow = Math.min(radius / 0.06, 512),
    dmid = Math.min(radius / 0.24, 512);
  const maxArea = 102944;
  const H = Math.min(Math.PI * dmid ** 2, maxArea),
    M = Math.min(Math.PI * dlow ** 2, maxArea),
    L = Math.min(Math.PI * dlowest ** 2, maxArea);
  const clamp = (a: number) => Math.min(Math.max(a, 1), maxArea);
  const a = [clamp(H), clamp(M - H), clamp(L - M), clamp(maxArea - L)];
  const sum = a[0] + a[1] + a[2] + a[3];
  const weighted = (tris(high) * a[0] + tris(mid) * a[1] + tris(low) * a[2] + tris(lowest) * a[3]) / sum;
  return (weighted / 250000) * 15000;
}

describe('slmesh cost on Blender exports', () => {
  it('prices a 6-part chair: 6 prims, linkable, streaming = the spec formula on the reported bytes and radius', () => {
    const report = costJson(asset('chair.glb'));
    const file = report.files[0];
    expect(file.objects).toHaveLength(6);
    expect(file.linkset.prims).toBe(6);
    expect(file.linkset.linkable.ok).toBe(true);
    let total = 0;
    for (const o of file.objects) {
      const b = {
        high: o.lods.high.blockBytes,
        medium: o.lods.medium.blockBytes,
        low: o.lods.low.blockBytes,
        lowest: o.lods.lowest.blockBytes,
      };
      expect(o.streaming).toBeCloseTo(specStreaming(b, o.radius), 4);
      // Reported bytes are what the formula charges: missing LODs take the next higher's size.
      expect(
        specStreaming(
          { high: o.lods.high.bytes, medium: o.lods.medium.bytes, low: o.lods.low.bytes, lowest: o.lods.lowest.bytes },
          o.radius,
        ),
      ).toBeCloseTo(o.streaming, 4);
      expect(o.radius).toBeCloseTo(0.5 * Math.hypot(...(o.scale as [number, number, number])), 9);
      expect(o.landImpact).toBe(Math.max(o.streaming, o.physics.weight, o.server));
      total += o.streaming;
    }
    expect(file.linkset.streaming).toBeCloseTo(total, 9);
    expect(file.linkset.landImpact).toBe(Math.max(file.linkset.streaming, file.linkset.physics, file.linkset.server));
    expect(file.linkset.landImpactRounded).toBe(Math.floor(file.linkset.landImpact + 0.5));
  });

  it('says two cubes 60 m apart are not linkable', () => {
    const link = costJson(asset('two-cubes-60m.glb')).files[0].linkset.linkable;
    expect(link.ok).toBe(false);
    expect(link.span).toBeGreaterThan(59.9);
    expect(link.span).toBeLessThan(60.1);
    expect(link.limit).toBe(54);
  });

  it('says 300 small prims are not linkable, however close', () => {
    const ls = costJson(asset('prims-300.glb')).files[0].linkset;
    expect(ls.prims).toBe(300);
    expect(ls.linkable.span).toBeLessThan(54);
    expect(ls.linkable.ok).toBe(false);
  });

  it('prices _LODn/_PHYS nodes inside the high file as the extra objects the uploader makes, and reads sibling-file LODs', () => {
    const file = costJson(asset('lod-authored.glb')).files[0];
    // The importer takes LODs only from sibling files: Ball_LOD2 ... are cut to Ball and uploaded as copies.
    expect(file.objects.map((o: { name: string }) => o.name)).toEqual([
      'Ball',
      'Ball_copy_1',
      'Ball_copy_2',
      'Ball_copy_3',
      'Ball_copy_4',
    ]);
    expect(file.objects[0].lods.medium.present).toBe(false);
    const d = file.diagnostics.filter((x: { code: string }) => x.code === 'lod-node-in-high-file');
    expect(d).toHaveLength(4);
    expect(d[0].message).toMatch(/Ball_LOD2.*extra object Ball_copy_1.*lod-authored_LOD2\.glb/);

    const vase = costJson(asset('vase.glb')).files[0];
    expect(vase.siblings.length).toBe(4);
    const v = vase.objects[0].lods;
    expect(v.high.triangles).toBeGreaterThan(v.lowest.triangles);
    expect(v.lowest.present).toBe(true);
  });

  it("keeps a rotated node's own box as the prim scale, as the current importer does (a 2 m cube rotated 45 degrees about the vertical)", () => {
    const child = costJson(asset('rotated-scaled.glb')).files[0].objects[0];
    expect(child.name).toBe('Child');
    // The node's rotation stays on the prim: a 2 x 2 x 2 m prim, radius sqrt(3).
    for (const k of [0, 1, 2]) expect(child.scale[k]).toBeCloseTo(2, 3);
    expect(child.position[0]).toBeCloseTo(Math.SQRT2, 3);
    expect(child.position[1]).toBeCloseTo(Math.SQRT2, 3); // glTF z -1.41 is SL y 1.41
    expect(child.position[2]).toBeCloseTo(0.5, 3); // glTF y 0.5 is SL z 0.5
    // The older importer bakes the world transform: in Z-up the box is 2.83 x 2.83 wide and 2 m tall.
    const baked = costJson(asset('rotated-scaled.glb'), '--importer', 'baked').files[0].objects[0];
    expect(baked.scale[0]).toBeCloseTo(2 * Math.SQRT2, 3);
    expect(baked.scale[1]).toBeCloseTo(2 * Math.SQRT2, 3);
    expect(baked.scale[2]).toBeCloseTo(2, 3);
    expect(baked.position).toEqual(child.position.map((v: number) => expect.closeTo(v, 3)));
    expect(baked.streaming).toBeGreaterThanOrEqual(child.streaming);
    expect(slmesh('cost', asset('cube.glb'), '--importer', 'sideways').status).toBe(2);
  });

  it("without lower LODs, charges every LOD at the high LOD's size, as the viewer does", () => {
    const o = costJson(asset('cube.glb')).files[0].objects[0];
    expect(o.lods.medium.present).toBe(false);
    expect(o.lods.lowest.bytes).toBe(o.lods.high.bytes);
    expect(o.lods.lowest.blockBytes).toBe(0);
  });

  it('prices another size: --size and --scale change the radius and download weight, not the bytes', () => {
    // The vase has sibling LOD files, so the radius moves the distances at which each LOD is
    // seen. (An object without lower LODs is charged at high's bytes for every LOD, and its
    // download weight does not depend on the radius beyond float32 rounding.)
    const base = costJson(asset('vase.glb')).files[0].objects[0];
    const big = costJson(asset('vase.glb'), '--size', '10').files[0].objects[0];
    expect(base.lods.lowest.present).toBe(true);
    expect(Math.max(...big.scale)).toBeCloseTo(10, 6);
    expect(big.lods.high.bytes).toBe(base.lods.high.bytes);
    expect(big.streaming).toBeGreaterThan(base.streaming);
    const flat = costJson(asset('cube.glb'), '--scale', '2,3,0.5').files[0].objects[0];
    expect(flat.scale[0]).toBeCloseTo(2, 6);
    expect(flat.scale[1]).toBeCloseTo(3, 6);
    expect(flat.scale[2]).toBeCloseTo(0.5, 6);
  });

  it('gives the switch distances for the chosen RenderVolumeLODFactor', () => {
    const at1 = costJson(asset('column-10m.glb'), '--lod-factor', '1').files[0].objects[0].switchDistances;
    const at2 = costJson(asset('column-10m.glb'), '--lod-factor', '2').files[0].objects[0].switchDistances;
    expect(at1.lodFactor).toBe(1);
    expect(at1.medium).toBeLessThan(at1.low);
    expect(at1.low).toBeLessThan(at1.lowest);
    expect(at2.medium).toBeGreaterThan(at1.medium);
  });

  it('prints a readable table with the linkset line and land impact', () => {
    const r = slmesh('cost', asset('chair.glb'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/6 prims/);
    expect(r.stdout).toMatch(/^linkset/m);
    expect(r.stdout).toMatch(/LOD switch distances at RenderVolumeLODFactor 2/);
  });
});

describe("slmesh cost past the upload floater's Scale limit", () => {
  it('prices a model asked for at 150 m as the uploader uploads it: its largest object at 63.9 m, and says so', () => {
    // The floater's Scale stops where the largest object is 63.9 m (LLModelPreview::rebuildUploadData).
    const capped = costJson(asset('vase.glb'), '--size', '150').files[0];
    const at = costJson(asset('vase.glb'), '--size', '63.9').files[0];
    expect(Math.max(...capped.objects[0].scale)).toBeCloseTo(63.9, 9);
    expect(capped.linkset.landImpact).toBeCloseTo(at.linkset.landImpact, 9);
    expect(capped.linkset.streaming).toBeCloseTo(at.linkset.streaming, 9);
    const d = capped.diagnostics.find((x: { code: string }) => x.code === 'scale-capped');
    expect(d?.severity).toBe('warning');
    expect(d?.message).toMatch(
      /over the 63\.9 m the uploader's Scale allows an object: the uploader sets Scale to 0\.4260/,
    );
    expect(at.diagnostics.some((x: { code: string }) => x.code === 'scale-capped')).toBe(false);
    // Not an upload error: the uploader shrinks it rather than refusing it.
    expect(capped.diagnostics.filter((x: { severity: string }) => x.severity === 'error')).toEqual([]);
  });
});

describe('slmesh cost --emit-asset', () => {
  it("writes assets an independent reader decodes, each block exactly zlib-ng level 9 of its content (the viewer's bytes)", () => {
    const out = mkdtempSync(join(tmpdir(), 'slmesh-emit-'));
    const report = costJson(asset('chair.glb'), '--emit-asset', out);
    const files = readdirSync(out).sort();
    expect(files).toEqual(report.files[0].objects.map((o: { name: string }) => `${o.name}.llmesh`).sort());
    for (const f of files) {
      const bytes = readFileSync(join(out, f));
      const parsed = JSON.parse(execFileSync('python3', [pyReader, join(out, f)], { encoding: 'utf8' }));
      const o = report.files[0].objects.find((x: { name: string }) => `${x.name}.llmesh` === f);
      expect(parsed.header.high_lod.size).toBe(o.lods.high.blockBytes);
      expect(bytes.length).toBe(o.assetBytes);
      for (const [name, block] of Object.entries(parsed.header) as [string, { offset: number; size: number }][]) {
        if (typeof block !== 'object' || block === null || !('offset' in block)) continue;
        const start = parsed.header_length + block.offset;
        const raw = bytes.subarray(start, start + block.size);
        const inflated = inflateSync(raw); // the size in the header is exactly one whole zlib stream
        expect(Buffer.compare(zlibNgDeflate(inflated, 9), raw), `${f} ${name}`).toBe(0);
      }
    }
  });
});

describe('slmesh cost on broken input', () => {
  for (const name of ['broken/truncated.glb', 'broken/not-a-glb.glb', 'broken/bad-json.glb', 'does-not-exist.glb']) {
    it(`${name}: one line on stderr, exit 2, nothing on stdout, no files written`, () => {
      const out = mkdtempSync(join(tmpdir(), 'slmesh-broken-'));
      const r = slmesh('cost', asset(name), '--emit-asset', join(out, 'assets'));
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(name);
      expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
      expect(existsSync(join(out, 'assets'))).toBe(false);
    });
  }

  it('a usage mistake exits 2 with one line', () => {
    const r = slmesh('cost', asset('cube.glb'), '--size', 'big');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('slmesh cost: an optional extension no reader knows', () => {
  it('is ignored quietly, as the viewer ignores it (assimp writes FB_ngon_encoding)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-ext-'));
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const gltf = {
      asset: { version: '2.0' },
      extensionsUsed: ['FB_ngon_encoding'],
      scene: 0,
      scenes: [{ nodes: [0] }],
      nodes: [{ name: 'Tri', mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      buffers: [
        {
          byteLength: 36,
          uri: `data:application/octet-stream;base64,${Buffer.from(positions.buffer).toString('base64')}`,
        },
      ],
      bufferViews: [{ buffer: 0, byteLength: 36 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    };
    const file = join(dir, 'tri.gltf');
    writeFileSync(file, JSON.stringify(gltf));
    const r = slmesh('cost', file);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/tri\.gltf: 1 prim/);
  });
});
