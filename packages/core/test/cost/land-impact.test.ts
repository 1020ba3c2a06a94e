import { describe, expect, it } from 'vitest';
import { landImpact } from '../../src/cost/land-impact.js';

describe('landImpact', () => {
  it('is the largest of download, physics and server weight', () => {
    expect(landImpact({ streaming: 3.2, physics: 1.1, server: 0.5 })).toEqual({
      exact: 3.2,
      rounded: 3,
      dominant: 'download',
    });
    expect(landImpact({ streaming: 0.3, physics: 1.628, server: 0.5 })).toEqual({
      exact: 1.628,
      rounded: 2,
      dominant: 'physics',
    });
    expect(landImpact({ streaming: 0.3, physics: 0.36, server: 0.5 })).toEqual({
      exact: 0.5,
      rounded: 1,
      dominant: 'server',
    });
  });

  it('rounds half up', () => {
    expect(landImpact({ streaming: 1.5, physics: 0, server: 0 }).rounded).toBe(2);
    expect(landImpact({ streaming: 2.4999, physics: 0, server: 0 }).rounded).toBe(2);
    expect(landImpact({ streaming: 0.49, physics: 0, server: 0 }).rounded).toBe(0);
  });

  it('on a tie names download first, then physics', () => {
    expect(landImpact({ streaming: 2, physics: 2, server: 2 }).dominant).toBe('download');
    expect(landImpact({ streaming: 1, physics: 2, server: 2 }).dominant).toBe('physics');
  });
});
