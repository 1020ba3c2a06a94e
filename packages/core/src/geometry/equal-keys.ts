/**
 * Grouping of equal fixed-width keys by a hash table: the welds of the LOD generator and the
 * importer's vertex remap (asset/importer-remap.ts).
 */

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Groups equal keys (`w` 32-bit words each): returns for each key the index of the first key
 * equal to it.
 */
export function firstOfEqualKeys(words: Uint32Array, w: number, n: number): Uint32Array {
  let cap = 16;
  while (cap < n * 2) cap <<= 1;
  const table = new Int32Array(cap).fill(-1);
  const first = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x9747b28c;
    const o = i * w;
    for (let k = 0; k < w; k++) h = Math.imul(h ^ words[o + k], 0x01000193);
    let slot = fmix(h) & (cap - 1);
    for (;;) {
      const j = table[slot];
      if (j < 0) {
        table[slot] = i;
        first[i] = i;
        break;
      }
      let same = true;
      const q = j * w;
      for (let k = 0; k < w; k++) {
        if (words[o + k] !== words[q + k]) {
          same = false;
          break;
        }
      }
      if (same) {
        first[i] = first[j];
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
  }
  return first;
}
