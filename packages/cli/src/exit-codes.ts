/**
 * Exit statuses of every slmesh command (documented in docs/errors.md):
 * 0 success; 1 a check failed (a budget was exceeded: `slmesh check`); 2 the input, the options
 * or a budget file could not be used; 70 an internal error; 130 cancelled (Ctrl-C) (a bug: please report it).
 */

import type { SlmeshErrorCode } from '@slmesh/core';

export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_INPUT = 2;
export const EXIT_INTERNAL = 70;
/** Cancelled with Ctrl-C (the shell's 128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

export function exitCodeFor(code: SlmeshErrorCode): number {
  switch (code) {
    case 'INPUT_UNREADABLE':
    case 'INPUT_INVALID':
    case 'INPUT_LIMIT':
    case 'INPUT_UNSAFE':
    case 'ASSET_INVALID':
    case 'LLSD_INVALID':
    case 'USAGE':
    case 'OUTPUT_UNWRITABLE':
      return EXIT_INPUT;
  }
}
