import { describe, expect, it } from 'vitest';
import { assignDefaults, convexHullPhysicsCost, linkabilityCurrent, serverWeight, streamingCost } from '@slmesh/core';

describe('assignDefaults', () => {
  it('takes the default for a missing or undefined option, keeps given values (null included)', () => {
    const d = { a: 1, b: 'x', c: true as boolean | null };
    expect(assignDefaults(d, { a: undefined, b: 'y' })).toEqual({ a: 1, b: 'y', c: true });
    expect(assignDefaults(d, { c: null })).toEqual({ a: 1, b: 'x', c: null });
    expect(assignDefaults(d, undefined)).toEqual(d);
    expect(d).toEqual({ a: 1, b: 'x', c: true });
  });

  it('an option passed as undefined prices as if it were left out (it used to replace the default)', () => {
    const far = [0, 0, 0, 100, 0, 0];
    expect(linkabilityCurrent(far, { maxSpan: undefined }).ok).toBe(false);
    expect(linkabilityCurrent(far, { maxSpan: undefined }).limit).toBe(linkabilityCurrent(far).limit);
    expect(serverWeight(3, 0, { perPrim: undefined })).toBe(serverWeight(3, 0));
    expect(convexHullPhysicsCost(100, { hullCostPerVertex: undefined })).toBe(convexHullPhysicsCost(100));
    const bytes = { high: 20_000, medium: 5_000, low: 1_000, lowest: 300 };
    expect(streamingCost(bytes, 2, { metadataDiscount: undefined })).toEqual(streamingCost(bytes, 2));
    expect(Number.isFinite(streamingCost(bytes, 2, { metadataDiscount: undefined }).streaming)).toBe(true);
  });
});
