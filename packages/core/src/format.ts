/**
 * A number as diagnostics and reasons print it: no decimals from 100 up, two from 1 up, else two
 * significant digits (145, 1.23, 0.0029).
 */
export function shortNumber(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2);
}
