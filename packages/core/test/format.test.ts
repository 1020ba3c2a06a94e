import { describe, expect, it } from 'vitest';
import { shortNumber, weightsAgainst } from '@slmesh/core';

describe('weightsAgainst', () => {
  it('prints three decimals when they already tell the weights apart', () => {
    expect(weightsAgainst(29.36, 21.953)).toBe('29.360 against 21.953');
  });

  it('prints as many more as it takes for two close weights to differ (55.7514 against 55.7511)', () => {
    expect(weightsAgainst(55.7514, 55.7511)).toBe('55.7514 against 55.7511');
    expect(weightsAgainst(1.0000002, 1.0000001)).toBe('1.0000002 against 1.0000001');
  });

  it('stops at nine decimals, and at three for equal weights', () => {
    expect(weightsAgainst(2, 2)).toBe('2.000 against 2.000');
    expect(weightsAgainst(1 + 1e-12, 1)).toBe('1.000000000 against 1.000000000');
  });
});

describe('shortNumber', () => {
  it('prints no decimals from 100 up, two from 1 up, else two significant digits', () => {
    expect([145.4, 1.234, 0.00291].map(shortNumber)).toEqual(['145', '1.23', '0.0029']);
  });
});
