/**
 * Second Life binary LLSD: writer and hostile-input-safe reader.
 *
 * Writes exactly what the viewer's LLSDSerialize::toBinary (LLSDBinaryFormatter::format_impl,
 * indra/llcommon/llsdserialize.cpp) writes, without the deprecated `<? LLSD/Binary ?>` header:
 *
 *     undefined  '!'                      boolean  '1' | '0'
 *     integer    'i' s32 big-endian       real     'r' f64 big-endian
 *     string     's' u32BE length, bytes  binary   'b' u32BE length, bytes
 *     uuid       'u' 16 bytes             date     'd' f64 little-endian (the viewer writes
 *     uri        'l' u32BE length, bytes           native byte order, x86 and ARM alike)
 *     array      '[' u32BE count, values, ']'
 *     map        '{' u32BE count, per entry 'k' u32BE length, key bytes (UTF-8), value, '}'
 *
 * Map keys are written sorted bytewise on their UTF-8 bytes, the order of the viewer's
 * std::map<std::string>. The reader (LLSDBinaryParser::doParse) also accepts the notation-style
 * quoted strings `'...'` / `"..."` the viewer secretly accepts for strings and map keys.
 *
 * JS representation: `undefined`, `boolean`, `number` (an LLSD real, always written as 'r'),
 * {@link LlsdInteger} (from {@link llsdInt}), `string`, `Uint8Array` (binary), arrays, plain
 * objects (maps) and the small classes {@link LlsdUuid}, {@link LlsdDate}, {@link LlsdUri}.
 *
 * Guarantees: writeLlsdBinary(v) read back by readLlsdBinary gives v again (strings whose UTF-16
 * contains lone surrogates are the exception: UTF-8 cannot carry them). The reader checks every
 * length and count against the bytes that remain, limits nesting depth, and reports any
 * malformed input as SlmeshError('LLSD_INVALID', 'binary LLSD: <what> at byte N'); it never
 * throws anything else and never loops longer than the input.
 */

import { SlmeshError } from '../errors.js';

// -------------------------------------------------------------------------------------------
// Values
// -------------------------------------------------------------------------------------------

/** An LLSD integer (s32). JS numbers are LLSD reals; wrap integers with {@link llsdInt}. */
export class LlsdInteger {
  readonly value: number;
  constructor(value: number) {
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw new SlmeshError('LLSD_INVALID', `binary LLSD: integer ${value} is not a signed 32-bit integer`);
    }
    this.value = value === 0 ? 0 : value; // no -0
  }
  valueOf(): number {
    return this.value;
  }
}

/** An LLSD integer; throws SlmeshError('LLSD_INVALID') outside the s32 range. */
export function llsdInt(n: number): LlsdInteger {
  return new LlsdInteger(n);
}

/** An LLSD UUID: 16 bytes, in the order LLUUID::mData stores them. */
export class LlsdUuid {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    if (bytes.length !== 16) {
      throw new SlmeshError('LLSD_INVALID', `binary LLSD: a UUID has 16 bytes, not ${bytes.length}`);
    }
    this.bytes = Uint8Array.from(bytes);
  }
  /** Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (case-insensitive). */
  static fromString(text: string): LlsdUuid {
    const hex = text.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex) || text.length !== 36) {
      throw new SlmeshError('LLSD_INVALID', `binary LLSD: not a UUID: ${JSON.stringify(text.slice(0, 40))}`);
    }
    const bytes = new Uint8Array(16);
    for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return new LlsdUuid(bytes);
  }
  toString(): string {
    let hex = '';
    for (const b of this.bytes) hex += b.toString(16).padStart(2, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

/** An LLSD date: seconds since the Unix epoch (f64). */
export class LlsdDate {
  readonly seconds: number;
  constructor(seconds: number) {
    this.seconds = seconds;
  }
  static fromDate(date: Date): LlsdDate {
    return new LlsdDate(date.getTime() / 1000);
  }
  toDate(): Date {
    return new Date(this.seconds * 1000);
  }
}

/** An LLSD URI (carried as its string). */
export class LlsdUri {
  readonly uri: string;
  constructor(uri: string) {
    this.uri = uri;
  }
  toString(): string {
    return this.uri;
  }
}

/** An LLSD map: a plain object (its prototype is Object.prototype or null). */
export interface LlsdMap {
  [key: string]: LlsdValue;
}

/** Any LLSD value. `number` is an LLSD real. */
export type LlsdValue =
  | undefined
  | boolean
  | number
  | LlsdInteger
  | string
  | Uint8Array
  | LlsdUuid
  | LlsdDate
  | LlsdUri
  | LlsdValue[]
  | LlsdMap;

/** True for a value the writer treats as an LLSD map. */
export function isLlsdMap(value: unknown): value is LlsdMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// -------------------------------------------------------------------------------------------
// Writer
// -------------------------------------------------------------------------------------------

const TYPE_UNDEFINED = 0x21; // '!'
const TYPE_TRUE = 0x31; // '1'
const TYPE_FALSE = 0x30; // '0'
const TYPE_INTEGER = 0x69; // 'i'
const TYPE_REAL = 0x72; // 'r'
const TYPE_STRING = 0x73; // 's'
const TYPE_BINARY = 0x62; // 'b'
const TYPE_UUID = 0x75; // 'u'
const TYPE_DATE = 0x64; // 'd'
const TYPE_URI = 0x6c; // 'l'
const TYPE_ARRAY = 0x5b; // '['
const TYPE_ARRAY_END = 0x5d; // ']'
const TYPE_MAP = 0x7b; // '{'
const TYPE_MAP_END = 0x7d; // '}'
const TYPE_KEY = 0x6b; // 'k'
const QUOTE_SINGLE = 0x27; // '\''
const QUOTE_DOUBLE = 0x22; // '"'

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A growable byte buffer (doubling), so large binaries are written in linear time. */
class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.length++] = v;
  }

  u32be(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, false);
    this.length += 4;
  }

  i32be(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, false);
    this.length += 4;
  }

  f64(v: number, littleEndian: boolean): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, littleEndian);
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** u32BE length followed by the bytes. */
  sized(b: Uint8Array): void {
    if (b.length > 0xffffffff) {
      throw new SlmeshError('LLSD_INVALID', `binary LLSD: ${b.length} bytes do not fit a u32 length`);
    }
    this.u32be(b.length);
    this.bytes(b);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' ? name : 'object';
}

function writeValue(w: ByteWriter, value: LlsdValue, open: Set<object>): void {
  if (open.size > LLSD_MAX_DEPTH_LIMIT) {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: cannot write nesting deeper than ${LLSD_MAX_DEPTH_LIMIT}`);
  }
  switch (typeof value) {
    case 'undefined':
      w.u8(TYPE_UNDEFINED);
      return;
    case 'boolean':
      w.u8(value ? TYPE_TRUE : TYPE_FALSE);
      return;
    case 'number':
      w.u8(TYPE_REAL);
      w.f64(value, false);
      return;
    case 'string':
      w.u8(TYPE_STRING);
      w.sized(utf8Encoder.encode(value));
      return;
    default:
      break;
  }
  if (value instanceof LlsdInteger) {
    w.u8(TYPE_INTEGER);
    w.i32be(value.value);
  } else if (value instanceof Uint8Array) {
    w.u8(TYPE_BINARY);
    w.sized(value);
  } else if (value instanceof LlsdUuid) {
    w.u8(TYPE_UUID);
    w.bytes(value.bytes);
  } else if (value instanceof LlsdDate) {
    w.u8(TYPE_DATE);
    w.f64(value.seconds, true);
  } else if (value instanceof LlsdUri) {
    w.u8(TYPE_URI);
    w.sized(utf8Encoder.encode(value.uri));
  } else if (Array.isArray(value)) {
    if (open.has(value)) throw new SlmeshError('LLSD_INVALID', 'binary LLSD: cannot write a cyclic array');
    open.add(value);
    w.u8(TYPE_ARRAY);
    w.u32be(value.length);
    for (let i = 0; i < value.length; i++) writeValue(w, value[i], open);
    w.u8(TYPE_ARRAY_END);
    open.delete(value);
  } else if (isLlsdMap(value)) {
    if (open.has(value)) throw new SlmeshError('LLSD_INVALID', 'binary LLSD: cannot write a cyclic map');
    open.add(value);
    const entries = Object.keys(value).map((key) => ({ key, bytes: utf8Encoder.encode(key) }));
    entries.sort((a, b) => compareBytes(a.bytes, b.bytes));
    w.u8(TYPE_MAP);
    w.u32be(entries.length);
    for (const { key, bytes } of entries) {
      w.u8(TYPE_KEY);
      w.sized(bytes);
      writeValue(w, value[key], open);
    }
    w.u8(TYPE_MAP_END);
    open.delete(value);
  } else {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: cannot write a value of type ${describe(value)}`);
  }
}

/** Serialises `value` as binary LLSD, byte for byte as LLSDSerialize::toBinary. */
export function writeLlsdBinary(value: LlsdValue): Uint8Array {
  const w = new ByteWriter();
  writeValue(w, value, new Set());
  return w.finish();
}

// -------------------------------------------------------------------------------------------
// Reader
// -------------------------------------------------------------------------------------------

export interface LlsdReadOptions {
  /** Byte at which the value starts. Default 0. */
  offset?: number;
  /** Deepest nesting of arrays and maps accepted. Default 64 ({@link LLSD_DEFAULT_MAX_DEPTH}), at most {@link LLSD_MAX_DEPTH_LIMIT}. */
  maxDepth?: number;
}

export interface LlsdReadResult {
  value: LlsdValue;
  /** Bytes consumed from `offset`; anything after the value is left alone. */
  bytesRead: number;
}

/** Default nesting limit of {@link readLlsdBinary}. */
export const LLSD_DEFAULT_MAX_DEPTH = 64;
/** Hard nesting limit of reader and writer (both recurse), so deep input never overflows the stack. */
export const LLSD_MAX_DEPTH_LIMIT = 1024;

class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly maxDepth: number;
  pos: number;

  constructor(bytes: Uint8Array, offset: number, maxDepth: number) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = offset;
    this.maxDepth = maxDepth;
  }

  fail(what: string, at: number = this.pos): never {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: ${what} at byte ${at}`);
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  need(n: number, what: string): void {
    if (n > this.remaining()) {
      this.fail(`${what} needs ${n} bytes, ${this.remaining()} left`);
    }
  }

  u8(what: string): number {
    if (this.pos >= this.bytes.length) this.fail(`unexpected end of input reading ${what}`);
    return this.bytes[this.pos++];
  }

  u32be(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, false);
    this.pos += 4;
    return v;
  }

  /** A u32BE length then that many bytes, as a view into the input. */
  sized(what: string): Uint8Array {
    const at = this.pos;
    const n = this.u32be(`${what} length`);
    if (n > this.remaining()) this.fail(`${what} length ${n} exceeds the ${this.remaining()} bytes left`, at);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A notation-style quoted string (deserialize_string_delim): backslash escapes, \xHH bytes. */
  quoted(delim: number): string {
    const start = this.pos - 1;
    const out: number[] = [];
    while (true) {
      if (this.pos >= this.bytes.length) this.fail('unterminated quoted string', start);
      const c = this.bytes[this.pos++];
      if (c === delim) break;
      if (c !== 0x5c) {
        out.push(c);
        continue;
      }
      if (this.pos >= this.bytes.length) this.fail('unterminated quoted string', start);
      const e = this.bytes[this.pos++];
      if (e === 0x78 /* x */) {
        this.need(2, 'hex escape');
        const hi = hexNybble(this.bytes[this.pos]);
        const lo = hexNybble(this.bytes[this.pos + 1]);
        if (hi < 0 || lo < 0) this.fail('bad hex escape in quoted string');
        this.pos += 2;
        out.push((hi << 4) | lo);
      } else {
        out.push(ESCAPES[e] ?? e);
      }
    }
    return utf8Decoder.decode(Uint8Array.from(out));
  }

  value(depth: number): LlsdValue {
    const at = this.pos;
    const type = this.u8('a value type');
    switch (type) {
      case TYPE_UNDEFINED:
        return undefined;
      case TYPE_TRUE:
        return true;
      case TYPE_FALSE:
        return false;
      case TYPE_INTEGER: {
        this.need(4, 'integer');
        const v = this.view.getInt32(this.pos, false);
        this.pos += 4;
        return new LlsdInteger(v);
      }
      case TYPE_REAL: {
        this.need(8, 'real');
        const v = this.view.getFloat64(this.pos, false);
        this.pos += 8;
        return v;
      }
      case TYPE_DATE: {
        this.need(8, 'date');
        const v = this.view.getFloat64(this.pos, true);
        this.pos += 8;
        return new LlsdDate(v);
      }
      case TYPE_UUID: {
        this.need(16, 'uuid');
        const v = new LlsdUuid(this.bytes.subarray(this.pos, this.pos + 16));
        this.pos += 16;
        return v;
      }
      case TYPE_STRING:
        return utf8Decoder.decode(this.sized('string'));
      case TYPE_URI:
        return new LlsdUri(utf8Decoder.decode(this.sized('uri')));
      case TYPE_BINARY:
        return this.sized('binary').slice();
      case QUOTE_SINGLE:
      case QUOTE_DOUBLE:
        return this.quoted(type);
      case TYPE_ARRAY:
        return this.array(at, depth);
      case TYPE_MAP:
        return this.map(at, depth);
      default:
        return this.fail(`unknown type byte 0x${type.toString(16).padStart(2, '0')}`, at);
    }
  }

  array(at: number, depth: number): LlsdValue[] {
    if (depth >= this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, at);
    const count = this.u32be('array count');
    // Every element takes at least one byte, and ']' one more.
    if (count > 0 && count >= this.remaining())
      this.fail(`array count ${count} exceeds the ${this.remaining()} bytes left`, at);
    const out: LlsdValue[] = [];
    for (let i = 0; i < count; i++) out.push(this.value(depth + 1));
    if (this.u8("array end ']'") !== TYPE_ARRAY_END) this.fail(`array of ${count} not closed by ']'`, this.pos - 1);
    return out;
  }

  map(at: number, depth: number): LlsdMap {
    if (depth >= this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, at);
    const count = this.u32be('map count');
    // Every entry takes at least a quoted empty key and a one-byte value (3 bytes), and '}' one more.
    if (count > 0 && count >= this.remaining())
      this.fail(`map count ${count} exceeds the ${this.remaining()} bytes left`, at);
    const out: LlsdMap = {};
    for (let i = 0; i < count; i++) {
      const keyAt = this.pos;
      const marker = this.u8('a map key');
      let key: string;
      if (marker === TYPE_KEY) key = utf8Decoder.decode(this.sized('map key'));
      else if (marker === QUOTE_SINGLE || marker === QUOTE_DOUBLE) key = this.quoted(marker);
      else return this.fail(`expected a map key, found byte 0x${marker.toString(16).padStart(2, '0')}`, keyAt);
      const v = this.value(depth + 1);
      // std::map::insert keeps the first value of a repeated key.
      if (!Object.hasOwn(out, key)) {
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    if (this.u8("map end '}'") !== TYPE_MAP_END) this.fail(`map of ${count} not closed by '}'`, this.pos - 1);
    return out;
  }
}

const ESCAPES: Partial<Record<number, number>> = {
  0x61: 0x07, // \a
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
  0x76: 0x0b, // \v
};

function hexNybble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/**
 * Parses one binary LLSD value starting at `options.offset` (default 0). Bytes after the value
 * are not read: `bytesRead` says where it ended. Throws SlmeshError('LLSD_INVALID') on any
 * malformed, truncated or too deeply nested input.
 */
export function readLlsdBinary(bytes: Uint8Array, options: LlsdReadOptions = {}): LlsdReadResult {
  const offset = options.offset ?? 0;
  const maxDepth = options.maxDepth ?? LLSD_DEFAULT_MAX_DEPTH;
  if (!(bytes instanceof Uint8Array)) {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: input is ${describe(bytes)}, not a Uint8Array`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > bytes.length) {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: offset ${offset} outside the ${bytes.length} input bytes`);
  }
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > LLSD_MAX_DEPTH_LIMIT) {
    throw new SlmeshError('LLSD_INVALID', `binary LLSD: bad maxDepth ${maxDepth}`);
  }
  const reader = new ByteReader(bytes, offset, maxDepth);
  const value = reader.value(0);
  return { value, bytesRead: reader.pos - offset };
}
