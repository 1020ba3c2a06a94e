/**
 * A glTF-Transform NodeIO that reads any glTF 2.0 / GLB: every extension glTF-Transform knows,
 * the meshopt decoder, and the Draco decoder (loaded only when asked, it is a large WASM module).
 */

import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';

let dracoDecoder: Promise<unknown> | undefined;

export interface CreateNodeIOOptions {
  /** Register the Draco decoder (KHR_draco_mesh_compression). Default true. */
  draco?: boolean;
}

export async function createNodeIO(options: CreateNodeIOOptions = {}): Promise<NodeIO> {
  await MeshoptDecoder.ready;
  const deps: Record<string, unknown> = { 'meshopt.decoder': MeshoptDecoder };
  if (options.draco ?? true) {
    dracoDecoder ??= import('draco3dgltf').then((m) => (m.default ?? m).createDecoderModule());
    deps['draco3d.decoder'] = await dracoDecoder;
  }
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies(deps);
}
