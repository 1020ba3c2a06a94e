/**
 * Whether a set of prims can be linked into one linkset. Source [seed 000]: the SL wiki's
 * "Linkability Rules" (seeds/linkability-rules.txt).
 *
 * Current rule (since December 2010): linkable iff D < maxSpan and N <= maxPrims, where D is the
 * diameter of the smallest sphere enclosing the prim centres (Welzl, min-enclosing-sphere.ts) and
 * N the number of prims. The seed writes "N < 256"; the viewer caps a linkset at 256 prims (a root
 * and 255 children), so we use N <= 256 (LINKABILITY_DEFAULTS.maxPrims). maxSpan defaults to 54 m;
 * the wiki's banner says 64 m since 2023 [unverified], a setting.
 *
 * Legacy rule (before December 2010), for old content and comparison: every prim has a bounding
 * sphere of radius |scale| / 2 with sides over 10 m clamped to 10 m (megaprims); two objects A, B
 * (single prims, or linked groups whose sphere is the smallest sphere enclosing their prims'
 * spheres, min-enclosing-sphere-of-spheres.ts) can link iff
 *     |c_A - c_B| + r_A + r_B <= min(3 * (r_A + r_B) + 2, 54).
 * The algorithm, as the seed describes it: the root (the FIRST prim given) is tested against each
 * candidate in order, growing its sphere after each link; then the remaining candidates are
 * tested among themselves and merged; repeat until all is linked or nothing new links. The
 * outcome of an unlinkable set depends on the order (the seed's "failure modes"): which prims
 * end up in the root's group is only meaningful for the order given.
 */

import { LINKABILITY_DEFAULTS, type LinkabilitySettings } from '../constants.js';
import { SlmeshError } from '../errors.js';
import { minEnclosingSphere } from '../geometry/min-enclosing-sphere.js';
import { minEnclosingSphereOfSpheres } from '../geometry/min-enclosing-sphere-of-spheres.js';
import { assignDefaults } from '../options.js';

export interface LinkabilityCurrent {
  ok: boolean;
  rule: 'current';
  /** Number of prims (N). */
  prims: number;
  /** Diameter of the smallest sphere enclosing the prim centres (D), metres. */
  span: number;
  /** The span D must stay below, metres (maxSpan). */
  limit: number;
  /** The most prims a linkset may have (maxPrims). */
  maxPrims: number;
  /** Why not, in one line, when `ok` is false. */
  reason?: string;
}

function fmt(x: number): string {
  return x.toFixed(2);
}

/**
 * Current linkability rule over the prim centres `centres` (flat xyz, metres).
 * @param settings overrides of LINKABILITY_DEFAULTS (maxSpan 54, maxPrims 256).
 */
export function linkabilityCurrent(
  centres: Float64Array | Float32Array | readonly number[],
  settings: Partial<LinkabilitySettings> = {},
): LinkabilityCurrent {
  const s = assignDefaults(LINKABILITY_DEFAULTS, settings);
  const prims = Math.floor(centres.length / 3);
  const span = 2 * minEnclosingSphere(centres).radius;
  const reasons: string[] = [];
  if (!(span < s.maxSpan)) reasons.push(`the prim centres span ${fmt(span)} m; the limit is below ${s.maxSpan} m`);
  if (prims > s.maxPrims) reasons.push(`${prims} prims; at most ${s.maxPrims} can be linked`);
  const result: LinkabilityCurrent = {
    ok: reasons.length === 0,
    rule: 'current',
    prims,
    span,
    limit: s.maxSpan,
    maxPrims: s.maxPrims,
  };
  if (reasons.length > 0) result.reason = reasons.join('; ');
  return result;
}

/** A prim as the legacy rule sees it: its centre and its scale (box size), metres. */
export interface LegacyPrim {
  center: readonly [number, number, number] | readonly number[];
  scale: readonly [number, number, number] | readonly number[];
}

export interface LinkabilityLegacy {
  ok: boolean;
  rule: 'legacy';
  /** Number of prims given. */
  prims: number;
  /** Diameter of the root group's bounding sphere after linking, metres. */
  span: number;
  /** LARGEST_MAX: no linked object's span may exceed it, metres. */
  limit: number;
  /** How many prims ended up linked to the root (the root included). */
  linkedCount: number;
  /** Prim indices of the root's group (first is the root, 0), in the order they were given. */
  linked: number[];
  /** Groups left unlinked from the root, as prim indices, when `ok` is false. Order dependent. */
  groups?: number[][];
  /** Why not, in one line, when `ok` is false. */
  reason?: string;
}

/** The legacy rule's bounding-sphere radius of a prim: half the diagonal of its scale with each side clamped (megaprims). */
export function legacyPrimRadius(scale: readonly number[], settings: Partial<LinkabilitySettings> = {}): number {
  const clamp = assignDefaults(LINKABILITY_DEFAULTS, settings).legacyMegaprimClamp;
  const x = Math.min(Math.abs(scale[0]), clamp);
  const y = Math.min(Math.abs(scale[1]), clamp);
  const z = Math.min(Math.abs(scale[2]), clamp);
  return Math.hypot(x, y, z) / 2;
}

/** max_link_span = min(3 * (rA + rB) + LINK_BONUS, LARGEST_MAX), metres. [seed 000] formula (1) */
export function legacyMaxLinkSpan(
  radiusA: number,
  radiusB: number,
  settings: Partial<LinkabilitySettings> = {},
): number {
  const s = assignDefaults(LINKABILITY_DEFAULTS, settings);
  return Math.min(s.legacyRadiusFactor * (radiusA + radiusB) + s.legacyLinkBonus, s.legacyLargestMax);
}

/** A linked group: its prims and the smallest sphere enclosing their bounding spheres. */
interface Group {
  members: number[];
  cx: number;
  cy: number;
  cz: number;
  r: number;
}

/**
 * Legacy (pre-2010) linkability of `prims`; the first prim is the root.
 * @param settings overrides of LINKABILITY_DEFAULTS (legacyLinkBonus 2, legacyMegaprimClamp 10, legacyRadiusFactor 3, legacyLargestMax 54).
 */
export function linkabilityLegacy(
  prims: readonly LegacyPrim[],
  settings: Partial<LinkabilitySettings> = {},
): LinkabilityLegacy {
  const s = assignDefaults(LINKABILITY_DEFAULTS, settings);
  const n = prims.length;
  // 1. Every prim's bounding sphere.
  const centres = new Float64Array(3 * n);
  const radii = new Float64Array(n);
  prims.forEach((p, i) => {
    if (p.center.length < 3 || p.scale.length < 3)
      throw new SlmeshError('INPUT_INVALID', `prim ${i} needs a centre and a scale of 3 components`);
    centres[3 * i] = p.center[0];
    centres[3 * i + 1] = p.center[1];
    centres[3 * i + 2] = p.center[2];
    radii[i] = legacyPrimRadius(p.scale, s);
  });
  if (n === 0)
    return { ok: true, rule: 'legacy', prims: 0, span: 0, limit: s.legacyLargestMax, linkedCount: 0, linked: [] };

  const single = (i: number): Group => ({
    members: [i],
    cx: centres[3 * i],
    cy: centres[3 * i + 1],
    cz: centres[3 * i + 2],
    r: radii[i],
  });
  const canLink = (a: Group, b: Group): boolean => {
    const d = Math.hypot(a.cx - b.cx, a.cy - b.cy, a.cz - b.cz);
    return d + a.r + b.r <= legacyMaxLinkSpan(a.r, b.r, s);
  };
  const merge = (a: Group, b: Group): Group => {
    const members = [...a.members, ...b.members];
    const c = new Float64Array(3 * members.length);
    const r = new Float64Array(members.length);
    members.forEach((m, k) => {
      c[3 * k] = centres[3 * m];
      c[3 * k + 1] = centres[3 * m + 1];
      c[3 * k + 2] = centres[3 * m + 2];
      r[k] = radii[m];
    });
    const sphere = minEnclosingSphereOfSpheres(c, r);
    return { members, cx: sphere.center[0], cy: sphere.center[1], cz: sphere.center[2], r: sphere.radius };
  };

  let root = single(0);
  let candidates: Group[] = [];
  for (let i = 1; i < n; i++) candidates.push(single(i));

  for (let changed = true; changed && candidates.length > 0; ) {
    changed = false;
    // 2. The root against each candidate, growing after each link.
    const left: Group[] = [];
    for (const g of candidates) {
      if (canLink(root, g)) {
        root = merge(root, g);
        changed = true;
      } else {
        left.push(g);
      }
    }
    // 3. The remaining candidates among themselves.
    candidates = [];
    for (const g of left) {
      let merged = g;
      for (let k = 0; k < candidates.length; k++) {
        if (canLink(candidates[k], merged)) {
          merged = merge(candidates[k], merged);
          candidates.splice(k, 1);
          k = -1; // the grown group may now reach earlier ones
          changed = true;
        }
      }
      candidates.push(merged);
    }
  }

  const linked = [...root.members].sort((a, b) => a - b);
  const result: LinkabilityLegacy = {
    ok: candidates.length === 0,
    rule: 'legacy',
    prims: n,
    span: 2 * root.r,
    limit: s.legacyLargestMax,
    linkedCount: root.members.length,
    linked,
  };
  if (candidates.length > 0) {
    result.groups = candidates.map((g) => [...g.members].sort((a, b) => a - b));
    result.reason = `${n - root.members.length} of ${n} prims cannot be linked to the root under the legacy rule`;
  }
  return result;
}
