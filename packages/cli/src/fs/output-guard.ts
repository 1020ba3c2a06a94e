/**
 * Before `optimize` (or `preview -o`) computes anything: the outputs it will write must not be its input, nor a
 * sibling file the input is read with (`chair_LOD2.glb`), nor a read-only file or a folder.
 * Compared by real file (device and inode), so `-o ./in.glb`, a hard link or a symbolic link
 * to the input are all caught.
 *
 * Guarantees: an artist's export is never overwritten by the file made from it; every refusal
 * is a one-line OUTPUT_UNWRITABLE error (exit 2) naming the output.
 */

import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { siblingFileName } from '@slmesh/gltf-plugin/node';
import { checkReplaceable } from '../write-atomic.js';

const SLOTS = ['medium', 'low', 'lowest', 'physics'] as const;

async function identity(path: string): Promise<string | undefined> {
  try {
    const st = await stat(path, { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** The files `optimize input -o output` would write. */
export function plannedOutputs(output: string, options: { split: boolean; report?: string }): string[] {
  const out = [output];
  if (options.split) for (const s of SLOTS) out.push(join(dirname(output), siblingFileName(basename(output), s)));
  if (options.report) out.push(options.report);
  return out;
}

export async function refuseOverwritingInputs(
  input: string,
  output: string,
  options: { split: boolean; report?: string },
): Promise<void> {
  const inputs = [input, ...SLOTS.map((s) => join(dirname(input), siblingFileName(basename(input), s)))];
  const ids = new Map<string, string>();
  for (const f of inputs) {
    const id = await identity(f);
    if (id) ids.set(id, f);
  }
  for (const out of plannedOutputs(output, options)) {
    const id = await identity(out);
    const same = (id && ids.get(id)) ?? inputs.find((f) => resolve(f) === resolve(out));
    if (same)
      throw new SlmeshError(
        'OUTPUT_UNWRITABLE',
        `${out}: is the input ${same}; write the optimized model to another file (-o)`,
      );
    await checkReplaceable(out);
  }
}
