import { describe, expect, it } from 'vitest';
import { serverWeight } from '../../src/cost/server-weight.js';

describe('serverWeight', () => {
  it('is 0.5 per prim plus 0.25 per script after the first, at most 1 per prim', () => {
    expect(serverWeight(1)).toBe(0.5);
    expect(serverWeight(1, 1)).toBe(0.5);
    expect(serverWeight(1, 2)).toBe(0.75);
    expect(serverWeight(1, 3)).toBe(1);
    expect(serverWeight(1, 10)).toBe(1);
    expect(serverWeight(10, 5)).toBe(6);
    expect(serverWeight(4, 100)).toBe(4);
    expect(serverWeight(0)).toBe(0);
  });

  it('takes other coefficients as settings', () => {
    expect(serverWeight(2, 3, { perPrim: 0.25, perExtraScript: 0.5 })).toBe(1.5);
  });
});
