/**
 * Vertex precision and the single hull: the uploader takes the single hull from the low LOD, so
 * moving low's vertices must not give that hull more vertices where it sets the land impact.
 * The model is the land-impact benchmark's V-HACD beshon (bench/: its OBJ reader and GLB writer).
 */

import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as gltf from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { optimizeFile } from '../src/optimize.js';

const root = resolve(__dirname, '../../..');

describe('optimize: vertex precision and the single hull', () => {
  it("moves low's vertices only so far as its hull gains no vertex, where that hull sets the land impact", async () => {
    const { readObj } = await import(join(root, 'bench/lod.bench.mjs'));
    const { writeGlb } = await import(join(root, 'bench/land-impact.bench.mjs'));
    const dir = join(tmpdir(), `slmesh-precision-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const input = join(dir, 'beshon.glb');
    await writeGlb(
      input,
      readObj(readFileSync(join(root, 'node_modules/vhacd-js/app/meshes/beshon.obj'), 'utf8'), 'beshon'),
      gltf,
    );
    const run = (keepPrecision: boolean) =>
      optimizeFile(input, { output: join(dir, `${keepPrecision}.glb`), size: { longestSide: 1.53 }, keepPrecision });
    const [exact, moved] = [await run(true), await run(false)];
    const hull = (r: Awaited<ReturnType<typeof run>>) => r.after.objects[0].physics.convexHull!.vertices;
    // Its single hull (Convex Hull: no physics model) weighs more than its download weight ...
    expect(moved.after.linkset.dominant).toBe('physics');
    // ... and the moved chain's hull has no more vertices than the unmoved one's (36, not 37).
    expect(hull(moved)).toBeLessThanOrEqual(hull(exact));
    expect(moved.after.linkset.physics).toBeLessThanOrEqual(exact.after.linkset.physics);
    expect(moved.after.linkset.landImpactRounded).toBe(1);
    // The other LODs still moved: the download weight is lower.
    expect(moved.after.linkset.streaming).toBeLessThan(exact.after.linkset.streaming);
  });
});
