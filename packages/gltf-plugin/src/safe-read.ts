/**
 * Reads a file that came from a pull request, and nothing else: the one way slmesh opens a
 * model, a buffer, an image, a sibling file, a budget, a budget it `extends`, a baseline or a
 * `.gitignore`.
 *
 * Guarantees (docs/security.md):
 * 1. The path is resolved to its real path (every symbolic link, of the file or of any folder
 *    on the way); the real path must lie inside the real path of `root` (the model's folder,
 *    or the budget's repository). A link out of it is INPUT_UNSAFE, whatever it points at.
 * 2. No part of the path below `root` may be a hidden name (`.git`, `.env`): configurable, as
 *    a budget may live in `.github/`, but `.git` is always refused.
 * 3. The real path is opened once (O_NOFOLLOW, O_NONBLOCK: a FIFO or device cannot block the
 *    open) and the opened file is checked, not the name: it must be a regular file and the
 *    same file (device and inode) the real path named, so a swap between the check and the
 *    open is refused.
 * 4. At most `maxBytes` are read, and never more than the size fstat gave: `/dev/zero` or a
 *    growing file cannot make a read run forever.
 * 5. Errors are one line naming the file as the user knows it (`shown`) and the problem; they
 *    never quote the file's bytes, nor where a link points.
 */

import { type BigIntStats, constants } from 'node:fs';
import { type FileHandle, lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { SlmeshError } from '@slmesh/core';

export interface SafeReadOptions {
  /** The folder the file must stay inside after every link is resolved. */
  root: string;
  /** The largest file accepted, bytes (INPUT_LIMIT beyond). */
  maxBytes: number;
  /** How the root is described in messages. Default "the model's folder". */
  rootName?: string;
  /**
   * Hidden names (starting with `.`) below `root`: 'refuse' (default: resources of a model),
   * 'folders' (a hidden file name is fine, a hidden folder is not: the model itself), or
   * 'allow' (budgets in `.github/`); `.git` is refused in every mode.
   */
  hidden?: 'refuse' | 'folders' | 'allow';
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/** The real path of a folder, or INPUT_UNREADABLE naming it. */
export async function realFolder(dir: string, shown: string = dir): Promise<string> {
  try {
    const real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) throw new SlmeshError('INPUT_UNREADABLE', `${shown}: not a folder`);
    return real;
  } catch (e) {
    if (e instanceof SlmeshError) throw e;
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${shown}: ${errno(e) === 'ENOENT' ? 'no such folder' : `cannot open folder (${errno(e) ?? 'error'})`}`,
    );
  }
}

/** Whether `real` (a real path) lies inside `rootReal`; returns the relative path or undefined. */
export function insideRoot(rootReal: string, real: string): string | undefined {
  const rel = relative(rootReal, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel;
}

/** Resolves `path` to a real path that is allowed by `options`, or throws. */
export async function resolveInside(path: string, shown: string, options: SafeReadOptions): Promise<string> {
  const rootReal = await realFolder(options.root, options.rootName ?? options.root);
  let real: string;
  try {
    real = await realpath(path);
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT') throw new SlmeshError('INPUT_UNREADABLE', `${shown}: no such file`);
    if (code === 'ELOOP') throw new SlmeshError('INPUT_UNSAFE', `${shown}: a loop of symbolic links`);
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: cannot read (${code ?? 'error'})`);
  }
  const rel = insideRoot(rootReal, real);
  const where = options.rootName ?? "the model's folder";
  if (rel === undefined)
    throw new SlmeshError(
      'INPUT_UNSAFE',
      `${shown}: resolves (through a symbolic link) to a file outside ${where}; only regular files inside it are read`,
    );
  const parts = rel.split(sep);
  const mode = options.hidden ?? 'refuse';
  parts.forEach((p, i) => {
    const last = i === parts.length - 1;
    if (p === '.git' || (p.startsWith('.') && (mode === 'refuse' || (mode === 'folders' && !last)))) {
      throw new SlmeshError(
        'INPUT_UNSAFE',
        `${shown}: is (or lies in) a hidden ${last ? 'file' : 'folder'} such as .git; slmesh does not read hidden files as resources`,
      );
    }
  });
  return real;
}

/**
 * Reads a file under the rules above. `shown` is the name used in messages. Resolves to the
 * bytes; throws SlmeshError (INPUT_UNREADABLE, INPUT_UNSAFE or INPUT_LIMIT) otherwise.
 */
export async function readInside(path: string, shown: string, options: SafeReadOptions): Promise<Uint8Array> {
  const real = await resolveInside(path, shown, options);
  // 1. What the real path names now.
  let named: BigIntStats;
  try {
    named = await stat(real, { bigint: true });
  } catch (e) {
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: cannot read (${errno(e) ?? 'error'})`);
  }
  if (!named.isFile())
    throw new SlmeshError(
      'INPUT_UNSAFE',
      `${shown}: not a regular file (a folder, device, FIFO or socket is never read)`,
    );
  // 2. Open it once, without following a link put there since, and check what was opened.
  let fh: FileHandle;
  try {
    fh = await open(
      real,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0),
    );
  } catch (e) {
    const code = errno(e);
    if (code === 'ELOOP')
      throw new SlmeshError('INPUT_UNSAFE', `${shown}: was replaced by a symbolic link while being read`);
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: cannot read (${code ?? 'error'})`);
  }
  try {
    const st = await fh.stat({ bigint: true });
    if (!st.isFile())
      throw new SlmeshError(
        'INPUT_UNSAFE',
        `${shown}: not a regular file (a folder, device, FIFO or socket is never read)`,
      );
    if (st.dev !== named.dev || st.ino !== named.ino)
      throw new SlmeshError('INPUT_UNSAFE', `${shown}: was replaced while being read`);
    if (st.size > BigInt(options.maxBytes))
      throw new SlmeshError(
        'INPUT_LIMIT',
        `${shown}: file is ${st.size} bytes, over the ${options.maxBytes}-byte limit`,
      );
    // 3. Exactly the size it had when opened (bounded even if it grows).
    const size = Number(st.size);
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(out, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    if (at < size) throw new SlmeshError('INPUT_UNREADABLE', `${shown}: became shorter while being read`);
    return out;
  } catch (e) {
    if (e instanceof SlmeshError) throw e;
    throw new SlmeshError('INPUT_UNREADABLE', `${shown}: cannot read (${errno(e) ?? 'error'})`);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Whether a path exists at all (without following it): for optional files such as siblings. */
export async function existsNoFollow(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
