/**
 * Decompositions kept for the copies of a part. In a linkset, each copy of a part gets its own
 * physics build: its neighbours differ, so its opening test and its choice of shape can too. The
 * decomposition itself does not depend on them. It depends only on the part's world-size surface
 * and the settings, so buildPhysics takes it from here for the next copy instead of cutting the
 * same solid again. Example: 800 icospheres of 1,280 triangles, each one decomposed because its
 * hull set its land impact.
 *
 * Guarantees: `take` returns what `make` returned for byte-identical positions and indices and the
 * same settings key (a hit is confirmed byte by byte, never by hash alone); a `make` that throws
 * (a cancel) leaves nothing behind. Memory: at most `maxBytes` of surfaces and hulls are kept (the
 * least recently taken go first, the newest always stays), so a long-lived memo (optimize's
 * physics worker, which serves build after build) stays bounded.
 */

import { ByteMemo } from '../geometry/byte-memo.js';
import { bytesOf } from '../geometry/equal-keys.js';
import type { DecompositionResult } from './decompose.js';

/** Default bound of a memo: 64 MiB of surfaces and hulls (a 20,000-triangle part holds about 0.5 MiB). */
export const DECOMPOSITION_MEMO_BYTES = 64 * 1024 * 1024;

export class DecompositionMemo {
  private readonly memo: ByteMemo<DecompositionResult>;

  constructor(maxBytes = DECOMPOSITION_MEMO_BYTES) {
    this.memo = new ByteMemo(
      maxBytes,
      ([p, ix], result) => p.byteLength + ix.byteLength + result.hulls.reduce((a, h) => a + h.byteLength, 0),
    );
  }

  /** Bytes held: the surfaces' and the hulls' (tests). */
  get bytes(): number {
    return this.memo.weight;
  }

  /**
   * The decomposition of this surface (world-size positions, three indices per triangle) under
   * these settings (`settings`: a key that names every setting the decomposition reads), made by
   * `make` the first time.
   */
  take(
    positions: Float32Array,
    indices: Uint32Array,
    settings: string,
    make: () => DecompositionResult,
  ): DecompositionResult {
    return this.memo.take([bytesOf(positions), bytesOf(indices)], settings, make);
  }
}
