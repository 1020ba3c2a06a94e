/**
 * Output files are written whole or not at all: each goes to a temporary file in the target
 * folder and is renamed into place, and a command that fails removes what it already wrote.
 */

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

let counter = 0;

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Writes a set of files; if any write fails, the ones already written are removed. */
export async function writeAllOrNothing(files: { path: string; data: Uint8Array | string }[]): Promise<void> {
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
