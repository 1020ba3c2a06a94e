/**
 * How the page writes numbers: weights with three decimals, as the viewer's upload floater and
 * `slmesh cost` do; distances and sizes in metres with precision by magnitude.
 */

/** A weight (download, physics, server, land impact): three decimals. */
export function weight(n: number): string {
  return n.toFixed(3);
}

/** A count with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Metres, with a precision that suits the magnitude; `never` for an infinite distance. */
export function metres(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return 'never';
  const a = Math.abs(n);
  if (a >= 100) return `${n.toFixed(0)} m`;
  if (a >= 10) return `${n.toFixed(1)} m`;
  if (a >= 1) return `${n.toFixed(2)} m`;
  if (a >= 0.1) return `${n.toFixed(3)} m`;
  return `${n.toPrecision(2)} m`;
}

/** A size x × y × z, metres. */
export function size3(v: readonly number[]): string {
  return `${v.map((x) => (x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2))).join(' × ')} m`;
}

/** A number for an <input>: up to 4 significant digits, no exponent for the usual range. */
export function inputNumber(n: number): string {
  const s = Number(n.toPrecision(4));
  return String(s);
}
