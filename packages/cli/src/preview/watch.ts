/**
 * Watches a model file and its siblings for `slmesh preview --watch`: calls back once the
 * files have been quiet for `debounceMs` after a change (an exporter writes a file in several
 * steps, or replaces it by rename), and never runs two callbacks at once (a change during a run
 * queues one more run).
 *
 * Watched, in the model's folder: the model itself, its sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS`
 * files (.glb and .gltf), and the `.bin` buffers of a .gltf export named after them. The folder is
 * watched rather than the files, so a file that is deleted and written again is still seen.
 */

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { siblingFileName } from '@slmesh/gltf-plugin/node';

export interface WatchOptions {
  /** Quiet time after the last change before the callback runs, ms. Default 200. */
  debounceMs?: number;
  /** File names in the folder to ignore (e.g. the page being written there). */
  ignore?: string[];
}

export interface ModelWatcher {
  close(): void;
}

/** The file names in the model's folder whose change re-runs the preview. */
export function watchedNames(modelPath: string): Set<string> {
  const base = basename(modelPath);
  const names = new Set<string>([base]);
  const stem = base.slice(0, base.length - extname(base).length);
  for (const slot of ['medium', 'low', 'lowest', 'physics'] as const) {
    const sib = siblingFileName(base, slot);
    names.add(sib);
    const sibStem = sib.slice(0, sib.length - extname(sib).length);
    // A .gltf export's buffers, and a sibling exported in the other glTF flavour.
    names.add(`${sibStem}.bin`);
    names.add(`${sibStem}.glb`);
    names.add(`${sibStem}.gltf`);
  }
  names.add(`${stem}.bin`);
  return names;
}

export function watchModel(
  modelPath: string,
  onChange: () => Promise<void> | void,
  options: WatchOptions = {},
): ModelWatcher {
  const debounceMs = options.debounceMs ?? 200;
  const names = watchedNames(modelPath);
  for (const n of options.ignore ?? []) names.delete(n);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let closed = false;

  const run = async () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await onChange();
    } finally {
      running = false;
      if (again && !closed) {
        again = false;
        void run();
      }
    }
  };

  let watcher: FSWatcher;
  try {
    watcher = watch(resolve(dirname(modelPath)), { persistent: true }, (_event, name) => {
      if (closed || (name !== null && !names.has(String(name)))) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void run(), debounceMs);
    });
  } catch (e) {
    throw new SlmeshError(
      'INPUT_UNREADABLE',
      `${modelPath}: cannot watch its folder (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
  watcher.on('error', () => undefined);

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
