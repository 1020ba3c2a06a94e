/**
 * Output files are written whole or not at all: each goes to a temporary file in the target
 * folder and is renamed into place, and a command that fails removes what it already wrote.
 *
 * Guarantees: an existing output that is a folder, or a file the user cannot write (read-only),
 * is refused, never replaced; every file-system failure is a one-line SlmeshError
 * (OUTPUT_UNWRITABLE, exit 2) naming the path and the system's reason, never an internal error.
 */

import { constants, type Stats } from 'node:fs';
import { access, lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { SlmeshError } from '@slmesh/core';

let counter = 0;

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a parent of it is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'a parent of it is a file, not a folder',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the name is too long',
  ENOENT: 'its folder does not exist',
  ELOOP: 'too many symbolic links',
};

/** A file-system error on an output as the one-line error the CLI prints (exit 2). */
export function outputError(path: string, e: unknown): SlmeshError {
  if (e instanceof SlmeshError) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  const reason = code ? `${code}: ${REASONS[code] ?? 'cannot write'}` : 'cannot write';
  return new SlmeshError('OUTPUT_UNWRITABLE', `${path}: cannot write (${reason})`);
}

/** Refuses to replace what exists at `path` unless it is a file the user may write. */
export async function checkReplaceable(path: string): Promise<void> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch {
    return; // nothing there yet
  }
  if (st.isDirectory()) throw new SlmeshError('OUTPUT_UNWRITABLE', `${path}: is a folder; name a file to write`);
  if (!st.isFile() && !st.isSymbolicLink())
    throw new SlmeshError('OUTPUT_UNWRITABLE', `${path}: is not a regular file; slmesh does not replace it`);
  if (st.isFile()) {
    try {
      await access(path, constants.W_OK);
    } catch {
      throw new SlmeshError('OUTPUT_UNWRITABLE', `${path}: is read-only; slmesh does not replace it`);
    }
    if ((st.mode & 0o222) === 0)
      throw new SlmeshError('OUTPUT_UNWRITABLE', `${path}: is read-only; slmesh does not replace it`);
  }
}

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await checkReplaceable(path);
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (e) {
    throw outputError(path, e);
  }
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw outputError(path, e);
  }
}

/** Writes a set of files; if any write fails, the ones already written are removed. */
export async function writeAllOrNothing(files: { path: string; data: Uint8Array | string }[]): Promise<void> {
  // 1. Refuse before writing anything: a later refusal would leave earlier files replaced.
  for (const f of files) await checkReplaceable(f.path);
  const written: string[] = [];
  try {
    for (const f of files) {
      await writeFileAtomic(f.path, f.data);
      written.push(f.path);
    }
  } catch (e) {
    await Promise.all(written.map((p) => rm(p, { force: true })));
    throw e;
  }
}

/** A file name safe on every platform for an object name (no separators, no dot-only names). */
export function safeFileName(name: string): string {
  let s = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  if (s.length === 0) s = 'object';
  return s.slice(0, 120);
}
