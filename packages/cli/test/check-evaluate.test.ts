/** check/evaluate.ts: judging priced Blender exports against budget rules. */

import { describe, expect, it } from 'vitest';
import {
  evaluateRule,
  formatOver,
  formatWeight,
  linksetAt,
  linksetTriangles,
  sizesFor,
} from '../src/check/evaluate.js';
import { budget, priced } from './check-fixtures.js';

const rule = (limits: Record<string, unknown>) => budget({ rules: [{ name: 'r', files: '**/*', ...limits }] }).rules[0];

describe('number formatting', () => {
  it('shows enough decimals to tell a value from its limit', () => {
    expect(formatWeight(6.2137, 5)).toBe('6.21');
    expect(formatWeight(5.001, 5)).toBe('5.001');
    expect(formatWeight(5, 5.001)).toBe('5');
    expect(formatWeight(0.5)).toBe('0.5');
  });
  it('says by how much, in percent', () => {
    expect(formatOver(6.2, 5)).toBe('+24%');
    expect(formatOver(5.12, 5)).toBe('+2.4%');
    expect(formatOver(5.01, 5)).toBe('+0.2%');
    expect(formatOver(4, 5)).toBe('-20%');
    expect(formatOver(1, 0)).toBe('');
  });
});

describe('evaluateRule', () => {
  it('land impact over the limit: which number, the limit, and by how much', async () => {
    const chair = await priced('chair.glb');
    const li = chair.report.linkset.landImpact;
    const r = evaluateRule(chair, rule({ maxLandImpact: 5, maxDownload: 100, maxPhysics: 2, maxServer: 3 }));
    expect(r.ok).toBe(false);
    const [land, download, physics, server] = r.checks;
    expect(land).toMatchObject({ metric: 'landImpact', limit: 5, actual: li, ok: false });
    expect(land.message).toBe(`land impact ${formatWeight(li, 5)} > 5 (+${Math.round(((li - 5) / 5) * 100)}%)`);
    expect(download.ok).toBe(true);
    expect(download.message).toMatch(/^download weight [\d.]+ <= 100$/);
    expect(physics).toMatchObject({
      metric: 'physics',
      actual: chair.report.linkset.physics,
      ok: chair.report.linkset.physics <= 2,
    });
    expect(server).toMatchObject({ metric: 'server', actual: 3, limit: 3, ok: true }); // a limit is inclusive
  });

  it('checks size-dependent limits at each size named, with the size in the message', async () => {
    const suz = await priced('lod-authored.glb', [0.5, 10]); // authored LODs: download weight grows with size
    const r = evaluateRule(suz, rule({ maxDownload: 50, atSizes: ['asset', 0.5, 10] }));
    expect(r.checks.map((c) => c.size)).toEqual([undefined, 0.5, 10]);
    const small = linksetAt(suz, 0.5).streaming;
    const big = linksetAt(suz, 10).streaming;
    expect(big).toBeGreaterThan(small);
    expect(r.checks[1].actual).toBe(small);
    expect(r.checks[2].actual).toBe(big);
    expect(r.checks[2].message).toMatch(/ at 10 m$/);
    expect(r.checks[2].ok).toBe(big <= 50);
  });

  it('triangles per LOD are the linkset sums; required LODs list the objects without them', async () => {
    const chair = await priced('chair.glb');
    const r = evaluateRule(
      chair,
      rule({ maxTriangles: { high: 400, lowest: 10000 }, requiredLods: ['medium', 'physics'] }),
    );
    const high = r.checks.find((c) => c.metric === 'triangles.high')!;
    expect(high.actual).toBe(chair.report.objects.reduce((n, o) => n + o.lods.high.triangles, 0));
    expect(high.actual).toBe(linksetTriangles(chair.report, 'high'));
    expect(high.ok).toBe(false);
    expect(high.message).toBe(`high LOD triangles 456 > 400 (+14%)`);
    const medium = r.checks.find((c) => c.metric === 'lod.medium')!;
    expect(medium.ok).toBe(false);
    expect(medium.objects).toEqual(chair.report.objects.map((o) => o.name));
    expect(medium.message).toBe('medium LOD missing on Seat, Back, Leg_FL and 3 more (required)');

    const vase = await priced('vase.glb'); // sibling _LOD2/_LOD1/_LOD0/_PHYS files
    const v = evaluateRule(vase, rule({ requiredLods: ['medium', 'low', 'lowest', 'physics'] }));
    expect(v.ok).toBe(true);
    expect(v.checks.map((c) => c.message)).toContain('physics shape present on every object');
  });

  it('hull vertices name the worst object; prims, linkability and uploadability', async () => {
    const chair = await priced('chair.glb');
    const worst = Math.max(...chair.report.objects.map((o) => o.physics.convexHull.vertices));
    const r = evaluateRule(chair, rule({ maxHullVertices: 8, maxPrims: 5, linkable: true, uploadable: true }));
    const hull = r.checks.find((c) => c.metric === 'hullVertices')!;
    expect(hull.actual).toBe(worst);
    expect(hull.object).toBe(chair.report.objects.find((o) => o.physics.convexHull.vertices === worst)!.name);
    expect(hull.message).toContain(` on ${hull.object}`);
    expect(r.checks.find((c) => c.metric === 'prims')!.message).toBe('prims 6 > 5 (+20%)');
    expect(r.checks.find((c) => c.metric === 'linkable')!.ok).toBe(true);
    expect(r.checks.find((c) => c.metric === 'uploadable')!.ok).toBe(true);

    const far = await priced('two-cubes-60m.glb');
    const link = evaluateRule(far, rule({ linkable: true })).checks[0];
    expect(link.ok).toBe(false);
    expect(link.message).toMatch(/^not linkable: /);
  });

  it('a rule without limits passes; sizesFor collects the sizes of all rules', async () => {
    const cube = await priced('cube.glb');
    expect(evaluateRule(cube, rule({}))).toEqual({ rule: 'r', ok: true, checks: [] });
    const b = budget({
      rules: [{ files: 'a', atSizes: [4, 'asset', 0.5] }, { files: 'b', atSizes: [0.5, 2] }, { files: 'c' }],
    });
    expect(sizesFor(b.rules)).toEqual([0.5, 2, 4]);
    expect(() => linksetAt(cube, 3)).toThrow(/not priced at 3 m/);
  });
});
