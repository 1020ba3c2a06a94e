import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isSlmeshError } from '../../src/errors.js';
import {
  LlsdDate,
  LlsdInteger,
  LlsdUri,
  LlsdUuid,
  isLlsdMap,
  llsdInt,
  readLlsdBinary,
  writeLlsdBinary,
} from '../../src/asset/llsd-binary.js';
import type { LlsdValue } from '../../src/asset/llsd-binary.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

/** Exact LLSD equality: Object.is on reals (NaN, -0), classes by content, maps by own keys. */
function llsdEqual(a: LlsdValue, b: LlsdValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a instanceof LlsdInteger) return b instanceof LlsdInteger && a.value === b.value;
  if (a instanceof LlsdUuid) return b instanceof LlsdUuid && hex(a.bytes) === hex(b.bytes);
  if (a instanceof LlsdDate) return b instanceof LlsdDate && Object.is(a.seconds, b.seconds);
  if (a instanceof LlsdUri) return b instanceof LlsdUri && a.uri === b.uri;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && hex(a) === hex(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => llsdEqual(x, b[i]));
  if (!isLlsdMap(a) || !isLlsdMap(b)) return false;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && llsdEqual(a[k], b[k]));
}

function expectLlsdError(fn: () => unknown, pattern?: RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(isSlmeshError(e)).toBe(true);
    if (isSlmeshError(e)) {
      expect(e.code).toBe('LLSD_INVALID');
      if (pattern) expect(e.message).toMatch(pattern);
    }
    return;
  }
  throw new Error('expected an LLSD_INVALID error');
}

/** Reading must either succeed or throw SlmeshError('LLSD_INVALID'); returns whether it threw. */
function readOrLlsdError(b: Uint8Array): boolean {
  try {
    readLlsdBinary(b);
    return false;
  } catch (e) {
    if (!isSlmeshError(e) || e.code !== 'LLSD_INVALID') throw e;
    return true;
  }
}

const leaf: fc.Arbitrary<LlsdValue> = fc.oneof(
  fc.constant(undefined),
  fc.boolean(),
  fc.double(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE),
  fc.integer({ min: -0x80000000, max: 0x7fffffff }).map(llsdInt),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.uint8Array({ maxLength: 40 }),
  fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new LlsdUuid(b)),
  fc.double().map((d) => new LlsdDate(d)),
  fc.string({ maxLength: 20 }).map((s) => new LlsdUri(s)),
);

const { value: llsdArb } = fc.letrec<{ value: LlsdValue; array: LlsdValue[]; map: { [k: string]: LlsdValue } }>(
  (tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('map')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    map: fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), tie('value'), { maxKeys: 5 }),
  }),
);

describe('writeLlsdBinary: hand-checked bytes', () => {
  it('writes {a: 1} as the viewer does', () => {
    expect(hex(writeLlsdBinary({ a: llsdInt(1) }))).toBe('7b00000001' + '6b00000001' + '61' + '6900000001' + '7d');
  });

  it('writes every scalar type', () => {
    expect(hex(writeLlsdBinary(undefined))).toBe('21');
    expect(hex(writeLlsdBinary(true))).toBe('31');
    expect(hex(writeLlsdBinary(false))).toBe('30');
    expect(hex(writeLlsdBinary(llsdInt(-2)))).toBe('69fffffffe');
    expect(hex(writeLlsdBinary(1.5))).toBe('723ff8000000000000');
    expect(hex(writeLlsdBinary(-0))).toBe('728000000000000000');
    expect(hex(writeLlsdBinary('hi'))).toBe('7300000002' + '6869');
    expect(hex(writeLlsdBinary('é'))).toBe('7300000002' + 'c3a9');
    expect(hex(writeLlsdBinary(Uint8Array.of(1, 2)))).toBe('6200000002' + '0102');
    expect(hex(writeLlsdBinary(new Uint8Array(0)))).toBe('6200000000');
    const uuid = LlsdUuid.fromString('01234567-89ab-cdef-0123-456789ABCDEF');
    expect(hex(writeLlsdBinary(uuid))).toBe('75' + '0123456789abcdef0123456789abcdef');
    expect(uuid.toString()).toBe('01234567-89ab-cdef-0123-456789abcdef');
    // Dates are f64 in native (little-endian) order.
    expect(hex(writeLlsdBinary(new LlsdDate(1)))).toBe('64' + '000000000000f03f');
    expect(hex(writeLlsdBinary(new LlsdUri('x')))).toBe('6c00000001' + '78');
  });

  it('writes arrays and nested maps', () => {
    expect(hex(writeLlsdBinary([]))).toBe('5b000000005d');
    expect(hex(writeLlsdBinary({}))).toBe('7b000000007d');
    expect(hex(writeLlsdBinary([true, [undefined]]))).toBe('5b00000002' + '31' + '5b00000001215d' + '5d');
    expect(hex(writeLlsdBinary({ m: { n: false } }))).toBe(
      '7b00000001' + '6b00000001' + '6d' + '7b00000001' + '6b00000001' + '6e' + '30' + '7d' + '7d',
    );
  });

  it('sorts keys as std::map does: bytewise on UTF-8', () => {
    const w = writeLlsdBinary({ PositionDomain: 1, Position: 2, NormalizedScale: 3, Normal: 4 });
    const text = Buffer.from(w).toString('latin1');
    const at = (k: string): number => text.indexOf(`\u0000${String.fromCharCode(k.length)}${k}`);
    expect(at('Normal')).toBeLessThan(at('NormalizedScale'));
    expect(at('NormalizedScale')).toBeLessThan(at('Position'));
    expect(at('Position')).toBeLessThan(at('PositionDomain'));
    expect(at('Normal')).toBeGreaterThan(0);
    // Upper case before lower case; U+FF61 (EF BD A1) before U+1F600 (F0 ...), unlike UTF-16 order.
    const keysInOrder = (v: LlsdValue): string[] => Object.keys(readLlsdBinary(writeLlsdBinary(v)).value as object);
    const order: string[] = [];
    const w2 = writeLlsdBinary({ b: 1, a: 2, Z: 3, '\u{1F600}': 4, '\uFF61': 5, '': 6 });
    const p = { i: 5 };
    while (p.i < w2.length - 1) {
      expect(w2[p.i]).toBe(0x6b);
      const n = Buffer.from(w2).readUInt32BE(p.i + 1);
      order.push(Buffer.from(w2.subarray(p.i + 5, p.i + 5 + n)).toString('utf8'));
      p.i += 5 + n + 9;
    }
    expect(order).toEqual(['', 'Z', 'a', 'b', '\uFF61', '\u{1F600}']);
    expect(keysInOrder({ b: 1, a: 2 }).sort()).toEqual(['a', 'b']);
  });

  it('refuses values LLSD cannot carry', () => {
    expectLlsdError(() => writeLlsdBinary(null as unknown as LlsdValue), /null/);
    expectLlsdError(() => writeLlsdBinary(new Map() as unknown as LlsdValue), /Map/);
    expectLlsdError(() => writeLlsdBinary((() => 1) as unknown as LlsdValue));
    const cyclic: LlsdValue[] = [];
    cyclic.push(cyclic);
    expectLlsdError(() => writeLlsdBinary(cyclic), /cyclic/);
    expectLlsdError(() => llsdInt(2 ** 31), /32-bit/);
    expectLlsdError(() => llsdInt(1.5));
    expectLlsdError(() => new LlsdUuid(new Uint8Array(3)));
    expectLlsdError(() => LlsdUuid.fromString('not-a-uuid'));
    // The same object twice (not a cycle) is fine.
    const shared = { x: 1 };
    expect(readLlsdBinary(writeLlsdBinary([shared, shared])).value).toEqual([{ x: 1 }, { x: 1 }]);
  });
});

describe('readLlsdBinary', () => {
  it('reads the hand-checked vector and reports bytesRead and offset', () => {
    const b = bytes('7b00000001 6b00000001 61 6900000001 7d');
    const r = readLlsdBinary(b);
    expect(r.bytesRead).toBe(b.length);
    expect((r.value as { a: LlsdInteger }).a).toBeInstanceOf(LlsdInteger);
    expect((r.value as { a: LlsdInteger }).a.value).toBe(1);
    const padded = bytes('ffff 31 aa');
    expect(readLlsdBinary(padded, { offset: 2 })).toEqual({ value: true, bytesRead: 1 });
  });

  it('reads the notation-style quoted strings the viewer accepts', () => {
    const b = Uint8Array.from(
      Buffer.from(`{\u0000\u0000\u0000\u0002'k1'"a\\x41\\n\\"q"k\u0000\u0000\u0000\u0002k2'x'}`, 'latin1'),
    );
    expect(readLlsdBinary(b).value).toEqual({ k1: 'aA\n"q', k2: 'x' });
  });

  it('keeps the first value of a repeated key, and takes __proto__ as a plain key', () => {
    const b = bytes('7b00000002' + '6b00000001' + '61' + '31' + '6b00000001' + '61' + '30' + '7d');
    expect(readLlsdBinary(b).value).toEqual({ a: true });
    const proto = writeLlsdBinary(JSON.parse('{"__proto__": {"polluted": true}}') as LlsdValue);
    const v = readLlsdBinary(proto).value as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports malformed input as LLSD_INVALID naming the byte', () => {
    expectLlsdError(
      () => readLlsdBinary(new Uint8Array(0)),
      /^binary LLSD: unexpected end of input reading a value type at byte 0$/,
    );
    expectLlsdError(() => readLlsdBinary(bytes('78')), /^binary LLSD: unknown type byte 0x78 at byte 0$/);
    expectLlsdError(() => readLlsdBinary(bytes('5b00000001 00 5d')), /unknown type byte 0x00 at byte 5/);
    expectLlsdError(() => readLlsdBinary(bytes('5bffffffff')), /array count 4294967295 exceeds/);
    expectLlsdError(() => readLlsdBinary(bytes('7bffffffff 7d')), /map count 4294967295 exceeds/);
    expectLlsdError(() => readLlsdBinary(bytes('62ffffffff 00')), /binary length 4294967295 exceeds/);
    expectLlsdError(
      () => readLlsdBinary(bytes('7300000005 6162')),
      /string length 5 exceeds the 2 bytes left at byte 1/,
    );
    expectLlsdError(() => readLlsdBinary(bytes('6b00000001')), /unknown type byte 0x6b/);
    expectLlsdError(
      () => readLlsdBinary(bytes('7b00000001 7300000001 61 31 7d')),
      /expected a map key, found byte 0x73 at byte 5/,
    );
    expectLlsdError(() => readLlsdBinary(bytes('5b00000001 31 31 5d')), /array of 1 not closed by '\]' at byte 6/);
    expectLlsdError(
      () => readLlsdBinary(bytes('5b00000002 31 5d')),
      /array count 2 exceeds the 2 bytes left at byte 0/,
    );
    expectLlsdError(() => readLlsdBinary(bytes('5b00000002 31 5d 5d')), /unknown type byte 0x5d at byte 6/);
    expectLlsdError(() => readLlsdBinary(bytes('7b00000000 5d')), /map of 0 not closed/);
    expectLlsdError(() => readLlsdBinary(bytes('69 0000')), /integer needs 4 bytes, 2 left/);
    expectLlsdError(() => readLlsdBinary(bytes('27 6162')), /unterminated quoted string at byte 0/);
    expectLlsdError(() => readLlsdBinary(bytes('31'), { offset: 2 }), /offset 2/);
  });

  it('limits nesting depth (default 64)', () => {
    const nested = (n: number): Uint8Array => bytes('5b00000001'.repeat(n) + '21' + '5d'.repeat(n));
    expect(readLlsdBinary(nested(64)).bytesRead).toBe(64 * 6 + 1);
    expectLlsdError(() => readLlsdBinary(nested(65)), /nesting deeper than 64 at byte 320/);
    expectLlsdError(() => readLlsdBinary(nested(5), { maxDepth: 4 }), /nesting deeper than 4/);
    expectLlsdError(() => readLlsdBinary(nested(2), { maxDepth: 1e9 }), /maxDepth/);
    // Deep hostile nesting far beyond any limit: an error, not a stack overflow.
    expectLlsdError(() => readLlsdBinary(bytes('5b00000001'.repeat(100000))), /nesting deeper/);
  });

  it('round-trips a multi-megabyte binary', () => {
    const big = new Uint8Array(8 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
    const w = writeLlsdBinary({ Position: big, TriangleList: big.subarray(0, 1000) });
    const r = readLlsdBinary(w).value as { Position: Uint8Array };
    expect(r.Position.length).toBe(big.length);
    expect(Buffer.compare(Buffer.from(r.Position), Buffer.from(big))).toBe(0);
  });
});

describe('binary LLSD properties', () => {
  it('write -> read gives the value back, and bytesRead is the whole encoding', () => {
    fc.assert(
      fc.property(llsdArb, (v) => {
        const w = writeLlsdBinary(v);
        const r = readLlsdBinary(w);
        expect(r.bytesRead).toBe(w.length);
        expect(llsdEqual(r.value, v)).toBe(true);
        // Canonical: writing what was read gives the same bytes.
        expect(hex(writeLlsdBinary(r.value))).toBe(hex(w));
      }),
      { numRuns: 300 },
    );
  });

  it('every strict prefix of an encoding is rejected with LLSD_INVALID', () => {
    fc.assert(
      fc.property(llsdArb, fc.nat(), (v, cut) => {
        const w = writeLlsdBinary(v);
        expect(readOrLlsdError(w.subarray(0, cut % w.length))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('byte flips and garbage never throw anything but SlmeshError', () => {
    fc.assert(
      fc.property(
        llsdArb,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (v, flips) => {
          const w = writeLlsdBinary(v);
          for (const [at, byte] of flips) w[at % w.length] = byte;
          readOrLlsdError(w);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        readOrLlsdError(b);
      }),
      { numRuns: 1000 },
    );
    // Garbage made of LLSD type bytes, so the reader gets further in.
    const typeBytes = fc.constantFrom(...Array.from('!01irdusblk[]{}\'"\u0000\u0001\u00ff', (c) => c.charCodeAt(0)));
    fc.assert(
      fc.property(fc.array(typeBytes, { maxLength: 64 }), (b) => {
        readOrLlsdError(Uint8Array.from(b));
      }),
      { numRuns: 1000 },
    );
  });
});
