/**
 * Progress on a terminal for long commands: one line on stderr, redrawn in place
 * ("optimize: LODs 3/12", "physics Chair 42%"), cleared when the command ends.
 *
 * Guarantees: nothing is written unless the stream is a TTY and `quiet` is off, so piped or
 * redirected output and `--quiet` stay silent; the pipeline (gltf-plugin, core) never writes to
 * the console itself: it calls the injected `onProgress(phase, done, total)` and this module
 * draws it. A line is only redrawn when its text changes.
 */

import type { OptimizePhase } from '@slmesh/gltf-plugin/node';

/** A stream progress can draw on (process.stderr, or anything with isTTY and write). */
export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

export interface Progress {
  /** True when something will be drawn (a TTY, not quiet). */
  readonly active: boolean;
  /** `label done/total` (or `label` alone when total is 0). */
  step(label: string, done: number, total: number): void;
  /** `label 42%`. */
  fraction(label: string, fraction: number): void;
  /** Clears the line. */
  clear(): void;
}

/** Human names of the optimize pipeline's phases. */
export const PHASE_LABELS: Readonly<Record<OptimizePhase, string>> = {
  read: 'reading',
  price: 'pricing the input',
  lods: 'planning LODs',
  physics: 'physics',
  sharpen: 'planning sharper LODs',
  write: 'writing',
  report: 'pricing the output',
  join: 'pricing the objects joined into one',
  strict: 'planning LODs at the pixel bound',
};

const SILENT: Progress = { active: false, step() {}, fraction() {}, clear() {} };

/** A progress line on `stream` (default stderr); silent when it is not a TTY or `quiet`. */
export function createProgress(options: { stream?: ProgressStream; quiet?: boolean } = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet || !stream.isTTY) return SILENT;
  let shown = '';
  const draw = (text: string) => {
    if (text === shown) return;
    shown = text;
    stream.write(`\r${text}\x1b[K`);
  };
  return {
    active: true,
    step(label, done, total) {
      draw(total > 0 ? `${label} ${done}/${total}` : label);
    },
    fraction(label, f) {
      draw(`${label} ${Math.max(0, Math.min(100, Math.floor(f * 100)))}%`);
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = '';
    },
  };
}

/** The optimize pipeline's `onProgress`, drawn on `progress` ("optimize: planning LODs 2/5"). */
export function optimizeProgress(progress: Progress): (phase: OptimizePhase, done: number, total: number) => void {
  return (phase, done, total) => {
    // Single-step phases show their name; per-object phases their count.
    progress.step(`optimize: ${PHASE_LABELS[phase]}`, total > 1 ? done : 0, total > 1 ? total : 0);
  };
}
