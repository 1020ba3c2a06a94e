/**
 * Grouping of equal fixed-width keys by a hash table: the welds of the LOD generator and the
 * importer's vertex remap (asset/importer-remap.ts); and the hash and equality of whole byte
 * arrays by which ByteMemo (geometry/byte-memo.ts) remembers its inputs and sameLod
 * (geometry/object-geometry.ts) compares LODs.
 */

/** The bytes of a typed array, without a copy. */
export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** FNV-1a over the bytes as little-endian 32-bit words (plus the tail), then a final mix. */
export function hashBytes(data: Uint8Array): number {
  let h = 0x811c9dc5 ^ data.length;
  const words = Math.floor(data.length / 4);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < words; i++) h = Math.imul(h ^ view.getUint32(i * 4, true), 0x01000193);
  for (let i = words * 4; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
  h ^= h >>> 15;
  return h >>> 0;
}

/** True when the two byte arrays are equal, byte for byte. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (a.buffer === b.buffer && a.byteOffset === b.byteOffset) return true;
  // Four bytes at a time where both start on a word (every typed array's own buffer does).
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = Math.floor(a.length / 4);
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (let w = 0; w < words; w++) if (wa[w] !== wb[w]) return false;
    i = words * 4;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

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
