/**
 * Reads a glTF / GLB file from disk into slmesh objects, with the viewer's sibling-file LODs
 * (`chair_LOD2.glb`, `chair_LOD1.glb`, `chair_LOD0.glb`, `chair_PHYS.glb` next to `chair.glb`).
 *
 * Guarantees: every failure is a SlmeshError whose one-line message names the file; external
 * buffer and image URIs must stay inside the file's folder (no absolute paths, no `..` escape,
 * no network schemes; data URIs are fine) and are checked before anything is loaded. Every file
 * (the model, its buffers, images and siblings) is read through safe-read.ts: real path inside
 * the model's folder, a regular file, opened once, read with a size limit. glTF-Transform never
 * touches the file system: it is handed the bytes. Images are not read at all unless asked for
 * (`images: 'read'`, optimize); pricing does not need them. A buffer that cannot be decoded in
 * full (bad base64, a file shorter than its byteLength) is an error, never an empty model.
 */

import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Document, NodeIO } from '@gltf-transform/core';
import { SlmeshError, type Diagnostic, type SlModel } from '@slmesh/core';
import { createNodeIO, READABLE_EXTENSIONS } from './node-io.js';
import {
  highFileSlots,
  isSiblingFileName,
  parseLodName,
  siblingFileName,
  type LodNodesMode,
  type LodSlot,
} from './lod-naming.js';
import type { ImporterMode } from './importer-frame.js';
import { assembleModel, readMeshNodes, type SlotNode } from './to-model.js';
import { existsNoFollow, readInside } from './safe-read.js';

export interface ReadModelFileOptions {
  /** A NodeIO to reuse; by default one with every extension and the Draco and meshopt decoders. */
  io?: NodeIO;
  /** Load sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS` files. Default true. */
  siblings?: boolean;
  /** Largest input file accepted, bytes. Default 512 MiB. */
  maxFileBytes?: number;
  /** Most triangles accepted in one file. Default 5,000,000 (TO_MODEL_DEFAULTS). */
  maxTriangles?: number;
  /** 'skip' (default): images are not read (pricing needs none); 'read': external images are read, safely (optimize copies them). */
  images?: 'skip' | 'read';
  /** Read as the `current` importer (node transforms as prim rotation and scale) or the older `baked` one. Default `current`. */
  importer?: ImporterMode;
  /** `_LODn` / `_PHYS` nodes inside the main file: `objects` (the uploader's extra objects) or `lods`. Default `objects`. */
  lodNodes?: LodNodesMode;
}

export const READ_MODEL_FILE_DEFAULTS = { siblings: true, maxFileBytes: 512 * 1024 * 1024, images: 'skip' as const };

export interface ReadModelFileResult {
  model: SlModel;
  diagnostics: Diagnostic[];
  /** Every file read, the main one first. */
  files: string[];
}

const GLB_MAGIC = 0x46546c67;

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  // Never quote the input: JSON.parse and friends put a snippet of it in quotes.
  return msg
    .split('\n')[0]
    .replace(/"[^"]*"?(\.\.\.)?/g, '"..."')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
    .trim()
    .slice(0, 200);
}

/** Where JSON.parse stopped, without the snippet of text V8 quotes. */
function jsonErrorWhere(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(msg);
  if (m) return `at byte ${m[1]}`;
  if (/end of JSON/i.test(msg)) return 'it ends too early';
  return 'syntax error';
}

/** `v` as a JSON object (not null, not an array), or undefined. */
function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** What to do with a glTF 1.0 file. */
const REEXPORT = 'convert it to glTF 2.0 first (for example `assimp export in.gltf out.glb -fglb2`, from assimp-utils)';

/** The JSON part of a .gltf or .glb, parsed, or a SlmeshError naming the file. */
export function parseGltfJson(path: string, bytes: Uint8Array): { json: Record<string, unknown>; glb: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const glb = bytes.length >= 4 && view.getUint32(0, true) === GLB_MAGIC;
  let text: string;
  if (glb) {
    const glbVersion = bytes.length >= 8 ? view.getUint32(4, true) : 2;
    if (glbVersion !== 2)
      throw new SlmeshError(
        'INPUT_UNREADABLE',
        `${path}: GLB version ${glbVersion}${glbVersion === 1 ? ' (glTF 1.0)' : ''}; slmesh reads glTF 2.0 (GLB version 2): ${REEXPORT}`,
      );
    if (bytes.length < 20)
      throw new SlmeshError('INPUT_UNREADABLE', `${path}: truncated GLB (${bytes.length} bytes, no JSON chunk)`);
    const total = view.getUint32(8, true);
    if (total > bytes.length)
      throw new SlmeshError(
        'INPUT_UNREADABLE',
        `${path}: truncated GLB (header says ${total} bytes, file has ${bytes.length})`,
      );
    const jsonLength = view.getUint32(12, true);
    const jsonType = view.getUint32(16, true);
    if (jsonType !== 0x4e4f534a) throw new SlmeshError('INPUT_UNREADABLE', `${path}: GLB's first chunk is not JSON`);
    if (20 + jsonLength > bytes.length)
      throw new SlmeshError('INPUT_UNREADABLE', `${path}: truncated GLB (JSON chunk runs past the end of the file)`);
    text = new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength));
  } else {
    text = new TextDecoder().decode(bytes);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${path}: not a glTF or GLB file (${glb ? 'GLB JSON chunk' : 'JSON'} does not parse: ${jsonErrorWhere(e)})`,
    );
  }
  if (
    !json ||
    typeof json !== 'object' ||
    Array.isArray(json) ||
    typeof (json as { asset?: unknown }).asset !== 'object'
  ) {
    throw new SlmeshError('INPUT_UNREADABLE', `${path}: not a glTF file (no "asset" object)`);
  }
  // glTF 1.0 (a different schema: objects keyed by id where 2.0 has arrays) otherwise fails deep in
  // the reader with a message about types. Its asset.version may be a number or missing; its
  // collections are objects keyed by id either way.
  const version = (json as { asset: { version?: unknown } }).asset.version;
  const keyed = ['accessors', 'bufferViews', 'buffers', 'meshes', 'nodes'].some(
    (k) => asRecord((json as Record<string, unknown>)[k]) !== undefined,
  );
  const named = typeof version === 'string' || typeof version === 'number' ? String(version) : undefined;
  if ((named !== undefined && !/^2(\.|$)/.test(named)) || (version === undefined && keyed))
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${path}: glTF ${named !== undefined ? printableUri(named) : '1.0 (collections keyed by id)'}; slmesh reads glTF 2.0: ${REEXPORT}`,
    );
  return { json: json as Record<string, unknown>, glb };
}

/** Rejects URIs that would read outside the file's folder or over the network. */
export function checkUris(path: string, json: Record<string, unknown>): void {
  const folder = resolve(dirname(path));
  const lists = [
    ['buffers', json.buffers],
    ['images', json.images],
  ] as const;
  for (const [kind, list] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((item: { uri?: unknown }, i) => {
      const uri = item?.uri;
      if (uri === undefined) return;
      if (typeof uri !== 'string') throw new SlmeshError('INPUT_INVALID', `${path}: ${kind}[${i}].uri is not a string`);
      if (uri.startsWith('data:')) return;
      const where = `${path}: ${kind}[${i}].uri "${uri.slice(0, 80)}"`;
      // A drive letter (C:\, D:/) is a Windows path an exporter left behind, not a URL.
      if (/^[a-zA-Z]:[\\/]/.test(uri))
        throw new SlmeshError(
          'INPUT_UNSAFE',
          `${where} is an absolute Windows path; only paths inside the model's folder are allowed`,
        );
      if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri))
        throw new SlmeshError(
          'INPUT_UNSAFE',
          `${where} uses a URL scheme; only relative paths inside the model's folder and data: URIs are allowed`,
        );
      let decoded: string;
      try {
        decoded = decodeURIComponent(uri);
      } catch {
        throw new SlmeshError('INPUT_INVALID', `${where} is not a valid URI`);
      }
      if (isAbsolute(decoded) || decoded.startsWith('\\') || /^[a-zA-Z]:/.test(decoded))
        throw new SlmeshError(
          'INPUT_UNSAFE',
          `${where} is an absolute path; only paths inside the model's folder are allowed`,
        );
      const rel = relative(folder, resolve(folder, decoded));
      if (rel.startsWith('..') || isAbsolute(rel))
        throw new SlmeshError('INPUT_UNSAFE', `${where} points outside the model's folder`);
    });
  }
}

/** The model's own bytes: a regular file whose real path stays in the folder it is named in. */
async function readBytes(path: string, maxBytes: number): Promise<Uint8Array> {
  return readInside(path, path, { root: dirname(resolve(path)), maxBytes, hidden: 'folders' });
}

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Rejects buffer views and accessors that reach past their data, before glTF-Transform reads
 * them (a hostile count would otherwise allocate gigabytes or read garbage).
 */
export function checkAccessors(path: string, json: Record<string, unknown>, glbBinLength?: number): void {
  const buffers = Array.isArray(json.buffers) ? (json.buffers as Record<string, unknown>[]) : [];
  const views = Array.isArray(json.bufferViews) ? (json.bufferViews as Record<string, unknown>[]) : [];
  const accessors = Array.isArray(json.accessors) ? (json.accessors as Record<string, unknown>[]) : [];
  const bad = (what: string) => new SlmeshError('INPUT_INVALID', `${path}: ${what}`);
  buffers.forEach((b, i) => {
    if (!isCount(b?.byteLength)) throw bad(`buffers[${i}].byteLength is missing or not a whole number`);
    if (i === 0 && b.uri === undefined && glbBinLength !== undefined && b.byteLength > glbBinLength) {
      throw bad(`buffers[0] declares ${b.byteLength} bytes but the GLB's binary chunk has ${glbBinLength}`);
    }
  });
  views.forEach((v, i) => {
    const buf = buffers[v?.buffer as number];
    if (!isCount(v?.buffer) || !buf) throw bad(`bufferViews[${i}].buffer does not name a buffer`);
    const off = (v.byteOffset ?? 0) as number;
    if (!isCount(off) || !isCount(v.byteLength) || off + v.byteLength > (buf.byteLength as number)) {
      throw bad(`bufferViews[${i}] runs past the end of buffer ${v.buffer}`);
    }
  });
  accessors.forEach((a, i) => {
    const comp = COMPONENT_BYTES[a?.componentType as number];
    const n = TYPE_COMPONENTS[a?.type as string];
    if (!comp || !n) throw bad(`accessors[${i}] has an unknown componentType or type`);
    if (!isCount(a.count) || a.count > 2 ** 28)
      throw bad(`accessors[${i}].count ${String(a.count)} is not a sensible count`);
    if (a.bufferView === undefined || a.count === 0) return;
    const view = views[a.bufferView as number];
    if (!isCount(a.bufferView) || !view) throw bad(`accessors[${i}].bufferView does not name a buffer view`);
    const element = comp * n;
    const stride = (view.byteStride as number | undefined) ?? element;
    const off = (a.byteOffset ?? 0) as number;
    if (!isCount(off) || !isCount(stride)) throw bad(`accessors[${i}] has a bad byteOffset or byteStride`);
    if (off + stride * (a.count - 1) + element > (view.byteLength as number)) {
      throw bad(`accessors[${i}] (${a.count} x ${a.type}) runs past the end of bufferViews[${a.bufferView}]`);
    }
  });
}

/**
 * Every index in the file names something that exists, and the containers holding indices have
 * the type glTF 2.0 gives them: otherwise glTF-Transform drops a dangling reference without a word
 * (a primitive whose POSITION names no accessor was priced as nothing, land impact 0; indices of
 * -1 turned a mesh into a triangle soup of its vertices) or fails deep inside ("cannot read
 * properties of undefined"). Texture references are found by name (any `...Texture` object in a
 * material, its extensions included).
 */
export function checkReferences(path: string, json: Record<string, unknown>): void {
  const list = (k: string) => (Array.isArray(json[k]) ? (json[k] as unknown[]) : []);
  const bad = (what: string) => new SlmeshError('INPUT_INVALID', `${path}: ${what}`);
  const shown = (v: unknown) => printableUri(typeof v === 'string' ? JSON.stringify(v) : String(v));
  /** `v` at `where` names one of `collection` (a top-level list by name, or the list itself; optional unless `required`). */
  const ref = (v: unknown, where: string, collection: string | unknown[], what: string, required = false) => {
    if (v === undefined && !required) return;
    if (v === undefined) throw bad(`${where} is missing`);
    const n = (typeof collection === 'string' ? list(collection) : collection).length;
    if (!isCount(v) || v >= n) throw bad(`${where} ${shown(v)} does not name ${what}`);
  };
  const refs = (v: unknown, where: string, collection: string, what: string) => {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw bad(`${where} is not an array`);
    v.forEach((x, i) => ref(x, `${where}[${i}]`, collection, what, true));
  };
  /** Each object of a list (a top-level one by name, or `items` found at `where`), named by its path. */
  const each = (
    where: string,
    fn: (o: Record<string, unknown>, where: string) => void,
    items: unknown[] = list(where),
  ) =>
    items.forEach((v, i) => {
      const o = asRecord(v);
      if (!o) throw bad(`${where}[${i}] is not an object`);
      fn(o, `${where}[${i}]`);
    });
  ref(json.scene, 'scene', 'scenes', 'a scene');
  each('scenes', (o, w) => refs(o.nodes, `${w}.nodes`, 'nodes', 'a node'));
  each('nodes', (o, w) => {
    refs(o.children, `${w}.children`, 'nodes', 'a node');
    ref(o.mesh, `${w}.mesh`, 'meshes', 'a mesh');
    ref(o.skin, `${w}.skin`, 'skins', 'a skin');
    ref(o.camera, `${w}.camera`, 'cameras', 'a camera');
  });
  const accessorMap = (v: unknown, where: string) => {
    const m = asRecord(v);
    if (!m) throw bad(`${where} is not an object`);
    for (const [k, x] of Object.entries(m)) ref(x, `${where}.${printableUri(k)}`, 'accessors', 'an accessor', true);
  };
  each('meshes', (o, w) => {
    if (!Array.isArray(o.primitives)) throw bad(`${w}.primitives is not an array`);
    each(
      `${w}.primitives`,
      (prim, pw) => {
        accessorMap(prim.attributes, `${pw}.attributes`);
        ref(prim.indices, `${pw}.indices`, 'accessors', 'an accessor');
        ref(prim.material, `${pw}.material`, 'materials', 'a material');
        if (prim.targets !== undefined) {
          if (!Array.isArray(prim.targets)) throw bad(`${pw}.targets is not an array`);
          prim.targets.forEach((t, k) => accessorMap(t, `${pw}.targets[${k}]`));
        }
      },
      o.primitives,
    );
  });
  each('accessors', (o, w) => {
    const sparse = asRecord(o.sparse);
    if (!sparse) return;
    ref(asRecord(sparse.indices)?.bufferView, `${w}.sparse.indices.bufferView`, 'bufferViews', 'a buffer view', true);
    ref(asRecord(sparse.values)?.bufferView, `${w}.sparse.values.bufferView`, 'bufferViews', 'a buffer view', true);
  });
  each('skins', (o, w) => {
    refs(o.joints, `${w}.joints`, 'nodes', 'a node');
    ref(o.inverseBindMatrices, `${w}.inverseBindMatrices`, 'accessors', 'an accessor');
    ref(o.skeleton, `${w}.skeleton`, 'nodes', 'a node');
  });
  each('images', (o, w) => ref(o.bufferView, `${w}.bufferView`, 'bufferViews', 'a buffer view'));
  each('textures', (o, w) => {
    ref(o.source, `${w}.source`, 'images', 'an image');
    ref(o.sampler, `${w}.sampler`, 'samplers', 'a sampler');
  });
  each('animations', (o, w) => {
    const samplers = Array.isArray(o.samplers) ? o.samplers : [];
    each(
      `${w}.samplers`,
      (x, sw) => {
        ref(x.input, `${sw}.input`, 'accessors', 'an accessor', true);
        ref(x.output, `${sw}.output`, 'accessors', 'an accessor', true);
      },
      samplers,
    );
    each(
      `${w}.channels`,
      (x, cw) => {
        ref(x.sampler, `${cw}.sampler`, samplers, 'a sampler', true);
        ref(asRecord(x.target)?.node, `${cw}.target.node`, 'nodes', 'a node');
      },
      Array.isArray(o.channels) ? o.channels : [],
    );
  });
  const walk = (v: unknown, where: string, depth: number) => {
    if (!v || typeof v !== 'object' || depth > 8) return;
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const at = `${where}.${printableUri(k)}`;
      const texture = /Texture$/.test(k) ? asRecord(child) : undefined;
      if (texture) ref(texture.index, `${at}.index`, 'textures', 'a texture', true);
      else walk(child, at, depth + 1);
    }
  };
  list('materials').forEach((m, i) => walk(m, `materials[${i}]`, 0));
}

/** Length of a GLB's BIN chunk, if it has one. */
function glbBinChunkLength(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const at = 20 + jsonLength;
  if (at + 8 > bytes.length) return undefined;
  if (view.getUint32(at + 4, true) !== 0x004e4942) return undefined;
  return Math.min(view.getUint32(at, true), bytes.length - at - 8);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data: URI's bytes, in full, or an error: invalid base64 is never read as "empty". */
function decodeDataUri(path: string, where: string, uri: string): Uint8Array {
  const comma = uri.indexOf(',');
  const head = comma < 0 ? '' : uri.slice(5, comma);
  if (comma < 0 || !/;base64$/i.test(head))
    throw new SlmeshError('INPUT_INVALID', `${path}: ${where} is a data: URI that is not base64`);
  const body = uri.slice(comma + 1);
  if (body.length % 4 !== 0 || !BASE64.test(body))
    throw new SlmeshError('INPUT_INVALID', `${path}: ${where} is a data: URI with invalid base64`);
  return new Uint8Array(Buffer.from(body, 'base64'));
}

/** The GLB's BIN chunk, if it has one. */
function glbBinChunk(bytes: Uint8Array): Uint8Array | undefined {
  const length = glbBinChunkLength(bytes);
  if (length === undefined) return undefined;
  const at = 20 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(12, true) + 8;
  return bytes.subarray(at, at + length);
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ktx2: 'image/ktx2',
};

/**
 * A file that requires an extension the reader does not know (extensionsRequired) cannot be read
 * as its author meant: say which one. The name is the file's own text, so it is printed only when
 * it looks like an extension name.
 */
function checkRequiredExtensions(path: string, json: Record<string, unknown>): void {
  const required = Array.isArray(json.extensionsRequired) ? json.extensionsRequired : [];
  const missing = required.find((name) => typeof name !== 'string' || !READABLE_EXTENSIONS.has(name));
  if (missing === undefined) return;
  const name =
    typeof missing === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(missing) ? missing : 'an extension with an odd name';
  throw new SlmeshError(
    'INPUT_UNREADABLE',
    `${path}: cannot read glTF (it requires the extension ${name}, which slmesh does not read)`,
  );
}

/**
 * Reads one glTF/GLB file into a glTF-Transform Document, checked first. Every external file
 * is read here (safe-read.ts), and glTF-Transform is handed the bytes.
 */
export async function readDocument(path: string, options: ReadModelFileOptions = {}): Promise<Document> {
  const maxBytes = options.maxFileBytes ?? READ_MODEL_FILE_DEFAULTS.maxFileBytes;
  const bytes = await readBytes(path, maxBytes);
  const { json, glb } = parseGltfJson(path, bytes);
  checkRequiredExtensions(path, json);
  checkUris(path, json);
  checkAccessors(path, json, glb ? (glbBinChunkLength(bytes) ?? 0) : undefined);
  checkReferences(path, json);
  // 1. Every buffer, in full: the GLB's BIN chunk, a data: URI or a file in the model's folder.
  const folder = dirname(resolve(path));
  const resources: Record<string, Uint8Array> = {};
  const files = new Map<string, Uint8Array>();
  let budget = maxBytes;
  const readResource = async (uri: string, where: string): Promise<Uint8Array> => {
    const known = files.get(uri);
    if (known) return known;
    const data = await readInside(
      resolve(folder, decodeURIComponent(uri)),
      `${path}: ${where} "${printableUri(uri)}"`,
      { root: folder, maxBytes: Math.max(0, budget) },
    );
    budget -= data.length;
    files.set(uri, data);
    return data;
  };
  const buffers = Array.isArray(json.buffers) ? (json.buffers as Record<string, unknown>[]) : [];
  for (const [i, b] of buffers.entries()) {
    const where = `buffers[${i}]`;
    const declared = b.byteLength as number;
    let data: Uint8Array;
    if (
      typeof b.uri !== 'string' &&
      (b.extensions as { EXT_meshopt_compression?: { fallback?: boolean } } | undefined)?.EXT_meshopt_compression
        ?.fallback
    ) {
      continue; // a meshopt fallback buffer has no data: its views are decoded from another buffer
    }
    if (typeof b.uri !== 'string') {
      if (!glb || i !== 0)
        throw new SlmeshError(
          'INPUT_INVALID',
          `${path}: ${where} has no uri (only a GLB's first buffer may use its binary chunk)`,
        );
      data = glbBinChunk(bytes) ?? new Uint8Array(0);
      resources['@glb.bin'] = data;
    } else if (b.uri.startsWith('data:')) {
      data = decodeDataUri(path, `${where}.uri`, b.uri);
      const key = `__slmesh_buffer_${i}.bin`;
      resources[key] = data;
      b.uri = key;
    } else {
      data = await readResource(b.uri, `${where}.uri`);
      resources[b.uri] = data;
    }
    if (data.length < declared)
      throw new SlmeshError('INPUT_INVALID', `${path}: ${where} declares ${declared} bytes but has ${data.length}`);
  }
  // 2. Images: read (safely) only when asked; otherwise an empty placeholder of the same type.
  const images = Array.isArray(json.images) ? (json.images as Record<string, unknown>[]) : [];
  for (const [i, im] of images.entries()) {
    if (typeof im.uri !== 'string') continue;
    const uri = im.uri;
    if (im.mimeType === undefined) {
      const ext = /\.([A-Za-z0-9]+)$/.exec(uri.split(/[?#]/)[0])?.[1]?.toLowerCase();
      const type = uri.startsWith('data:') ? /^data:([^;,]+)/.exec(uri)?.[1] : ext ? IMAGE_TYPES[ext] : undefined;
      if (type) im.mimeType = type;
    }
    const key = `__slmesh_image_${i}`;
    if ((options.images ?? READ_MODEL_FILE_DEFAULTS.images) === 'read') {
      resources[key] = uri.startsWith('data:')
        ? decodeDataUri(path, `images[${i}].uri`, uri)
        : await readResource(uri, `images[${i}].uri`);
    } else resources[key] = new Uint8Array(0);
    im.uri = key;
  }
  const used = Array.isArray(json.extensionsUsed) ? (json.extensionsUsed as string[]) : [];
  const io = options.io ?? (await createNodeIO({ draco: used.includes('KHR_draco_mesh_compression') }));
  try {
    return await io.readJSON({ json: json as never, resources: resources as never });
  } catch (e) {
    // A TypeError is the reader tripping over a value of the wrong type (a number where an object
    // belongs, an object where an array does): say so rather than only quote its internals.
    const why =
      e instanceof TypeError ? `a property does not have the type glTF 2.0 gives it: ${firstLine(e)}` : firstLine(e);
    throw new SlmeshError('INPUT_UNREADABLE', `${path}: cannot read glTF (${why})`);
  }
}

function printableUri(uri: string): string {
  const p = uri.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return p.length > 80 ? `${p.slice(0, 80)}...` : p;
}

/**
 * A sibling file (`chair_LOD2.glb`) of a model, if one exists: read under the same rules as
 * the model (a sibling that is a link out of the folder is an error, not skipped).
 */
export async function readSiblingDocument(
  path: string,
  slot: 'medium' | 'low' | 'lowest' | 'physics',
  options: ReadModelFileOptions = {},
): Promise<{ path: string; doc: Document } | undefined> {
  const sib = join(dirname(path), siblingFileName(basename(path), slot));
  if (!(await existsNoFollow(sib))) return undefined;
  return { path: sib, doc: await readDocument(sib, options) };
}

/** Reads a model file and its sibling LOD/physics files into objects. */
export async function readModelFile(path: string, options: ReadModelFileOptions = {}): Promise<ReadModelFileResult> {
  const siblings = options.siblings ?? READ_MODEL_FILE_DEFAULTS.siblings;
  const files = [path];
  const slotNodes: SlotNode[] = [];
  const diagnostics: Diagnostic[] = [];

  // 1. The main file: every mesh node, by the viewer's node naming.
  const doc = await readDocument(path, options);
  const main = readMeshNodes(doc, { source: path, maxTriangles: options.maxTriangles, importer: options.importer });
  const high = highFileSlots(main.nodes, path, options.lodNodes ?? 'objects');
  for (const d of main.diagnostics) diagnostics.push(d);
  for (const d of high.diagnostics) diagnostics.push(d);
  for (const n of high.slotNodes) slotNodes.push(n);

  // 2. Sibling files fill their slot for every object they name (or the only object).
  if (siblings && !isSiblingFileName(basename(path))) {
    for (const slot of ['medium', 'low', 'lowest', 'physics'] as const) {
      const found = await readSiblingDocument(path, slot, options);
      if (!found) continue;
      const { path: sib, doc: sdoc } = found;
      files.push(sib);
      const read = readMeshNodes(sdoc, { source: sib, maxTriangles: options.maxTriangles, importer: options.importer });
      for (const d of read.diagnostics) diagnostics.push(d);
      for (const node of read.nodes)
        slotNodes.push({ base: parseLodName(node.name).base, slot: slot as LodSlot, node, source: sib });
    }
  }
  const assembled = assembleModel(slotNodes);
  return { model: assembled.model, diagnostics: [...diagnostics, ...assembled.diagnostics], files };
}
