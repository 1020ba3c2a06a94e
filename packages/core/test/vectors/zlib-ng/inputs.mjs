/**
 * The generated inputs of the zlib-ng golden vectors: every block is made from its case's name,
 * kind, seed and length alone, so the vectors store only those plus the real zlib-ng's output
 * (or its length and SHA-256 when large). Used by tools/zlib-ng-vectors/build-and-write.mjs
 * (which writes the vectors) and by test/asset/zlib-ng-deflate.test.ts (which checks them).
 *
 * Guarantees: `makeInput(c)` returns the same bytes for the same case on every platform and
 * forever (plain integer arithmetic, own PRNG); changing any generator here invalidates the
 * vectors, so add new kinds instead of editing old ones.
 *
 * Kinds and what they exercise in the compressor:
 * - tiny: 0..10 bytes (no hash insertion below 4 bytes of lookahead, empty static block);
 * - llsd-mesh: binary-LLSD LOD blocks as the mesh encoder writes them (the real workload);
 * - run / period: runs and repetitions that hit the 258-byte match limit and the lazy limits;
 * - window-edge: repeats at distances around MAX_DIST (32506) and the 32 KB window, lengths
 *   around 32 K and 64 K so the window slides, and past 1 MB;
 * - random: incompressible bytes (stored blocks), small alphabets (static vs dynamic trees);
 * - text: words from a small vocabulary (long hash chains, many symbol-buffer flushes);
 * - mixed: alternating compressible and random stretches (block type changes between blocks);
 * - biased: two symbols, one likely (hash chains longer than max_chain, the good_match cut).
 */

/** mulberry32: 32-bit state, one uint32 per call. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** sin by range reduction and a Taylor polynomial: only + - * /, so identical on every engine. */
function sin(x) {
  const twoPi = 6.283185307179586;
  x -= Math.floor(x / twoPi) * twoPi;
  if (x > Math.PI) x -= twoPi;
  const x2 = x * x;
  return x * (1 - (x2 / 6) * (1 - (x2 / 20) * (1 - (x2 / 42) * (1 - (x2 / 72) * (1 - (x2 / 110) * (1 - x2 / 156))))));
}
const cos = (x) => sin(x + Math.PI / 2);

// 1. A minimal binary-LLSD writer (the subset the mesh encoder uses).

class LlsdWriter {
  constructor() {
    this.bytes = [];
  }
  u8(b) {
    this.bytes.push(b & 0xff);
  }
  u32(v) {
    this.u8(v >>> 24);
    this.u8(v >>> 16);
    this.u8(v >>> 8);
    this.u8(v);
  }
  key(k) {
    this.u8(0x6b); // 'k'
    this.u32(k.length);
    for (let i = 0; i < k.length; i++) this.u8(k.charCodeAt(i));
  }
  real(x) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, x, false);
    this.u8(0x72); // 'r'
    for (const v of b) this.u8(v);
  }
  binary(data) {
    this.u8(0x62); // 'b'
    this.u32(data.length);
    for (const v of data) this.u8(v);
  }
  mapStart(n) {
    this.u8(0x7b); // '{'
    this.u32(n);
  }
  mapEnd() {
    this.u8(0x7d);
  }
  arrayStart(n) {
    this.u8(0x5b); // '['
    this.u32(n);
  }
  arrayEnd() {
    this.u8(0x5d);
  }
  vec3(xs) {
    this.arrayStart(3);
    for (const x of xs) this.real(x);
    this.arrayEnd();
  }
  result() {
    return Uint8Array.from(this.bytes);
  }
}

function u16le(values) {
  const out = new Uint8Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    out[2 * i] = values[i] & 0xff;
    out[2 * i + 1] = (values[i] >>> 8) & 0xff;
  }
  return out;
}

/** A bumpy, randomly deformed sphere-like grid as LOD faces (positions, normals, UVs, triangles). */
function llsdMesh(rand, targetBytes) {
  const w = new LlsdWriter();
  const faces = 1 + (rand() % 4);
  const perFace = Math.max(8, Math.floor(targetBytes / faces / 22));
  w.arrayStart(faces);
  for (let f = 0; f < faces; f++) {
    const cols = Math.max(2, Math.floor(Math.sqrt(perFace)) + (rand() % 5));
    const rows = Math.max(2, Math.floor(perFace / cols));
    const bumps = 1 + (rand() % 6);
    const noise = rand() % 200;
    const pos = [],
      nrm = [],
      uv = [],
      tri = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const th = (Math.PI * r) / (rows - 1),
          ph = (2 * Math.PI * c) / cols;
        const rad = 0.7 + 0.2 * sin(bumps * th) * cos(bumps * ph);
        const x = rad * sin(th) * cos(ph),
          y = rad * sin(th) * sin(ph),
          z = rad * cos(th);
        const q = (v) =>
          Math.min(65535, Math.max(0, Math.round((v + 1) * 32767.5) + ((rand() % (2 * noise + 1)) - noise)));
        pos.push(q(x), q(y), q(z));
        nrm.push(q(x / rad), q(y / rad), q(z / rad));
        uv.push(Math.round((c / cols) * 65535), Math.round((r / (rows - 1)) * 65535));
      }
    }
    for (let r = 0; r + 1 < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const a = r * cols + c,
          b = r * cols + ((c + 1) % cols),
          d = a + cols,
          e = b + cols;
        if (a < 65536 && e < 65536) tri.push(a, d, b, b, d, e);
      }
    }
    w.mapStart(6);
    w.key('Normal');
    w.binary(u16le(nrm));
    w.key('Position');
    w.binary(u16le(pos));
    w.key('PositionDomain');
    w.mapStart(2);
    w.key('Max');
    w.vec3([0.5, 0.5, 0.5]);
    w.key('Min');
    w.vec3([-0.5, -0.5, -0.5]);
    w.mapEnd();
    w.key('TexCoord0');
    w.binary(u16le(uv));
    w.key('TexCoord0Domain');
    w.mapStart(2);
    w.key('Max');
    w.arrayStart(2);
    w.real(1);
    w.real(1);
    w.arrayEnd();
    w.key('Min');
    w.arrayStart(2);
    w.real(0);
    w.real(0);
    w.arrayEnd();
    w.mapEnd();
    w.key('TriangleList');
    w.binary(u16le(tri));
    w.mapEnd();
  }
  w.arrayEnd();
  return w.result();
}

// 2. The other generators; each fills exactly `length` bytes.

const WORDS =
  'the mesh block of a linkset is priced by its download weight streaming cost physics hull vertex triangle normal position texture coordinate level detail second life viewer upload'.split(
    ' ',
  );

function fill(kind, rand, length) {
  const out = new Uint8Array(length);
  switch (kind) {
    case 'tiny':
    case 'random': {
      for (let i = 0; i < length; i++) out[i] = rand() & 0xff;
      break;
    }
    case 'alphabet': {
      // Random symbols from a small alphabet: literals only, dynamic or static trees.
      const size = 2 + (rand() % 30);
      for (let i = 0; i < length; i++) out[i] = 0x41 + (rand() % size);
      break;
    }
    case 'zeros':
      break;
    case 'biased': {
      // Two symbols, one much likelier: 3-byte strings recur thousands of times within the window
      // while matches stay short, so hash chains run out (max_chain 4096, 1024 past good_match).
      const pa = 600 + (rand() % 350);
      for (let i = 0; i < length; i++) out[i] = rand() % 1000 < pa ? 0x61 : 0x62;
      break;
    }
    case 'run': {
      // Runs of one byte, long and short, so matches of exactly 258 and shorter tails occur.
      let i = 0;
      while (i < length) {
        const b = rand() & 0xff;
        const n = 1 + (rand() % 1200);
        for (let k = 0; k < n && i < length; k++) out[i++] = b;
      }
      break;
    }
    case 'period': {
      // A random pattern repeated: period 1..600, with occasional flipped bytes.
      const period = 1 + (rand() % 600);
      for (let i = 0; i < length; i++) out[i] = i < period ? rand() & 0xff : out[i - period];
      const flips = rand() % 20;
      for (let k = 0; k < flips && length > 0; k++) out[rand() % length] ^= 1 + (rand() % 255);
      break;
    }
    case 'window-edge': {
      // Random bytes with copies from distances near MAX_DIST (32506) and the window size.
      const dists = [32505, 32506, 32507, 32766, 32767, 32768, 32769, 30000, 16384, 258];
      let i = 0;
      while (i < length) {
        const d = dists[rand() % dists.length];
        const n = 3 + (rand() % 300);
        if (i >= d && rand() % 3 !== 0) {
          for (let k = 0; k < n && i < length; k++, i++) out[i] = out[i - d];
        } else {
          for (let k = 0; k < n && i < length; k++, i++) out[i] = rand() & 0x3f;
        }
      }
      break;
    }
    case 'text': {
      let i = 0;
      while (i < length) {
        const word = WORDS[rand() % WORDS.length] + (rand() % 7 === 0 ? '.\n' : ' ');
        for (let k = 0; k < word.length && i < length; k++) out[i++] = word.charCodeAt(k);
      }
      break;
    }
    case 'mixed': {
      // Alternating stretches of text-like, random and zero data.
      let i = 0;
      while (i < length) {
        const mode = rand() % 3;
        const n = 100 + (rand() % 20000);
        for (let k = 0; k < n && i < length; k++, i++)
          out[i] = mode === 0 ? 0x61 + (rand() % 4) : mode === 1 ? rand() & 0xff : 0;
      }
      break;
    }
    default:
      throw new Error(`unknown input kind ${kind}`);
  }
  return out;
}

/** The bytes of a generated case. */
export function makeInput(c) {
  const rand = prng(c.seed);
  if (c.kind === 'llsd-mesh') {
    const mesh = llsdMesh(rand, c.length);
    return mesh;
  }
  return fill(c.kind, rand, c.length);
}

/**
 * The generated cases: { name, kind, seed, length }. For llsd-mesh, `length` is the target size
 * and the block is whatever the mesh generator writes for it (the vectors record the real length).
 */
export function generatedCases() {
  const cases = [];
  const add = (kind, seed, length) => cases.push({ name: `${kind}-${seed}-${length}`, kind, seed, length });
  // 1. Tiny blocks: every length 0..10, several contents each.
  for (let length = 0; length <= 10; length++)
    for (let seed = 1; seed <= (length <= 3 ? 6 : 2); seed++) add('tiny', seed, length);
  add('zeros', 0, 1);
  add('zeros', 0, 3);
  add('zeros', 0, 4);
  // 2. Mesh blocks of many sizes (the real workload), one past 1 MB.
  const meshSizes = [200, 500, 1000, 2000, 4000, 8000, 12000, 20000, 30000, 45000, 70000, 100000, 150000, 300000];
  for (let seed = 1; seed <= 120; seed++) add('llsd-mesh', seed, meshSizes[seed % meshSizes.length]);
  add('llsd-mesh', 1001, 1_200_000);
  // 3. Runs and periods (258-byte match limit, lazy evaluation limits).
  for (const length of [257, 258, 259, 260, 261, 262, 263, 516, 517, 1000, 5000, 70000]) add('zeros', 0, length);
  for (let seed = 1; seed <= 20; seed++) add('run', seed, [300, 3000, 30000, 90000][seed % 4]);
  for (let seed = 1; seed <= 30; seed++) add('period', seed, [600, 5000, 40000, 100000][seed % 4]);
  // 4. Window edges and sliding: lengths around 32 K and 64 K, distances around MAX_DIST.
  const edges = [
    32505, 32506, 32507, 32767, 32768, 32769, 65273, 65274, 65275, 65535, 65536, 65537, 65798, 98304, 131072, 200000,
  ];
  edges.forEach((length, k) => {
    add('window-edge', k + 1, length);
    add('text', k + 1, length);
  });
  add('window-edge', 100, 1_100_000);
  // 5. Incompressible (stored blocks), small alphabets, text, mixed; enough symbols to split blocks.
  for (let seed = 1; seed <= 12; seed++) add('random', seed, [10, 100, 1000, 16383, 16384, 65536, 100000][seed % 7]);
  for (let seed = 1; seed <= 20; seed++) add('alphabet', seed, [50, 500, 5000, 17000, 50000][seed % 5]);
  for (let seed = 1; seed <= 12; seed++) add('text', 100 + seed, [1000, 20000, 80000, 250000][seed % 4]);
  for (let seed = 1; seed <= 12; seed++) add('mixed', seed, [30000, 120000, 400000][seed % 3]);
  for (let seed = 1; seed <= 16; seed++) add('biased', seed, [3000, 20000, 40000, 70000][seed % 4]);
  return cases;
}
