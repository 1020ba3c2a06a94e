/**
 * The size the uploader actually uploads a model at (spec section 4).
 *
 * The upload floater's Scale spinner cannot go past the value that makes the largest object
 * 0.1 m under the 64 m prim limit, nor past the one that makes the whole model 240 m; when the
 * model as read (or at the size asked for) is bigger, the floater sets Scale to that maximum
 * (`LLModelPreview::rebuildUploadData`, viewer develop). Nothing is refused: the model goes up
 * uniformly smaller, and Second Life prices it at that size. So slmesh prices it there too, and
 * says so, instead of pricing a size that cannot be uploaded.
 */

import { MAX_IMPORT_MODEL_SIZE, MAX_OBJECT_SCALE } from '../constants.js';
import { boxSize, emptyBox, unionBox, type Vec3 } from '../geometry/object-geometry.js';
import { primScale, worldBox } from '../geometry/placement.js';
import type { Diagnostic, SlModel } from '../types.js';
import { shortNumber } from '../format.js';

/** The largest object the Scale spinner allows: `(DEFAULT_MAX_PRIM_SCALE - 0.1) / max_scale`. [viewer] */
export const IMPORT_MAX_OBJECT_SIZE = MAX_OBJECT_SCALE - 0.1;

export interface UploadScale {
  /** Per-axis factors from the model as read to the size it is uploaded at: those asked for, times `cap`. */
  factors: Vec3;
  /** 1, or the uploader's largest Scale when the size asked for is over its limits (then below 1). */
  cap: number;
  /** Why `cap` is below 1 (code `scale-capped`, a warning). */
  diagnostic?: Diagnostic;
}

const dims = (s: readonly number[]) => s.map(shortNumber).join(' x ');

/**
 * The uploader's Scale cap for objects of `objects[].size` metres (at the size asked for) in a
 * model whose box is `span` metres on its longest side: 1, or the factor that brings the largest
 * object to 63.9 m or the model to 240 m, whichever is smaller, with the diagnostic that says so.
 * (A tiny relative slack keeps a model already at the limit, as a capped model priced again is,
 * from being capped twice.)
 */
export function uploadScaleCap(
  objects: readonly { name: string; size: Vec3 }[],
  span: number,
): Omit<UploadScale, 'factors'> {
  let who: { name: string; size: Vec3 } | undefined;
  let largest = 0;
  for (const o of objects) {
    // (An object with NaN or infinite vertices is not priced, cost-report.ts: it sets no cap.)
    const m = Math.max(...o.size);
    if (Number.isFinite(m) && m > largest) {
      largest = m;
      who = o;
    }
  }
  const slack = 1 + 1e-6;
  const byObject = largest > IMPORT_MAX_OBJECT_SIZE * slack ? IMPORT_MAX_OBJECT_SIZE / largest : 1;
  const byModel = Number.isFinite(span) && span > MAX_IMPORT_MODEL_SIZE * slack ? MAX_IMPORT_MODEL_SIZE / span : 1;
  const cap = Math.min(byObject, byModel);
  if (!(cap < 1) || !who) return { cap: 1 };
  const objectBinds = byObject <= byModel;
  const why = objectBinds
    ? `${who.name} is ${dims(who.size)} m, over the ${IMPORT_MAX_OBJECT_SIZE} m the uploader's Scale allows an object`
    : `the model spans ${shortNumber(span)} m, over the ${MAX_IMPORT_MODEL_SIZE} m the uploader's Scale allows a model`;
  return {
    cap,
    diagnostic: {
      severity: 'warning',
      code: 'scale-capped',
      message: `${why}: the uploader sets Scale to ${cap.toPrecision(4)} and uploads it that much smaller (${who.name} ${dims(who.size.map((v) => v * cap))} m); priced at that size`,
      ...(objectBinds ? { object: who.name } : {}),
    },
  };
}

/**
 * The factors the model is uploaded at when asked for at per-axis factors `f` from its size as
 * read: `f` itself, or `f` shrunk uniformly by uploadScaleCap (no object over 63.9 m on an axis,
 * the model's box at most 240 m on a side).
 */
export function uploadScale(model: SlModel, f: Vec3 = [1, 1, 1]): UploadScale {
  let box = emptyBox();
  const objects = model.objects.map((o) => {
    box = unionBox(box, worldBox(o));
    const s = primScale(o);
    return { name: o.name, size: [s[0] * f[0], s[1] * f[1], s[2] * f[2]] as Vec3 };
  });
  const span0 = boxSize(box);
  const span = objects.length ? Math.max(span0[0] * f[0], span0[1] * f[1], span0[2] * f[2]) : 0;
  const { cap, diagnostic } = uploadScaleCap(objects, span);
  return { factors: [f[0] * cap, f[1] * cap, f[2] * cap], cap, ...(diagnostic ? { diagnostic } : {}) };
}
