/**
 * Blender round trip: Blender 3.4 (headless) exports a hierarchy with rotated, scaled, parented,
 * multi-material and textured parts (test-assets/make.py `build_textured_hierarchy`); `slmesh
 * optimize` makes the sibling files; Blender imports each output file into an empty scene. Node
 * names, parents, world transforms (so origins, rotations and scales), mesh-local boxes,
 * materials and textures survive, and the LOD files pair with high by name (`Table_LOD2`).
 *
 * Needs `blender` on the PATH (.ci/run installs Debian's); skipped with a message without it.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const script = join(__dirname, 'blender/roundtrip.py');
const hasBlender = spawnSync('blender', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasBlender)
  console.warn(
    'blender-roundtrip: `blender` is not on the PATH; the Blender round-trip test is skipped (apt-get install -y blender python3-numpy)',
  );

interface ObjectFacts {
  type: string;
  parent: string | null;
  matrix_world: number[];
  mesh?: string;
  materials?: (string | null)[];
  used_materials?: string[];
  box?: [number[], number[]];
  triangles?: number;
  uv?: boolean;
  textured?: string[];
}
type Facts = Record<string, ObjectFacts>;

function blender(...args: string[]) {
  const r = spawnSync('blender', ['-b', '--factory-startup', '--python', script, '--', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/Traceback/);
}

const SUFFIX: Record<string, string> = {
  'out.glb': '',
  'out_LOD2.glb': '_LOD2',
  'out_LOD1.glb': '_LOD1',
  'out_LOD0.glb': '_LOD0',
  'out_PHYS.glb': '_PHYS',
};

describe.skipIf(!hasBlender)('Blender round trip', () => {
  it("keeps node names, origins, rotations, scales, parents, materials and textures; LOD files pair by name and keep high's box", () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-blender-'));
    // 1. Export from Blender, with what Blender knows about the scene.
    blender('export', join(dir, 'in.glb'), join(dir, 'in.json'));
    const input: Facts = JSON.parse(readFileSync(join(dir, 'in.json'), 'utf8'));
    const meshes = Object.keys(input).filter((n) => input[n].type === 'MESH');
    expect(meshes.sort()).toEqual(['Bulb', 'Lamp', 'Table']);

    // 2. slmesh optimize: sibling files.
    const r = spawnSync(process.execPath, [bin, 'optimize', join(dir, 'in.glb'), '-o', join(dir, 'out', 'out.glb')], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const files = readdirSync(join(dir, 'out')).sort();
    expect(files).toEqual(['out.glb', 'out_LOD0.glb', 'out_LOD1.glb', 'out_LOD2.glb', 'out_PHYS.glb']);

    // 3. Import every output file into an empty Blender scene.
    blender('import', join(dir, 'out.json'), ...files.map((f) => join(dir, 'out', f)));
    const output: Record<string, Facts> = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));

    for (const file of files) {
      const suffix = SUFFIX[file];
      const got = output[file];
      // Empties keep their names; mesh objects are named (and their meshes too) Name + the file's suffix.
      const expectName = (n: string) => (input[n].type === 'MESH' ? n + suffix : n);
      expect(Object.keys(got).sort(), file).toEqual(Object.keys(input).map(expectName).sort());
      for (const [name, want] of Object.entries(input)) {
        const o = got[expectName(name)];
        expect(o.type, `${file} ${name}`).toBe(want.type);
        expect(o.parent, `${file} ${name} parent`).toBe(want.parent === null ? null : expectName(want.parent));
        // Origin, rotation and scale: the whole world matrix.
        o.matrix_world.forEach((v, i) =>
          expect(Math.abs(v - want.matrix_world[i]), `${file} ${name} matrix[${i}]`).toBeLessThan(1e-4),
        );
        if (want.type !== 'MESH') continue;
        expect(o.mesh, `${file} ${name} mesh name`).toBe(name + suffix);
        // Mesh-local vertices: every LOD and the physics model have high's (the input's) box.
        const size = Math.max(...want.box![1].map((v, k) => v - want.box![0][k]));
        for (const side of [0, 1])
          for (const k of [0, 1, 2])
            expect(Math.abs(o.box![side][k] - want.box![side][k]), `${file} ${name} box`).toBeLessThanOrEqual(
              1e-5 * size + 1e-7,
            );
        if (suffix === '_PHYS') {
          // Physics: one plain material named after high's first, no texture (so no UVs needed).
          expect(o.materials, `${file} ${name}`).toEqual([want.materials![0]]);
          expect(o.textured).toEqual([]);
          continue;
        }
        // Every LOD keeps every material of high, in order, each used by some triangle, textures kept.
        expect(o.materials, `${file} ${name} materials`).toEqual(want.materials);
        expect(o.used_materials, `${file} ${name} used materials`).toEqual(want.used_materials);
        expect(o.textured, `${file} ${name} textures`).toEqual(want.textured);
        expect(o.uv).toBe(true);
        expect(o.triangles!).toBeLessThanOrEqual(want.triangles!);
      }
    }
  }, 120_000);
});
