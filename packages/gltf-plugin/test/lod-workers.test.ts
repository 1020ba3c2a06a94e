import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  isSlmeshError,
  lodTriangleCount,
  modelGeometries,
  planModelForBudget,
  planModelLods,
  planModelSharper,
  zlibNgDeflate,
  type MeshLod,
  type SlObject,
} from '@slmesh/core';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LOD_WORKERS_MAX,
  LOD_WORKERS_MAX_TRIANGLES,
  LOD_WORKERS_MIN_PARTS,
  LOD_WORKERS_MIN_TRIANGLES,
  lodWorkerStarts,
  lodWorkersFor,
  fromReply,
  leadingWithinCap,
  nextPart,
  planModelForBudgetWithWorkers,
  planModelLodsInWorkers,
  planModelSharperWithWorkers,
  plannedReply,
} from '../src/lod-workers.js';
import { optimizeFile } from '../src/optimize.js';
import { readModelFile } from '../src/read-file.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);
const out = (name: string) => join(tmpdir(), `slmesh-lod-workers-test-${process.pid}`, name);
const DEFAULTS = { simplifier: true, deflate: true, reorderTriangles: true };

/** `lod` with every position scaled by (sx, sy, sz): another geometry (its key differs), the same triangle count. */
function scaled(lod: MeshLod, sx: number, sy: number, sz: number): MeshLod {
  return {
    ...lod,
    faces: lod.faces.map((f) => {
      const p = Float32Array.from(f.positions);
      for (let i = 0; i < p.length; i += 3) {
        p[i] *= sx;
        p[i + 1] *= sy;
        p[i + 2] *= sz;
      }
      return { ...f, positions: p };
    }),
  };
}

let suzanne: SlObject;
beforeAll(async () => {
  await MeshoptSimplifier.ready;
  suzanne = (await readModelFile(asset('suzanne.glb'))).model.objects[0];
});

/** n distinct Suzannes (stretched along x, each by its own factor), named s0, s1, ... */
function suzannes(n: number): SlObject[] {
  return Array.from({ length: n }, (_, i) => ({
    ...suzanne,
    name: `s${i}`,
    lods: { high: scaled(suzanne.lods.high, 1 + i / 4, 1, 1) },
  }));
}

describe('lodWorkersFor: workers only where they pay and can plan as this thread would', () => {
  const options = { simplifier: MeshoptSimplifier as never };

  it('asks for none for one geometry, copies of one, or jobs 1', () => {
    expect(lodWorkersFor([suzanne], options, DEFAULTS, 4)).toBe(0);
    const copies = [0, 5, 10].map((x) => ({
      ...suzanne,
      name: `c${x}`,
      lods: { high: scaled(suzanne.lods.high, 1, 1, 1) },
    }));
    expect(lodWorkersFor(copies, options, DEFAULTS, 4)).toBe(0);
    expect(lodWorkersFor(suzannes(3), options, DEFAULTS, 1)).toBe(0);
    expect(lodWorkersFor(suzannes(3), options, DEFAULTS, 2)).toBe(2);
    expect(lodWorkersFor(suzannes(3), options, DEFAULTS, 8)).toBe(3);
  });

  it('asks for none when a function the worker cannot make is in the options', () => {
    expect(lodWorkersFor(suzannes(3), options, { ...DEFAULTS, simplifier: false }, 2)).toBe(0);
    const deflate = Object.assign(() => new Uint8Array(0), {});
    expect(
      lodWorkersFor(suzannes(3), { ...options, deflate: deflate as never }, { ...DEFAULTS, deflate: false }, 2),
    ).toBe(0);
    expect(lodWorkersFor(suzannes(3), { ...options, deflate: deflate as never }, DEFAULTS, 2)).toBe(2);
    expect(lodWorkersFor(suzannes(3), { ...options, screen: { f: () => 1 } as never }, DEFAULTS, 2)).toBe(0);
  });

  it('by default, asks for them when the geometries but the biggest have LOD_WORKERS_MIN_TRIANGLES', () => {
    const each = lodTriangleCount(suzanne.lods.high);
    const under = Math.ceil(LOD_WORKERS_MIN_TRIANGLES / each); // others = (n - 1) * each
    expect((under - 1) * each).toBeLessThan(LOD_WORKERS_MIN_TRIANGLES);
    expect(under * each).toBeGreaterThanOrEqual(LOD_WORKERS_MIN_TRIANGLES);
    const cores = Math.min(availableParallelism(), LOD_WORKERS_MAX);
    expect(lodWorkersFor(suzannes(under), options, DEFAULTS)).toBe(0);
    expect(lodWorkersFor(suzannes(under + 1), options, DEFAULTS)).toBe(cores >= 2 ? Math.min(cores, under + 1) : 0);
  });
});

describe('lodWorkersFor: many small distinct parts', () => {
  /** A 2-triangle quad stretched by its own factor: a distinct geometry of 2 triangles. */
  const quad = (i: number): SlObject => ({
    name: `q${i}`,
    lods: {
      high: {
        faces: [
          {
            material: 'm',
            positions: new Float32Array([0, 0, 0, 1 + i / 64, 0, 0, 1 + i / 64, 1, 0, 0, 1, 0]),
            indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
          },
        ],
      } as unknown as MeshLod,
    },
  });
  it('asks for them when the parts but the biggest number LOD_WORKERS_MIN_PARTS, however few their triangles', () => {
    const options = { simplifier: MeshoptSimplifier as never };
    const cores = Math.min(availableParallelism(), LOD_WORKERS_MAX);
    const parts = (n: number) => Array.from({ length: n }, (_, i) => quad(i));
    expect(lodWorkersFor(parts(LOD_WORKERS_MIN_PARTS), options, DEFAULTS)).toBe(0);
    expect(lodWorkersFor(parts(LOD_WORKERS_MIN_PARTS + 1), options, DEFAULTS)).toBe(cores >= 2 ? cores : 0);
  });
});

describe('nextPart: the parts in hand stay within the triangle cap', () => {
  const sizes = [500_000, 300_000, 200_000, 50_000];
  const size = (i: number) => sizes[i];
  it('takes the biggest part when none is in hand, whatever its size', () => {
    expect(nextPart([0, 1, 2, 3], size, 0, 0, 100_000)).toBe(0);
    expect(nextPart([], size, 0, 0)).toBe(-1);
  });
  it('takes the biggest that fits beside the parts in hand, none when none fits', () => {
    expect(nextPart([1, 2, 3], size, 1, 500_000, 600_000)).toBe(2); // part 3, the third in the queue
    expect(nextPart([1, 2, 3], size, 1, 300_000, 600_000)).toBe(0);
    expect(nextPart([1, 2], size, 1, 500_000, 600_000)).toBe(-1);
    expect(nextPart([2, 3], size, 2, 350_000, LOD_WORKERS_MAX_TRIANGLES)).toBe(0);
  });
});

describe('leadingWithinCap: threads for a search, no more than the biggest parts that fit together', () => {
  it('one part over the cap leaves room for one thread alone (a search then plans in this thread); smaller ones for as many as fit', () => {
    expect(leadingWithinCap([700_000, 10_000, 10_000])).toBe(1);
    expect(leadingWithinCap([600_000, 1])).toBe(1);
    expect(leadingWithinCap([300_000, 200_000, 200_000])).toBe(2);
    expect(leadingWithinCap(Array(10).fill(100_000))).toBe(6);
    expect(leadingWithinCap([5, 4, 3], 9)).toBe(2);
    expect(leadingWithinCap([])).toBe(0);
  });
});

describe('planModelLodsInWorkers', () => {
  it('gives the plans and LODs planModelLods gives in this thread, copies placed the same, progress ending at the total', async () => {
    const objects = [
      ...suzannes(3),
      { ...suzanne, name: 'copy' }, // the same geometry as s0: placed from its plan
    ];
    const model = { objects };
    const options = { simplifier: MeshoptSimplifier as never, lodFactor: 2, maxErrorPx: 1, sizeFactor: 1 };
    const here = planModelLods(model, options);
    const calls: [number, number][] = [];
    const starts = lodWorkerStarts();
    const there = await planModelLodsInWorkers(model, { ...options, onObjectPlanned: (d, t) => calls.push([d, t]) }, 2);
    expect(lodWorkerStarts() - starts).toBe(2);
    expect(there.plans).toEqual(here.plans);
    expect(there.model.objects.map((o) => o.lods)).toEqual(here.model.objects.map((o) => o.lods));
    expect(there.plans[3].name).toBe('copy');
    expect(calls.at(-1)).toEqual([4, 4]);
    for (let i = 1; i < calls.length; i++) expect(calls[i][0]).toBeGreaterThanOrEqual(calls[i - 1][0]);
  });

  it("gives a kept high back as the input's own object, so each copy keeps its own high as in this thread", async () => {
    // A copy whose normals are a hair off the first's (below geometryKey's 1/65536, as importers
    // leave them): the same geometry, but a kept high is each copy's own.
    const nudged: SlObject = {
      ...suzanne,
      name: 'nudged',
      lods: {
        high: {
          ...suzanne.lods.high,
          faces: suzanne.lods.high.faces.map((f) => ({
            ...f,
            normals:
              f.normals &&
              Float32Array.from(f.normals, (v) => {
                const w = Math.fround(v + 1e-7 * Math.sign(v));
                return Math.round(w * 65536) === Math.round(v * 65536) ? w : v;
              }),
          })),
        },
      },
    };
    const model = { objects: [...suzannes(2), nudged] };
    expect(modelGeometries(model.objects).firsts).toEqual([0, 1]);
    const options = { simplifier: MeshoptSimplifier as never, sizeFactor: 1, keepHigh: true };
    const here = planModelLods(model, options);
    const there = await planModelLodsInWorkers(model, options, 2);
    model.objects.forEach((o, i) => {
      expect(here.model.objects[i].lods.high).toBe(o.lods.high);
      expect(there.model.objects[i].lods.high).toBe(o.lods.high);
    });
    expect(there.model.objects.map((o) => o.lods)).toEqual(here.model.objects.map((o) => o.lods));
    expect(there.plans).toEqual(here.plans);
  });

  it('a reply names what the planned object shares with the given one, and puts it back after a structured clone', () => {
    const given: SlObject = {
      ...suzanne,
      placement: { position: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } as never,
    };
    const medium = scaled(suzanne.lods.high, 0.5, 0.5, 0.5);
    const planned = { object: { ...given, lods: { high: given.lods.high, medium, low: medium } }, plan: {} as never };
    const reply = structuredClone(plannedReply(given, planned));
    expect(reply.object.lods.high).toBeUndefined();
    expect(reply.object.placement).toBeUndefined();
    const back = fromReply(given, reply).object;
    expect(Object.keys(back)).toEqual(Object.keys(planned.object));
    expect(Object.keys(back.lods)).toEqual(['high', 'medium', 'low']);
    expect(back.lods.high).toBe(given.lods.high);
    expect(back.placement).toBe(given.placement);
    expect(back.lods.medium).not.toBe(medium);
    expect(back.lods.medium).toEqual(medium);
    expect(back.lods.low).toBe(back.lods.medium); // shared within the reply, as the clone keeps it
  });

  it("gives back a worker's SlmeshError as itself, code and message", async () => {
    const model = { objects: suzannes(2) };
    const err = await planModelLodsInWorkers(
      model,
      { simplifier: MeshoptSimplifier as never, sizeFactor: -1 },
      2,
    ).catch((e: unknown) => e);
    expect(isSlmeshError(err) && err.code).toBe('USAGE');
    expect((err as Error).message).toMatch(/size factor must be a positive number \(got -1\)/);
  });
});

/** The searches' model (the sharper-LOD search, the budget mode): three distinct Suzannes and a copy. */
const searchModel = () => ({ objects: [...suzannes(3), { ...suzanne, name: 'copy' }] });
/** The searches' settings: at 4 m, the finest bound 1 px. */
const SEARCH_BASE = { simplifier: MeshoptSimplifier as never, deflate: zlibNgDeflate, sizeFactor: 2, minErrorPx: 1 };

describe('planModelSharperWithWorkers: the sharper-LOD search with each part kept on one worker', () => {
  // The chain in hand was 6 px off. Two limits: one the finest bound (1 px) fits at once, one it
  // does not, so the search tries bounds between.
  const model = searchModel;
  const base = { ...SEARCH_BASE, maxLandImpact: 1000, current: { errorPx: 6, downloadWeight: 1 } };
  const here = (maxDownloadWeight: number) => planModelSharper(model(), { ...base, maxDownloadWeight });

  for (const [name, limit] of [
    ['the finest bound fits', 1000],
    ['bounds between are tried', 0],
  ] as const) {
    it(`${name}: the chain planModelSharper gives in this thread`, async () => {
      // Just under the finest chain's download weight: it fails, and coarser bounds are tried.
      const maxDownloadWeight = limit || here(1000)!.downloadWeight * 0.9;
      const starts = lodWorkerStarts();
      const there = await planModelSharperWithWorkers(model(), { ...base, maxDownloadWeight }, DEFAULTS, 2);
      expect(lodWorkerStarts() - starts).toBe(2);
      const local = here(maxDownloadWeight);
      expect(there?.maxErrorPx).toBe(local?.maxErrorPx);
      if (limit === 0) expect(local?.maxErrorPx).toBeGreaterThan(1);
      expect(there?.plans).toEqual(local?.plans);
      expect(there?.model.objects.map((o) => o.lods)).toEqual(local?.model.objects.map((o) => o.lods));
      expect(there?.downloadWeight).toBe(local?.downloadWeight);
    });
  }
});

describe('planModelForBudgetWithWorkers: the budget mode (--target-li) with each part kept on one worker', () => {
  // The target set from this thread's chains: over the floor's land impact, at the finest bound's,
  // and between the two (bisection).
  const model = searchModel;
  const base = { ...SEARCH_BASE, iterations: 2 };
  const here = (targetLandImpact: number) => planModelForBudget(model(), { ...base, targetLandImpact });
  let looseChain: ReturnType<typeof here> | undefined;
  /** This thread's chain where every bound fits: the finest bound's land impact, and the floor's. */
  const loosest = () => (looseChain ??= here(1e6));

  for (const name of ['the finest bound fits', 'bisection between bounds', 'even the floor is over'] as const) {
    it(`${name}: the chain planModelForBudget gives in this thread`, async () => {
      const loose = loosest();
      const target =
        name === 'the finest bound fits'
          ? 1e6
          : name === 'bisection between bounds'
            ? (loose.floorLandImpact + loose.landImpact) / 2
            : loose.floorLandImpact / 2;
      const starts = lodWorkerStarts();
      const there = await planModelForBudgetWithWorkers(model(), { ...base, targetLandImpact: target }, DEFAULTS, 2);
      expect(lodWorkerStarts() - starts).toBe(2);
      const local = here(target);
      expect(there.fits).toBe(name !== 'even the floor is over');
      if (name === 'bisection between bounds') expect(local.maxErrorPx).toBeGreaterThan(loose.maxErrorPx);
      expect(there.maxErrorPx).toBe(local.maxErrorPx);
      expect(there.landImpact).toBe(local.landImpact);
      expect(there.floorLandImpact).toBe(local.floorLandImpact);
      expect(there.plans).toEqual(local.plans);
      expect(there.model.objects.map((o) => o.lods)).toEqual(local.model.objects.map((o) => o.lods));
    });
  }
});

describe('optimizeFile with jobs', () => {
  for (const [name, more] of [
    ['chair.glb', {}],
    ['textured-hierarchy.glb', {}],
    // At 30 m the chair's download weight sets its land impact: 15.2 at the finest bound, 3 at the
    // floor (server weight), so a target of 6 is found by bisection, bound after bound.
    ['chair.glb', { targetLandImpact: 6, size: { longestSide: 30 } }],
  ] as const) {
    const budget =
      'targetLandImpact' in more ? ` --target-li ${more.targetLandImpact} --size ${more.size.longestSide}` : '';
    it(`writes ${name}${budget} byte for byte as planned in this thread, on worker threads with jobs 2`, async () => {
      const starts = lodWorkerStarts();
      const one = await optimizeFile(asset(name), { ...more, output: out(`one${budget}-${name}`), jobs: 1 });
      expect(lodWorkerStarts()).toBe(starts);
      const two = await optimizeFile(asset(name), { ...more, output: out(`two${budget}-${name}`), jobs: 2 });
      // 2 for the first plan, 2 more where the sharper-LOD search runs (the textured hierarchy).
      expect([2, 4]).toContain(lodWorkerStarts() - starts);
      expect(two.files.map((f) => f.slot)).toEqual(one.files.map((f) => f.slot));
      two.files.forEach((f, i) => expect(Buffer.compare(Buffer.from(f.data), Buffer.from(one.files[i].data))).toBe(0));
      expect(two.plans).toEqual(one.plans);
      expect(two.after.linkset).toEqual(one.after.linkset);
      expect(two.budget).toEqual(one.budget);
      if (budget) expect(one.budget?.maxErrorPx).toBeGreaterThan(1 / 32);
      if (budget) expect(one.budget?.fits).toBe(true);
    });
  }
});
