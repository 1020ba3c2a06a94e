/**
 * A number as diagnostics and reasons print it: no decimals from 100 up, two from 1 up, else two
 * significant digits (145, 1.23, 0.0029).
 */
export function shortNumber(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2);
}

/**
 * Two weights compared in a message, "a against b": three decimals, or as many more (up to 9) as
 * it takes for them to differ when they do. A decision taken on 55.7514 against 55.7511 read
 * "55.751 against 55.751", which looks like no reason at all.
 */
export function weightsAgainst(a: number, b: number): string {
  let digits = 3;
  while (digits < 9 && a !== b && a.toFixed(digits) === b.toFixed(digits)) digits++;
  return `${a.toFixed(digits)} against ${b.toFixed(digits)}`;
}
