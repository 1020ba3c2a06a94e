/**
 * A glTF-Transform NodeIO that reads any glTF 2.0 / GLB: every extension glTF-Transform knows,
 * the meshopt decoder, and the Draco decoder (loaded only when asked, it is a large WASM module).
 */

import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';

/** Names of the glTF extensions the reader understands (a file that requires another cannot be read). */
export const READABLE_EXTENSIONS: ReadonlySet<string> = new Set(ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME));

let dracoDecoder: Promise<unknown> | undefined;

export interface CreateNodeIOOptions {
  /** Register the Draco decoder (KHR_draco_mesh_compression). Default true. */
  draco?: boolean;
}

/**
 * glTF-Transform's reader logger at WARN, minus one message: an optional extension it does not
 * know ("Missing optional extension, ..."; assimp writes FB_ngon_encoding) may be ignored by any
 * reader, the viewer's importer too, so it is no news to a creator. Other warnings keep their
 * text, marked as the glTF reader's.
 */
class ReaderLogger extends Logger {
  constructor() {
    super(Logger.Verbosity.WARN);
  }
  override warn(text: string): void {
    if (text.startsWith('Missing optional extension')) return;
    super.warn(`slmesh: glTF reader: ${text}`);
  }
}

export async function createNodeIO(options: CreateNodeIOOptions = {}): Promise<NodeIO> {
  await MeshoptDecoder.ready;
  const deps: Record<string, unknown> = { 'meshopt.decoder': MeshoptDecoder };
  if (options.draco ?? true) {
    dracoDecoder ??= import('draco3dgltf').then((m) => (m.default ?? m).createDecoderModule());
    deps['draco3d.decoder'] = await dracoDecoder;
  }
  return new NodeIO().setLogger(new ReaderLogger()).registerExtensions(ALL_EXTENSIONS).registerDependencies(deps);
}
