/** Parsing of command-line option values shared by the commands: bad values are USAGE errors (exit 2). */

import { SlmeshError } from '@slmesh/core';

/** A positive finite number, or a one-line USAGE error naming the option. */
export function positive(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new SlmeshError('USAGE', `${what} must be a positive number, got "${value}"`);
  return n;
}
