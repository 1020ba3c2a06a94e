import { describe, expect, it } from 'vitest';
import { principalAxes } from '../../src/geometry/principal-axes.js';

describe('principalAxes', () => {
  it('finds the long, middle and short axes of a rotated box of points', () => {
    const c = Math.cos(0.5),
      s = Math.sin(0.5);
    const pts: number[] = [];
    for (let i = 0; i < 8; i++) {
      const x = i & 1 ? 3 : -3,
        y = i & 2 ? 1 : -1,
        z = i & 4 ? 0.2 : -0.2;
      pts.push(c * x - s * y + 10, s * x + c * y, z);
    }
    const pa = principalAxes(pts);
    expect(pa.center[0]).toBeCloseTo(10, 12);
    expect(Math.abs(pa.axes[0][0] * c + pa.axes[0][1] * s)).toBeCloseTo(1, 9);
    expect(Math.abs(pa.axes[2][2])).toBeCloseTo(1, 9);
    expect(pa.variances[0]).toBeGreaterThan(pa.variances[1]);
    expect(pa.variances[1]).toBeGreaterThan(pa.variances[2]);
  });
});
