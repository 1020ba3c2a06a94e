/**
 * The content-hash cache of `slmesh check --cache DIR`: an asset whose bytes have not changed
 * is not priced again.
 *
 * Key: sha256 over the cache format, the slmesh version, the deflate that sizes the blocks
 * (core zlibNgDeflate: zlib-ng 2.2.2 level 9, the same on every Node), the pricing options, the sizes asked about, the
 * asset's path (the report and its diagnostics name it), and the sha256 of every file the
 * price depends on: the asset's bytes, each sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS` file (by
 * slot), and external buffers a .gltf refers to (images are not: pricing never reads them).
 * Every file is read through safe-read, as pricing reads it. Value: the asset's PricedAsset
 * JSON, exactly the text a fresh pricing produces, so a hit gives the same report as a miss.
 *
 * Entries are written atomically (temporary file, then rename: two CI shards or a killed run
 * never leave half an entry) under DIR/<first two hex digits>/<key>.json. An entry that does
 * not parse or carries another key is a miss, and is overwritten.
 */

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkUris, isSiblingFileName, parseGltfJson, readInside, siblingFileName } from '@slmesh/gltf-plugin/node';
import { writeFileAtomic } from '../write-atomic.js';
import type { Pricing } from './budget.js';
import type { PricedAsset } from './price-asset.js';

/** Changes when the stored value's shape changes. */
export const CACHE_FORMAT = 1;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** A file's bytes under pricing's rules (inside `root`, regular, size-limited), or undefined. */
async function readIfFile(
  path: string,
  root: string = dirname(path),
  hidden: 'refuse' | 'folders' = 'refuse',
): Promise<Uint8Array | undefined> {
  try {
    return await readInside(path, path, { root, maxBytes: 512 * 1024 * 1024, hidden });
  } catch {
    return undefined; // pricing reports the error, nothing is cached
  }
}

/** Hashes of a glTF/GLB file and the external files it refers to; undefined if any is unusable. */
async function fileDigest(path: string, bytes: Uint8Array): Promise<string[] | undefined> {
  const parts = [sha256(bytes)];
  let json: Record<string, unknown>;
  try {
    json = parseGltfJson(path, bytes).json;
    checkUris(path, json);
  } catch {
    return undefined; // not readable: pricing reports the error, nothing is cached
  }
  for (const kind of ['buffers'] as const) {
    const list = json[kind];
    if (!Array.isArray(list)) continue;
    for (const item of list as { uri?: string }[]) {
      const uri = item?.uri;
      if (typeof uri !== 'string' || uri.startsWith('data:')) continue;
      const ext = await readIfFile(resolve(dirname(path), decodeURIComponent(uri)), dirname(path));
      if (!ext) return undefined;
      parts.push(`${kind}:${uri}:${sha256(ext)}`);
    }
  }
  return parts;
}

/**
 * The digest of everything an asset's price depends on in the file system, or undefined when
 * a file cannot be read (then the asset is priced, and its error reported, without caching).
 */
export async function assetDigest(path: string, siblings: boolean): Promise<string | undefined> {
  const bytes = await readIfFile(path, dirname(path), 'folders');
  if (!bytes) return undefined;
  const parts = await fileDigest(path, bytes);
  if (!parts) return undefined;
  if (siblings && !isSiblingFileName(basename(path))) {
    for (const slot of ['medium', 'low', 'lowest', 'physics'] as const) {
      const sib = join(dirname(path), siblingFileName(basename(path), slot));
      const sbytes = await readIfFile(sib, dirname(sib), 'folders');
      if (!sbytes) continue;
      const sparts = await fileDigest(sib, sbytes);
      if (!sparts) return undefined;
      parts.push(`${slot}:${sparts.join(',')}`);
    }
  }
  return sha256(parts.join('\n'));
}

export interface CacheKeyInput {
  /** The asset's path as reported. */
  path: string;
  /** assetDigest() of the asset. */
  digest: string;
  version: string;
  pricing: Pricing;
  sizes: readonly number[];
}

export function cacheKey(input: CacheKeyInput): string {
  const pricing = Object.fromEntries(Object.entries(input.pricing).sort(([a], [b]) => (a < b ? -1 : 1)));
  return sha256(
    JSON.stringify({
      format: CACHE_FORMAT,
      slmesh: input.version,
      deflate: 'zlib-ng 2.2.2 level 9 (core zlibNgDeflate)',
      pricing,
      sizes: input.sizes,
      path: input.path,
      digest: input.digest,
    }),
  );
}

const entryPath = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

/** The cached asset for a key, or undefined on a miss (absent, corrupt or another key's). */
export async function readCacheEntry(dir: string, key: string): Promise<PricedAsset | undefined> {
  let text: string;
  try {
    text = await readFile(entryPath(dir, key), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(text) as { key?: unknown; asset?: PricedAsset };
    if (
      entry.key !== key ||
      typeof entry.asset !== 'object' ||
      entry.asset === null ||
      !entry.asset.report ||
      !Array.isArray(entry.asset.sized)
    )
      return undefined;
    return entry.asset;
  } catch {
    return undefined;
  }
}

/** Stores an asset's JSON (as priceAsset made it) under its key, atomically. */
export async function writeCacheEntry(dir: string, key: string, assetJson: string): Promise<void> {
  await writeFileAtomic(entryPath(dir, key), `{"key":${JSON.stringify(key)},"asset":${assetJson}}\n`);
}
