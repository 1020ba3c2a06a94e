/**
 * The three.js model (no WebGL needed): LOD slots resolve to the next higher LOD when missing,
 * as the viewer does; physics shapes exist for exactly what an object carries (a decomposition
 * or a generated LOD shows up without any change to the page), and the toggles show one at a time.
 */

import { describe, expect, it } from 'vitest';
import { buildScene } from '../src/scene.js';
import { previewOfModel, shelfModel } from './fixtures.js';

describe('buildScene', () => {
  it('resolves missing LOD slots to the next higher, and counts the triangles drawn', () => {
    const scene = buildScene(previewOfModel(shelfModel()));
    const o = scene.objects[0];
    expect(o.drawn).toEqual({ high: 'high', medium: 'medium', low: 'medium', lowest: 'medium' });
    expect(o.triangles).toEqual({ high: 24, medium: 12, low: 12, lowest: 12 });
    scene.showLod(0, 'low');
    expect(o.lods.low.visible).toBe(true);
    expect(o.lods.high.visible || o.lods.medium.visible || o.lods.lowest.visible).toBe(false);
  });

  it('has the physics shapes the object carries, one shown at a time', () => {
    const scene = buildScene(previewOfModel(shelfModel()));
    expect(scene.available).toEqual({ off: true, hull: true, decomposition: true, mesh: false });
    const p = scene.objects[0].physics;
    expect(p.decomposition!.children).toHaveLength(2);
    scene.showPhysics('decomposition');
    expect([p.hull.visible, p.decomposition!.visible]).toEqual([false, true]);
    scene.showPhysics('hull');
    expect([p.hull.visible, p.decomposition!.visible]).toEqual([true, false]);
    scene.showPhysics('off');
    expect([p.hull.visible, p.decomposition!.visible]).toEqual([false, false]);
  });

  it('scales the linkset about its centre', () => {
    const scene = buildScene(previewOfModel(shelfModel()));
    scene.setScale(2);
    const centre = scene.centre;
    // The linkset centre stays put; a corner at the origin moves away from it by 2x.
    const m = scene.root.children[0].matrixWorld.elements;
    const map = (p: number[]) => [0, 1, 2].map((k) => m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k]);
    const c = map(centre);
    centre.forEach((v, k) => expect(c[k]).toBeCloseTo(v, 9));
    const origin = map([0, 0, 0]);
    centre.forEach((v, k) => expect(origin[k]).toBeCloseTo(v - 2 * v, 9));
  });
});
