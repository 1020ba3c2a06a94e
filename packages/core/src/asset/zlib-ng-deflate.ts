/**
 * A pure-TypeScript zlib (RFC 1950 / RFC 1951) compressor that reproduces zlib-ng 2.2.2 at
 * level 9: the compressor the Second Life viewer links (zlib-compat mode) and calls as
 * `deflateInit(&strm, Z_BEST_COMPRESSION)` + one `deflate(Z_FINISH)` per mesh-asset block.
 *
 * Guarantees:
 * - the output is byte-identical to zlib-ng 2.2.2 `deflateInit2(level 9, Z_DEFLATED, windowBits
 *   15, memLevel 8, Z_DEFAULT_STRATEGY)` followed by a single `deflate(Z_FINISH)` over the whole
 *   input (zlib header 78 DA, Adler-32 trailer); checked against vectors written by the real
 *   library (packages/core/test/vectors/zlib-ng, tools/zlib-ng-vectors);
 * - no Node imports, no global state besides constant tables: runs in browsers and workers;
 * - the input is never modified.
 *
 * Only level 9 is implemented; any other level is refused (RangeError), so a caller can never
 * get "zlib-ng level 6" that is really something else.
 *
 * The algorithm is the one zlib-ng describes in (facts taken from those files, code written here):
 * - deflate_slow.c: lazy matching (a match is kept only if the next position has no longer one);
 * - deflate.c: configuration table (level 9: good 32, lazy 258, nice 258, chain 4096),
 *   lm_set_level (chain > 1024 selects the rolling hash), fill_window (window sliding, the hash
 *   re-seeding on every read), the zlib header and trailer;
 * - insert_string_roll.c + insert_string_tpl.h: the rolling hash h = ((h << 5) ^ byte) & 0x7fff
 *   over the third byte of each string, and the head/prev chain update;
 * - match_tpl.h (LONGEST_MATCH_SLOW): longest_match_slow, which walks the most distant of the
 *   hash chains of the match's substrings;
 * - deflate_p.h: tally and the symbol buffer (lit_bufsize 16384, a block is flushed at 16383
 *   symbols); trees.c + trees_emit.h: Huffman trees (heap, depth tie-break, bit-length overflow
 *   fix-up), bl_order, and the stored / static / dynamic choice;
 * - arch/generic/slide_hash_c.c: the saturating slide of head and prev.
 * The architecture variants (SSE2/AVX2 compare256, AVX2 slide_hash) compute the same values, so
 * the generic build and the x86 build produce the same bytes.
 */

// 1. Parameters of level 9, windowBits 15, memLevel 8.
const W_SIZE = 1 << 15;
const W_MASK = W_SIZE - 1;
const WINDOW_SIZE = 2 * W_SIZE;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
const WANT_MIN_MATCH = 4;
const MIN_LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1;
const MAX_DIST = W_SIZE - MIN_LOOKAHEAD;
const ROLL_MASK = 0x7fff;
const GOOD_MATCH = 32;
const MAX_LAZY = 258;
const NICE_MATCH = 258;
const MAX_CHAIN = 4096;
const LIT_BUFSIZE = 1 << (8 + 6);
const SYM_END = LIT_BUFSIZE - 1;

// 2. Deflate alphabet sizes and tables (RFC 1951 section 3.2.5).
const LITERALS = 256;
const END_BLOCK = 256;
const LENGTH_CODES = 29;
const L_CODES = LITERALS + 1 + LENGTH_CODES;
const D_CODES = 30;
const BL_CODES = 19;
const HEAP_SIZE = 2 * L_CODES + 1;
const MAX_BITS = 15;
const MAX_BL_BITS = 7;
const REP_3_6 = 16;
const REPZ_3_10 = 17;
const REPZ_11_138 = 18;
const STORED_BLOCK = 0;
const STATIC_TREES = 1;
const DYN_TREES = 2;

const EXTRA_LBITS = Uint8Array.of(
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  1,
  1,
  1,
  1,
  2,
  2,
  2,
  2,
  3,
  3,
  3,
  3,
  4,
  4,
  4,
  4,
  5,
  5,
  5,
  5,
  0,
);
const EXTRA_DBITS = Uint8Array.of(
  0,
  0,
  0,
  0,
  1,
  1,
  2,
  2,
  3,
  3,
  4,
  4,
  5,
  5,
  6,
  6,
  7,
  7,
  8,
  8,
  9,
  9,
  10,
  10,
  11,
  11,
  12,
  12,
  13,
  13,
);
const EXTRA_BLBITS = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7);
const BL_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** Length code (0..28) of each match length - 3, and each code's base length - 3. */
const LENGTH_CODE = new Uint8Array(256);
const BASE_LENGTH = new Uint16Array(LENGTH_CODES);
/** Distance code of distance - 1: DIST_CODE[d] for d < 256, else DIST_CODE[256 + (d >> 7)]. */
const DIST_CODE = new Uint8Array(512);
const BASE_DIST = new Uint16Array(D_CODES);
/** The fixed Huffman codes (RFC 1951 3.2.6), bit-reversed for LSB-first output. */
const STATIC_LTREE_LEN = new Uint16Array(L_CODES + 2);
const STATIC_LTREE_CODE = new Uint16Array(L_CODES + 2);
const STATIC_DTREE_LEN = new Uint16Array(D_CODES);
const STATIC_DTREE_CODE = new Uint16Array(D_CODES);

function reverseBits(code: number, len: number): number {
  let r = 0;
  for (let i = 0; i < len; i++) {
    r = (r << 1) | (code & 1);
    code >>>= 1;
  }
  return r;
}

/** Canonical codes from code lengths (RFC 1951 3.2.2), bit-reversed. */
function canonicalCodes(
  len: ArrayLike<number>,
  maxCode: number,
  blCount: ArrayLike<number>,
  codeOut: Uint16Array,
): void {
  const nextCode = new Uint16Array(MAX_BITS + 1);
  let code = 0;
  for (let bits = 1; bits <= MAX_BITS; bits++) {
    code = (code + blCount[bits - 1]) << 1;
    nextCode[bits] = code;
  }
  for (let n = 0; n <= maxCode; n++) {
    const l = len[n];
    if (l !== 0) codeOut[n] = reverseBits(nextCode[l]++, l);
  }
}

function initTables(): void {
  // 2a. Lengths: codes 0..27 cover lengths 3..258 in runs of 2^extra; 258 alone gets code 28.
  let length = 0;
  for (let code = 0; code < LENGTH_CODES - 1; code++) {
    BASE_LENGTH[code] = length;
    for (let n = 0; n < 1 << EXTRA_LBITS[code]; n++) LENGTH_CODE[length++] = code;
  }
  LENGTH_CODE[255] = LENGTH_CODES - 1;
  // 2b. Distances: the first 256 one by one, the rest in steps of 128.
  let dist = 0;
  for (let code = 0; code < 16; code++) {
    BASE_DIST[code] = dist;
    for (let n = 0; n < 1 << EXTRA_DBITS[code]; n++) DIST_CODE[dist++] = code;
  }
  dist >>= 7;
  for (let code = 16; code < D_CODES; code++) {
    BASE_DIST[code] = dist << 7;
    for (let n = 0; n < 1 << (EXTRA_DBITS[code] - 7); n++) DIST_CODE[256 + dist++] = code;
  }
  // 2c. Fixed trees.
  const blCount = new Uint16Array(MAX_BITS + 1);
  for (let n = 0; n < L_CODES + 2; n++) {
    const l = n < 144 ? 8 : n < 256 ? 9 : n < 280 ? 7 : 8;
    STATIC_LTREE_LEN[n] = l;
    blCount[l]++;
  }
  canonicalCodes(STATIC_LTREE_LEN, L_CODES + 1, blCount, STATIC_LTREE_CODE);
  for (let n = 0; n < D_CODES; n++) {
    STATIC_DTREE_LEN[n] = 5;
    STATIC_DTREE_CODE[n] = reverseBits(n, 5);
  }
}
initTables();

function distCode(distMinus1: number): number {
  return distMinus1 < 256 ? DIST_CODE[distMinus1] : DIST_CODE[256 + (distMinus1 >> 7)];
}

// 3. State.

/** One Huffman tree being built: leaves 0..elems-1, internal nodes above. */
interface Tree {
  freq: Uint16Array;
  len: Uint16Array;
  code: Uint16Array;
  dad: Uint16Array;
  maxCode: number;
  elems: number;
  maxLength: number;
  extra: Uint8Array;
  extraBase: number;
  staticLen: Uint16Array | null;
}

function newTree(
  elems: number,
  maxLength: number,
  extra: Uint8Array,
  extraBase: number,
  staticLen: Uint16Array | null,
): Tree {
  const size = 2 * elems + 1;
  return {
    freq: new Uint16Array(size),
    len: new Uint16Array(size),
    code: new Uint16Array(size),
    dad: new Uint16Array(size),
    maxCode: 0,
    elems,
    maxLength,
    extra,
    extraBase,
    staticLen,
  };
}

interface State {
  input: Uint8Array;
  inPos: number;
  window: Uint8Array;
  /** quad[i] = window[i..i+3] little-endian (bytes past the window 0): 4-byte compares in longestMatch. */
  quad: Int32Array;
  prev: Uint16Array;
  head: Uint16Array;
  insH: number;
  strstart: number;
  blockStart: number;
  lookahead: number;
  insert: number;
  prevLength: number;
  matchAvailable: boolean;
  matchStart: number;
  prevMatch: number;
  // Symbol buffer: distance (0 for a literal) and literal or length - 3.
  dBuf: Uint16Array;
  lBuf: Uint8Array;
  symNext: number;
  // Trees and their scratch space.
  ltree: Tree;
  dtree: Tree;
  bltree: Tree;
  heap: Int32Array;
  heapLen: number;
  heapMax: number;
  depth: Uint8Array;
  blCount: Uint16Array;
  optLen: number;
  staticLen: number;
  // Output: LSB-first bit buffer over a growable byte array.
  out: Uint8Array;
  outPos: number;
  bitBuf: number;
  bitCount: number;
  /** Counting only (zlibNgDeflatedLength): no output; `bits` is the stream's length so far. */
  countOnly: boolean;
  bits: number;
}

function newState(input: Uint8Array, countOnly = false): State {
  const n = input.length;
  // A block that can never slide the window (the window slides only once strstart reaches
  // W_SIZE + MAX_DIST) gets a window just past its end: longest_match reads at most MAX_MATCH + 3
  // bytes past strstart, and those past the data are zero, as in zlib-ng's zeroed window.
  const windowLength = n + MAX_MATCH + 16 < W_SIZE + MAX_DIST ? n + MAX_MATCH + 16 : WINDOW_SIZE;
  const symbols = Math.min(LIT_BUFSIZE, n + 2);
  return {
    input,
    inPos: 0,
    window: new Uint8Array(windowLength),
    quad: new Int32Array(windowLength),
    prev: new Uint16Array(Math.min(W_SIZE, n + 1)),
    head: new Uint16Array(ROLL_MASK + 1),
    insH: 0,
    strstart: 0,
    blockStart: 0,
    lookahead: 0,
    insert: 0,
    prevLength: 0,
    matchAvailable: false,
    matchStart: 0,
    prevMatch: 0,
    dBuf: new Uint16Array(symbols),
    lBuf: new Uint8Array(symbols),
    symNext: 0,
    ltree: newTree(L_CODES, MAX_BITS, EXTRA_LBITS, LITERALS + 1, STATIC_LTREE_LEN),
    dtree: newTree(D_CODES, MAX_BITS, EXTRA_DBITS, 0, STATIC_DTREE_LEN),
    bltree: newTree(BL_CODES, MAX_BL_BITS, EXTRA_BLBITS, 0, null),
    heap: new Int32Array(HEAP_SIZE),
    heapLen: 0,
    heapMax: 0,
    depth: new Uint8Array(HEAP_SIZE),
    blCount: new Uint16Array(MAX_BITS + 1),
    optLen: 0,
    staticLen: 0,
    // zlib's conservative bound (stored data plus block overhead) plus header and trailer.
    out: new Uint8Array(countOnly ? 0 : n + ((n + 7) >> 3) + ((n + 63) >> 6) + 5 + 6 + 16),
    outPos: 0,
    bitBuf: 0,
    bitCount: 0,
    countOnly,
    bits: 0,
  };
}

// 4. Output.

function ensureOut(s: State, extra: number): void {
  if (s.outPos + extra <= s.out.length) return;
  const bigger = new Uint8Array(Math.max(s.out.length * 2, s.outPos + extra + 64));
  bigger.set(s.out.subarray(0, s.outPos));
  s.out = bigger;
}

function putByte(s: State, b: number): void {
  if (s.outPos >= s.out.length) ensureOut(s, 1);
  s.out[s.outPos++] = b;
}

/** Appends `len` (<= 16) bits of `value`, least significant first. */
function sendBits(s: State, value: number, len: number): void {
  s.bitBuf |= value << s.bitCount;
  s.bitCount += len;
  while (s.bitCount >= 8) {
    putByte(s, s.bitBuf & 0xff);
    s.bitBuf >>>= 8;
    s.bitCount -= 8;
  }
}

/** Pads with zero bits to a byte boundary (bi_windup). */
function alignToByte(s: State): void {
  if (s.bitCount > 0) putByte(s, s.bitBuf & 0xff);
  s.bitBuf = 0;
  s.bitCount = 0;
}

// 5. Window, hash chains.

/** Recomputes quad[from..to) from the window. */
function updateQuads(s: State, from: number, to: number): void {
  const win = s.window,
    quad = s.quad;
  if (from < 0) from = 0;
  if (to > quad.length) to = quad.length;
  let q =
    byteAt(win, from) | (byteAt(win, from + 1) << 8) | (byteAt(win, from + 2) << 16) | (byteAt(win, from + 3) << 24);
  for (let i = from; i < to; i++) {
    quad[i] = q;
    q = (q >>> 8) | (byteAt(win, i + 4) << 24);
  }
}

/** The window's byte at i, 0 past its end. (One function, not a closure per call: a new closure each call is a new call target, which throws compiled callers away.) */
function byteAt(win: Uint8Array, i: number): number {
  return i < win.length ? win[i] : 0;
}

/**
 * Slides head and prev down by W_SIZE, saturating at 0 (slide_hash). W_SIZE is 0x8000, so a
 * position is at least W_SIZE exactly when its bit 15 is set, and then m - W_SIZE = m & 0x7fff:
 * two positions at a time in a 32-bit word, without a branch (on real data that branch goes
 * either way at random; mispredicted, it made this loop a fifth of the deflate's time).
 */
function slideHash(table: Uint16Array): void {
  const words = new Uint32Array(table.buffer, table.byteOffset, table.length >> 1);
  for (let i = 0; i < words.length; i++) {
    const x = words[i];
    words[i] = x & (((x & 0x80008000) >>> 15) * 0x7fff);
  }
  if (table.length & 1) {
    const m = table[table.length - 1];
    table[table.length - 1] = m & ((m >>> 15) * 0x7fff);
  }
}

/** fill_window for a single Z_FINISH call with all input available. */
function fillWindow(s: State): void {
  const win = s.window;
  do {
    let more = WINDOW_SIZE - s.lookahead - s.strstart;
    // 5a. Slide the upper half down when strstart is too far in.
    if (s.strstart >= W_SIZE + MAX_DIST) {
      win.copyWithin(0, W_SIZE, WINDOW_SIZE);
      s.quad.copyWithin(0, W_SIZE, WINDOW_SIZE);
      updateQuads(s, W_SIZE - 3, W_SIZE);
      if (s.matchStart >= W_SIZE) {
        s.matchStart -= W_SIZE;
      } else {
        s.matchStart = 0;
        s.prevLength = 0;
      }
      s.strstart -= W_SIZE;
      s.blockStart -= W_SIZE;
      if (s.insert > s.strstart) s.insert = s.strstart;
      slideHash(s.head);
      slideHash(s.prev);
      more += W_SIZE;
    }
    const avail = s.input.length - s.inPos;
    if (avail === 0) break;
    // 5b. Read as much as fits.
    const n = Math.min(avail, more);
    win.set(s.input.subarray(s.inPos, s.inPos + n), s.strstart + s.lookahead);
    updateQuads(s, s.strstart + s.lookahead - 3, s.strstart + s.lookahead + n);
    s.inPos += n;
    s.lookahead += n;
    // 5c. Re-seed the rolling hash with the two bytes at the insert point.
    if (s.lookahead + s.insert >= MIN_MATCH) {
      const str = s.strstart - s.insert;
      s.insH = ((win[str] << 5) ^ win[str + 1]) & ROLL_MASK;
      // s.insert is 0 for a one-shot Z_FINISH: there are never pending strings to insert here.
    }
  } while (s.lookahead < MIN_LOOKAHEAD && s.inPos < s.input.length);
  // The bytes past the data that longest_match may read are zero (fresh window) or old window
  // content, exactly as in zlib-ng, whose high-water zeroing only touches never-written bytes.
}

/** Inserts the string at `str` (hashing its third byte) and returns the previous chain head. */
function quickInsert(s: State, str: number): number {
  const h = ((s.insH << 5) ^ s.window[str + 2]) & ROLL_MASK;
  s.insH = h;
  const head = s.head[h];
  if (head !== str) {
    s.prev[str & W_MASK] = head;
    s.head[h] = str;
  }
  return head;
}

function insertStrings(s: State, str: number, count: number): void {
  const win = s.window,
    headArr = s.head,
    prev = s.prev;
  let h = s.insH;
  for (let idx = str, end = str + count; idx < end; idx++) {
    h = ((h << 5) ^ win[idx + 2]) & ROLL_MASK;
    const head = headArr[h];
    if (head !== idx) {
      prev[idx & W_MASK] = head;
      headArr[h] = idx;
    }
  }
  s.insH = h;
}

// 6. longest_match_slow.

function clampToLookahead(s: State, bestLen: number): number {
  return bestLen < s.lookahead ? bestLen : s.lookahead;
}

/**
 * The longest match for the string at strstart, at most MAX_MATCH and at most the lookahead;
 * sets matchStart when it finds one longer than prevLength. The candidate chain followed is the
 * most distant of the chains of the string's substrings (cur = chain position, offset = which
 * substring), so each candidate is at cur - offset.
 */
function longestMatch(s: State, firstMatch: number): number {
  const win = s.window,
    quad = s.quad,
    prev = s.prev,
    head = s.head;
  const strstart = s.strstart;
  const lookahead = s.lookahead;
  let cur = firstMatch;
  let bestLen = s.prevLength ? s.prevLength : MIN_MATCH - 1;
  let chain = bestLen >= GOOD_MATCH ? MAX_CHAIN >> 2 : MAX_CHAIN;
  const limitBase = strstart > MAX_DIST ? strstart - MAX_DIST : 0;
  let limit = limitBase;
  let offset = 0;

  // 6a. Lazy evaluation continuing a match: start from the most distant chain of its substrings.
  if (bestLen >= MIN_MATCH) {
    let h = ((win[strstart + 1] << 5) ^ win[strstart + 2]) & ROLL_MASK;
    for (let i = 3; i <= bestLen; i++) {
      h = ((h << 5) ^ win[strstart + i]) & ROLL_MASK;
      const pos = head[h];
      if (pos < cur) {
        offset = i - 2;
        cur = pos;
      }
    }
    limit = limitBase + offset;
    if (cur <= limit) return clampToLookahead(s, bestLen);
  }

  // A candidate can beat bestLen only if bytes 0..bestLen agree: the chain walk tests the first
  // and the last four of them (or bytes 0..2 while bestLen is 2), then the length is counted.
  const scan0 = win[strstart],
    scan1 = win[strstart + 1],
    scan2 = win[strstart + 2];
  const scanStartQ = quad[strstart];
  let scanEndQ = quad[strstart + bestLen - 3];
  for (;;) {
    if (cur >= strstart) return bestLen;
    // 6b. Walk the chain until a candidate could beat bestLen.
    let m = cur - offset;
    if (bestLen >= MIN_MATCH) {
      while (quad[m + bestLen - 3] !== scanEndQ || quad[m] !== scanStartQ) {
        if (--chain === 0) return bestLen;
        cur = prev[cur & W_MASK];
        if (cur <= limit) return bestLen;
        m = cur - offset;
      }
    } else {
      while (win[m + 2] !== scan2 || win[m] !== scan0 || win[m + 1] !== scan1) {
        if (--chain === 0) return bestLen;
        cur = prev[cur & W_MASK];
        if (cur <= limit) return bestLen;
        m = cur - offset;
      }
    }
    // 6c. Exact length (compare256 from byte 2), four bytes at a time, then byte by byte.
    let len = 2;
    while (len <= MAX_MATCH - 4 && quad[strstart + len] === quad[m + len]) len += 4;
    while (len < MAX_MATCH && win[strstart + len] === win[m + len]) len++;
    if (len > bestLen) {
      s.matchStart = m;
      if (len > lookahead) return lookahead;
      bestLen = len;
      if (bestLen >= NICE_MATCH) return bestLen;
      scanEndQ = quad[strstart + bestLen - 3];
      // 6d. Switch to the most distant chain among the match's substrings, or the one of its end.
      if (len > MIN_MATCH && m + len < strstart) {
        cur = m;
        offset = 0;
        let nextPos = cur;
        for (let i = 0; i <= len - MIN_MATCH; i++) {
          const pos = prev[(cur + i) & W_MASK];
          if (pos < nextPos) {
            if (pos <= limitBase + i) return clampToLookahead(s, bestLen);
            nextPos = pos;
            offset = i;
          }
        }
        cur = nextPos;
        const e = strstart + len - (MIN_MATCH + 1);
        let h = ((win[e] << 5) ^ win[e + 1]) & ROLL_MASK;
        h = ((h << 5) ^ win[e + 2]) & ROLL_MASK;
        const pos = head[h];
        if (pos < cur) {
          offset = len - (MIN_MATCH + 1);
          if (pos <= limitBase + offset) return clampToLookahead(s, bestLen);
          cur = pos;
        }
        limit = limitBase + offset;
        continue;
      }
    }
    // 6e. Next candidate on the chain.
    if (--chain === 0) return bestLen;
    cur = prev[cur & W_MASK];
    if (cur <= limit) return bestLen;
  }
}

// 7. Symbols and block flushing.

function tallyLit(s: State, c: number): boolean {
  s.dBuf[s.symNext] = 0;
  s.lBuf[s.symNext++] = c;
  s.ltree.freq[c]++;
  return s.symNext === SYM_END;
}

function tallyDist(s: State, dist: number, lenMinus3: number): boolean {
  s.dBuf[s.symNext] = dist;
  s.lBuf[s.symNext++] = lenMinus3;
  s.ltree.freq[LENGTH_CODE[lenMinus3] + LITERALS + 1]++;
  s.dtree.freq[distCode(dist - 1)]++;
  return s.symNext === SYM_END;
}

function initBlock(s: State): void {
  s.ltree.freq.fill(0, 0, L_CODES);
  s.dtree.freq.fill(0, 0, D_CODES);
  s.bltree.freq.fill(0, 0, BL_CODES);
  s.ltree.freq[END_BLOCK] = 1;
  s.optLen = 0;
  s.staticLen = 0;
  s.symNext = 0;
}

/** Node n sorts before m: lower frequency, then lower depth. */
function smaller(freq: Uint16Array, depth: Uint8Array, n: number, m: number): boolean {
  return freq[n] < freq[m] || (freq[n] === freq[m] && depth[n] <= depth[m]);
}

function pqDownHeap(s: State, freq: Uint16Array, k: number): void {
  const heap = s.heap,
    depth = s.depth;
  const v = heap[k];
  let j = k << 1;
  while (j <= s.heapLen) {
    if (j < s.heapLen && smaller(freq, depth, heap[j + 1], heap[j])) j++;
    if (smaller(freq, depth, v, heap[j])) break;
    heap[k] = heap[j];
    k = j;
    j <<= 1;
  }
  heap[k] = v;
}

/** Code lengths from the built tree, limited to maxLength (gen_bitlen); updates optLen/staticLen. */
function genBitLengths(s: State, t: Tree): void {
  const { freq, len, dad, maxCode, extra, extraBase, staticLen, maxLength } = t;
  const heap = s.heap,
    blCount = s.blCount;
  blCount.fill(0);
  len[heap[s.heapMax]] = 0;
  let overflow = 0;
  let h: number;
  for (h = s.heapMax + 1; h < HEAP_SIZE; h++) {
    const n = heap[h];
    let bits = len[dad[n]] + 1;
    if (bits > maxLength) {
      bits = maxLength;
      overflow++;
    }
    len[n] = bits;
    if (n > maxCode) continue;
    blCount[bits]++;
    const xbits = n >= extraBase ? extra[n - extraBase] : 0;
    const f = freq[n];
    s.optLen += f * (bits + xbits);
    if (staticLen) s.staticLen += f * (staticLen[n] + xbits);
  }
  if (overflow === 0) return;
  // 7a. Too-long codes: move leaves down until the counts fit, then reassign by frequency.
  do {
    let bits = maxLength - 1;
    while (blCount[bits] === 0) bits--;
    blCount[bits]--;
    blCount[bits + 1] += 2;
    blCount[maxLength]--;
    overflow -= 2;
  } while (overflow > 0);
  for (let bits = maxLength; bits !== 0; bits--) {
    let n = blCount[bits];
    while (n !== 0) {
      const m = heap[--h];
      if (m > maxCode) continue;
      if (len[m] !== bits) {
        s.optLen += (bits - len[m]) * freq[m];
        len[m] = bits;
      }
      n--;
    }
  }
}

/** build_tree: Huffman tree by repeatedly joining the two least frequent nodes. */
function buildTree(s: State, t: Tree): void {
  const { freq, len, dad, elems, staticLen } = t;
  const heap = s.heap,
    depth = s.depth;
  let maxCode = -1;
  s.heapLen = 0;
  s.heapMax = HEAP_SIZE;
  for (let n = 0; n < elems; n++) {
    if (freq[n] !== 0) {
      heap[++s.heapLen] = maxCode = n;
      depth[n] = 0;
    } else {
      len[n] = 0;
    }
  }
  // 7b. At least two codes, so that at least one bit is sent.
  while (s.heapLen < 2) {
    const node = maxCode < 2 ? ++maxCode : 0;
    heap[++s.heapLen] = node;
    freq[node] = 1;
    depth[node] = 0;
    s.optLen--;
    if (staticLen) s.staticLen -= staticLen[node];
  }
  t.maxCode = maxCode;
  for (let n = s.heapLen >> 1; n >= 1; n--) pqDownHeap(s, freq, n);
  let node = elems;
  do {
    const n = heap[1];
    heap[1] = heap[s.heapLen--];
    pqDownHeap(s, freq, 1);
    const m = heap[1];
    heap[--s.heapMax] = n;
    heap[--s.heapMax] = m;
    freq[node] = freq[n] + freq[m];
    depth[node] = (depth[n] >= depth[m] ? depth[n] : depth[m]) + 1;
    dad[n] = dad[m] = node;
    heap[1] = node++;
    pqDownHeap(s, freq, 1);
  } while (s.heapLen >= 2);
  heap[--s.heapMax] = heap[1];
  genBitLengths(s, t);
  canonicalCodes(len, maxCode, s.blCount, t.code);
}

/** scan_tree: bit-length-code frequencies of a tree's run-length encoded code lengths. */
function scanTree(s: State, t: Tree): void {
  const len = t.len,
    maxCode = t.maxCode,
    blFreq = s.bltree.freq;
  let prevLen = -1;
  let nextLen = len[0];
  let count = 0;
  let maxCount = nextLen === 0 ? 138 : 7;
  let minCount = nextLen === 0 ? 3 : 4;
  len[maxCode + 1] = 0xffff; // guard
  for (let n = 0; n <= maxCode; n++) {
    const curLen = nextLen;
    nextLen = len[n + 1];
    if (++count < maxCount && curLen === nextLen) continue;
    if (count < minCount) blFreq[curLen] += count;
    else if (curLen !== 0) {
      if (curLen !== prevLen) blFreq[curLen]++;
      blFreq[REP_3_6]++;
    } else if (count <= 10) blFreq[REPZ_3_10]++;
    else blFreq[REPZ_11_138]++;
    count = 0;
    prevLen = curLen;
    if (nextLen === 0) (maxCount = 138), (minCount = 3);
    else if (curLen === nextLen) (maxCount = 6), (minCount = 3);
    else (maxCount = 7), (minCount = 4);
  }
}

/** send_tree: the run-length encoded code lengths, with the bit-length code. */
function sendTree(s: State, t: Tree, maxCode: number): void {
  const len = t.len,
    blLen = s.bltree.len,
    blCode = s.bltree.code;
  let prevLen = -1;
  let nextLen = len[0];
  let count = 0;
  let maxCount = nextLen === 0 ? 138 : 7;
  let minCount = nextLen === 0 ? 3 : 4;
  for (let n = 0; n <= maxCode; n++) {
    const curLen = nextLen;
    nextLen = len[n + 1];
    if (++count < maxCount && curLen === nextLen) continue;
    if (count < minCount) {
      do sendBits(s, blCode[curLen], blLen[curLen]);
      while (--count !== 0);
    } else if (curLen !== 0) {
      if (curLen !== prevLen) {
        sendBits(s, blCode[curLen], blLen[curLen]);
        count--;
      }
      sendBits(s, blCode[REP_3_6], blLen[REP_3_6]);
      sendBits(s, count - 3, 2);
    } else if (count <= 10) {
      sendBits(s, blCode[REPZ_3_10], blLen[REPZ_3_10]);
      sendBits(s, count - 3, 3);
    } else {
      sendBits(s, blCode[REPZ_11_138], blLen[REPZ_11_138]);
      sendBits(s, count - 11, 7);
    }
    count = 0;
    prevLen = curLen;
    if (nextLen === 0) (maxCount = 138), (minCount = 3);
    else if (curLen === nextLen) (maxCount = 6), (minCount = 3);
    else (maxCount = 7), (minCount = 4);
  }
}

/** build_bl_tree: returns the index in BL_ORDER of the last bit-length code to send (>= 3). */
function buildBlTree(s: State): number {
  scanTree(s, s.ltree);
  scanTree(s, s.dtree);
  buildTree(s, s.bltree);
  let maxBlIndex: number;
  for (maxBlIndex = BL_CODES - 1; maxBlIndex >= 3; maxBlIndex--) {
    if (s.bltree.len[BL_ORDER[maxBlIndex]] !== 0) break;
  }
  s.optLen += 3 * (maxBlIndex + 1) + 5 + 5 + 4;
  return maxBlIndex;
}

function sendAllTrees(s: State, lcodes: number, dcodes: number, blcodes: number): void {
  sendBits(s, lcodes - 257, 5);
  sendBits(s, dcodes - 1, 5);
  sendBits(s, blcodes - 4, 4);
  for (let rank = 0; rank < blcodes; rank++) sendBits(s, s.bltree.len[BL_ORDER[rank]], 3);
  sendTree(s, s.ltree, lcodes - 1);
  sendTree(s, s.dtree, dcodes - 1);
}

function compressBlock(s: State, lLen: Uint16Array, lCode: Uint16Array, dLen: Uint16Array, dCode: Uint16Array): void {
  // At most 48 bits per symbol (15 + 5 length, 15 + 13 distance) and 15 for the end code.
  ensureOut(s, s.symNext * 6 + 8);
  const dBuf = s.dBuf,
    lBuf = s.lBuf,
    out = s.out;
  let pos = s.outPos,
    buf = s.bitBuf,
    count = s.bitCount;
  // The bit buffer holds < 8 bits between codes; each append is <= 15 bits, so it stays < 32.
  for (let i = 0; i < s.symNext; i++) {
    const dist = dBuf[i];
    const lc = lBuf[i];
    if (dist === 0) {
      buf |= lCode[lc] << count;
      count += lLen[lc];
    } else {
      const code = LENGTH_CODE[lc];
      buf |= lCode[code + LITERALS + 1] << count;
      count += lLen[code + LITERALS + 1];
      const lx = EXTRA_LBITS[code];
      if (lx !== 0) {
        buf |= (lc - BASE_LENGTH[code]) << count;
        count += lx;
      }
      while (count >= 8) {
        out[pos++] = buf & 0xff;
        buf >>>= 8;
        count -= 8;
      }
      const d = dist - 1;
      const dc = distCode(d);
      buf |= dCode[dc] << count;
      count += dLen[dc];
      const dx = EXTRA_DBITS[dc];
      if (dx !== 0) {
        while (count >= 8) {
          out[pos++] = buf & 0xff;
          buf >>>= 8;
          count -= 8;
        }
        buf |= (d - BASE_DIST[dc]) << count;
        count += dx;
      }
    }
    while (count >= 8) {
      out[pos++] = buf & 0xff;
      buf >>>= 8;
      count -= 8;
    }
  }
  s.outPos = pos;
  s.bitBuf = buf;
  s.bitCount = count;
  sendBits(s, lCode[END_BLOCK], lLen[END_BLOCK]);
}

function storedBlock(s: State, start: number, storedLen: number, last: boolean): void {
  sendBits(s, (STORED_BLOCK << 1) + (last ? 1 : 0), 3);
  alignToByte(s);
  const len16 = storedLen & 0xffff;
  ensureOut(s, 4 + storedLen);
  putByte(s, len16 & 0xff);
  putByte(s, len16 >> 8);
  putByte(s, ~len16 & 0xff);
  putByte(s, (~len16 >> 8) & 0xff);
  s.out.set(s.window.subarray(start, start + storedLen), s.outPos);
  s.outPos += storedLen;
}

/** zng_tr_flush_block: the cheapest of stored, static and dynamic for the buffered symbols. */
function flushBlock(s: State, last: boolean): void {
  const storedLen = s.strstart - s.blockStart;
  const haveBuf = s.blockStart >= 0;
  let optLenb: number;
  let staticLenb: number;
  let maxBlIndex = 0;
  if (s.symNext === 0) {
    optLenb = staticLenb = 0;
  } else {
    buildTree(s, s.ltree);
    buildTree(s, s.dtree);
    maxBlIndex = buildBlTree(s);
    optLenb = Math.floor((s.optLen + 3 + 7) / 8);
    staticLenb = Math.floor((s.staticLen + 3 + 7) / 8);
    if (staticLenb <= optLenb) optLenb = staticLenb;
  }
  const type = storedLen + 4 <= optLenb && haveBuf ? STORED_BLOCK : staticLenb === optLenb ? STATIC_TREES : DYN_TREES;
  if (s.countOnly) {
    countBlock(s, type, storedLen);
  } else if (type === STORED_BLOCK) {
    storedBlock(s, s.blockStart, storedLen, last);
  } else if (type === STATIC_TREES) {
    sendBits(s, (STATIC_TREES << 1) + (last ? 1 : 0), 3);
    compressBlock(s, STATIC_LTREE_LEN, STATIC_LTREE_CODE, STATIC_DTREE_LEN, STATIC_DTREE_CODE);
  } else {
    sendBits(s, (DYN_TREES << 1) + (last ? 1 : 0), 3);
    sendAllTrees(s, s.ltree.maxCode + 1, s.dtree.maxCode + 1, maxBlIndex + 1);
    compressBlock(s, s.ltree.len, s.ltree.code, s.dtree.len, s.dtree.code);
  }
  initBlock(s);
  if (last) {
    if (s.countOnly) s.bits = Math.ceil(s.bits / 8) * 8;
    else alignToByte(s);
  }
  s.blockStart = s.strstart;
}

/**
 * The length in bits of the block flushBlock would write, added to `bits`: what the trees were
 * built to know (optLen and staticLen are the exact bit counts of the dynamic and static
 * encodings, trees and end code included), without writing a bit.
 */
function countBlock(s: State, type: number, storedLen: number): void {
  if (type === STORED_BLOCK) {
    // 3 header bits, padding to a byte, LEN and NLEN, the bytes.
    s.bits = Math.ceil((s.bits + 3) / 8) * 8 + 32 + 8 * storedLen;
  } else if (s.symNext === 0) {
    // No symbols: a static block of the end code alone (the trees were not built).
    s.bits += 3 + STATIC_LTREE_LEN[END_BLOCK];
  } else {
    s.bits += 3 + (type === STATIC_TREES ? s.staticLen : s.optLen);
  }
}

// 8. deflate_slow with flush = Z_FINISH.

/**
 * deflate_slow: each step reads the window (8a), then deflateRun takes the steps. The window
 * refill and the block flush, which happen once per 32 KiB or per 16,383 symbols, are taken
 * here, outside deflateRun's loop: a loop that holds a call it has not made yet is compiled
 * without it and thrown away when it comes (V8's "insufficient type feedback"), so the first
 * deflate of a big block ran about twice as long as the next ones.
 */
function deflateSlow(s: State): void {
  for (;;) {
    // 8a. Keep MIN_LOOKAHEAD bytes ahead, except at the end of the input (then one step at a
    // time, with the refill, which may still slide the window, before each, as zlib-ng does).
    if (s.lookahead < MIN_LOOKAHEAD) {
      fillWindow(s);
      if (s.lookahead === 0) break;
    }
    const run = deflateRun(s, s.lookahead < MIN_LOOKAHEAD);
    if (run === RUN_ON) continue;
    flushBlock(s, false);
    if (run >= 0) {
      // 8d's flush comes before its step ends (the block holds the literal, not the next byte).
      s.prevLength = run;
      s.strstart++;
      s.lookahead--;
    }
  }
  if (s.matchAvailable) {
    tallyLit(s, s.window[s.strstart - 1]);
    s.matchAvailable = false;
  }
  s.insert = s.strstart < MIN_MATCH - 1 ? s.strstart : MIN_MATCH - 1;
  flushBlock(s, true);
}

/** deflateRun: no flush due (the window needs reading, or the input ended). */
const RUN_ON = -1;
/** deflateRun: flush the block now; the step is complete. */
const RUN_FLUSH = -2;

/**
 * deflate_slow's steps 8b to 8e, while MIN_LOOKAHEAD bytes are ahead (one step when `tail`).
 * Returns RUN_ON, RUN_FLUSH, or (8d with a full symbol buffer) the match length the step sets
 * as prevLength once the block is flushed.
 */
function deflateRun(s: State, tail: boolean): number {
  const win = s.window;
  do {
    // 8b. Insert the string at strstart; search its chain unless the previous match is long.
    let hashHead = 0;
    if (s.lookahead >= WANT_MIN_MATCH) hashHead = quickInsert(s, s.strstart);
    s.prevMatch = s.matchStart & 0xffff;
    let matchLen = MIN_MATCH - 1;
    const dist = s.strstart - hashHead;
    if (dist <= MAX_DIST && dist > 0 && s.prevLength < MAX_LAZY && hashHead !== 0) {
      matchLen = longestMatch(s, hashHead);
    }
    // 8c. The previous match stands if this one is not longer: emit it, insert its strings.
    if (s.prevLength >= MIN_MATCH && matchLen <= s.prevLength) {
      const maxInsert = s.strstart + s.lookahead - MIN_MATCH;
      const bflush = tallyDist(s, s.strstart - 1 - s.prevMatch, s.prevLength - MIN_MATCH);
      s.prevLength -= 1;
      s.lookahead -= s.prevLength;
      const movFwd = s.prevLength - 1;
      if (maxInsert > s.strstart) {
        let insertCnt = movFwd;
        if (insertCnt > maxInsert - s.strstart) insertCnt = maxInsert - s.strstart;
        insertStrings(s, s.strstart + 1, insertCnt);
      }
      s.prevLength = 0;
      s.matchAvailable = false;
      s.strstart += movFwd + 1;
      if (bflush) return RUN_FLUSH;
    } else if (s.matchAvailable) {
      // 8d. No match before, or a longer one now: the previous byte goes out as a literal.
      if (tallyLit(s, win[s.strstart - 1])) return matchLen;
      s.prevLength = matchLen;
      s.strstart++;
      s.lookahead--;
    } else {
      // 8e. Nothing to compare with yet: wait one step.
      s.prevLength = matchLen;
      s.matchAvailable = true;
      s.strstart++;
      s.lookahead--;
    }
  } while (!tail && s.lookahead >= MIN_LOOKAHEAD);
  return RUN_ON;
}

// 9. zlib wrapper.

export function adler32(data: Uint8Array): number {
  let a = 1,
    b = 0;
  const n = data.length;
  for (let i = 0; i < n; ) {
    const end = Math.min(i + 5552, n);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * zlib-ng 2.2.2 `compress2(level 9)` bytes: 78 DA, the deflate stream, big-endian Adler-32.
 * `level` exists for compatibility with core's DeflateFn and must be 9 (Z_BEST_COMPRESSION).
 */
export function zlibNgDeflate(data: Uint8Array, level = 9): Uint8Array {
  if (level !== 9) throw new RangeError(`zlibNgDeflate implements zlib-ng level 9 only (asked for level ${level})`);
  const s = newState(data);
  // 9a. Header: CM 8, CINFO 7 (32K window), FLEVEL 3 (level >= 7), no dictionary, FCHECK.
  putByte(s, 0x78);
  putByte(s, 0xda);
  initBlock(s);
  deflateSlow(s);
  // 9b. Trailer.
  const adler = adler32(data);
  ensureOut(s, 4);
  putByte(s, adler >>> 24);
  putByte(s, (adler >>> 16) & 0xff);
  putByte(s, (adler >>> 8) & 0xff);
  putByte(s, adler & 0xff);
  return s.out.slice(0, s.outPos);
}

/** zlibNgDeflate prices without writing (core's DeflateFn.deflatedLength). */
zlibNgDeflate.deflatedLength = zlibNgDeflatedLength;

/**
 * `zlibNgDeflate(data).length`, computed without writing the stream: the same matches, blocks and
 * trees, but only their lengths are added up (no Huffman codes written, no Adler-32). Pricing
 * needs only the compressed sizes; this is about a third faster.
 */
export function zlibNgDeflatedLength(data: Uint8Array, level = 9): number {
  if (level !== 9) throw new RangeError(`zlibNgDeflate implements zlib-ng level 9 only (asked for level ${level})`);
  const s = newState(data, true);
  initBlock(s);
  deflateSlow(s);
  // Header (2 bytes), the stream (whole bytes: the last block ends on a byte boundary), Adler-32.
  return 2 + s.bits / 8 + 4;
}
