/**
 * slPhysics: Second Life physics shapes for every object of a Document, as a glTF-Transform
 * transform. Per object it builds the single convex hull (at most 256 vertices) and, as `mode`
 * asks, a convex decomposition (at most 256 hulls of 256 vertices that fit the solid within
 * `tolerance`, doorways kept open) or a triangle physics mesh (core `buildPhysics`;
 * docs/physics.md).
 *
 * Where the result goes (what the viewer's uploader reads, so the files upload as priced):
 * 1. the physics model is the `_PHYS` sibling file the uploader loads next to the high file
 *    (spec section 4): `onPhysicsDocument` receives it, with the input's node tree, names and
 *    transforms: one closed convex mesh per hull for a decomposition (the uploader's Analyze step
 *    keeps them as hulls), the triangles for a physics mesh; nothing for `hull` and `none` (the
 *    uploader makes the single hull itself);
 * 2. each high node gets `extras.slmesh.physics`: `{ mode, weight, estimate, hulls? }` (the shape
 *    chosen, its physics weight at the planned size, and whether that weight is an estimate).
 *    The document's own tree and meshes are otherwise left as they are.
 */

import type { Document, Transform } from '@gltf-transform/core';
import {
  assignDefaults,
  buildPhysics,
  boxSize,
  emptyBox,
  unionBox,
  worldBox,
  type PhysicsMode,
  type SlObject,
} from '@slmesh/core';
import { createTransform } from './gltf-utils.js';
import { meshoptSimplifyFn } from './physics-simplify.js';
import { scaleFactorsFor, type SizeRequest } from './report.js';
import { documentToModel } from './to-model.js';
import { uploadSlots, writeUploadSlot } from './upload-writer.js';

const NAME = 'slPhysics';

/** Options for the {@link slPhysics} transform. */
export interface SlPhysicsOptions {
  /** Shape: 'auto' (a decomposition when its estimated weight is below the triangle mesh's, else the single hull), 'hull', 'decompose', 'mesh' or 'none'. Default: 'auto'. */
  mode?: PhysicsMode;
  /** Decomposition fit tolerance, world metres: gaps wider than this stay open. Default: 0.05. */
  tolerance?: number;
  /** Most hulls in a decomposition. Default: 256. */
  maxHulls?: number;
  /** Most vertices per hull. Default: 256. */
  maxHullVertices?: number;
  /** Plan (and weigh) the linkset at this size. Default: the model's own size. */
  size?: SizeRequest;
  /** Receives the `_PHYS` sibling document (write it as `name_PHYS.glb` beside the file), when a shape is written. Default: none. */
  onPhysicsDocument?: (physics: Document) => void;
}

export const SL_PHYSICS_DEFAULTS = {
  mode: 'auto' as PhysicsMode,
  tolerance: 0.05,
  maxHulls: 256,
  maxHullVertices: 256,
};

/** What slPhysics stores in the high node's `extras.slmesh.physics`. */
export interface SlPhysicsExtras {
  mode: 'hull' | 'decompose' | 'mesh' | 'none';
  weight: number;
  estimate: boolean;
  hulls?: number;
}

/**
 * ```javascript
 * import { NodeIO } from '@gltf-transform/core';
 * import { slPhysics } from '@slmesh/gltf-plugin';
 *
 * const document = await new NodeIO().read('chair.glb');
 * await document.transform(slPhysics({ mode: 'decompose', tolerance: 0.05 }));
 * ```
 */
export function slPhysics(_options: SlPhysicsOptions = {}): Transform {
  const options = assignDefaults(SL_PHYSICS_DEFAULTS, _options);
  return createTransform(NAME, async (document: Document): Promise<void> => {
    const logger = document.getLogger();

    // 1. The document's objects, as the viewer's importer reads them.
    const { model, diagnostics, nodes, slotNodes } = documentToModel(document, { source: NAME });
    for (const d of diagnostics) logger.warn(`${NAME}: ${d.message}`);
    if (model.objects.length === 0) {
      logger.warn(`${NAME}: no triangle meshes in the default scene; nothing to do.`);
      return;
    }
    const box = model.objects.reduce((b, o) => unionBox(b, worldBox(o)), emptyBox());
    const scale = scaleFactorsFor(boxSize(box), options.size);

    // 2. A physics shape per object. A shape that is not chosen is dropped, so the file says one thing.
    const summaries = new Map<string, SlPhysicsExtras>();
    // meshoptimizer simplifies a big mesh's decomposition proxy and a mesh that keeps an opening.
    const simplify = await meshoptSimplifyFn();
    const objects: SlObject[] = model.objects.map((object) => {
      const r = buildPhysics(object, {
        mode: options.mode,
        tolerance: options.tolerance,
        maxHulls: options.maxHulls,
        maxHullVertices: options.maxHullVertices,
        scale,
        decompose: { simplify },
      });
      for (const d of r.diagnostics)
        logger[d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warn' : 'debug'](`${NAME}: ${d.message}`);
      // 'none' keeps what the object has; otherwise only the chosen shape is written (the
      // uploader computes the single hull itself, so it is never written as `_PHYS`).
      const out: SlObject = r.mode === 'none' ? object : { ...r.object };
      if (r.mode !== 'none') {
        delete out.hull;
        if (r.mode !== 'decompose') delete out.decomposition;
        if (r.mode !== 'mesh') delete out.physicsMesh;
      }
      summaries.set(object.name, {
        mode: r.mode,
        weight: r.weight,
        estimate: r.estimate,
        ...(r.mode === 'decompose' ? { hulls: out.decomposition?.length ?? 0 } : {}),
      });
      logger.debug(
        `${NAME}: ${object.name}: ${r.mode}, physics weight ${r.weight.toFixed(2)}${r.estimate ? ' (estimate)' : ''}.`,
      );
      return out;
    });

    // 3. The `_PHYS` sibling document, and the summary on each high node.
    const withPhysics = { ...model, objects };
    if (options.onPhysicsDocument && uploadSlots(withPhysics).includes('physics')) {
      options.onPhysicsDocument(await writeUploadSlot(document, withPhysics, nodes, 'physics', { slotNodes }));
    }
    for (const [name, n] of nodes) {
      const s = summaries.get(name);
      const node = document.getRoot().listNodes()[n.index];
      if (s && node)
        node.setExtras({ ...node.getExtras(), slmesh: { ...((node.getExtras().slmesh as object) ?? {}), physics: s } });
    }
    logger.debug(`${NAME}: ${objects.length} objects. Complete.`);
  });
}
