/**
 * @slmesh/gltf-plugin: glTF-Transform integration for slmesh. This entry is browser-safe: no
 * Node module is reachable from it. Platform pieces are injected, glTF-Transform style: the
 * simplifier (meshoptimizer's MeshoptSimplifier) and the zlib `deflate` (RFC 1950) the uploader's
 * encoding needs. `@slmesh/gltf-plugin/node` re-exports all of this with node:zlib as the default
 * deflate, plus file reading (`readModelFile`, `reportFile`), `createNodeIO` and `optimizeFile`.
 */
export * from './lod-naming.js';
export * from './to-model.js';
export * from './node-walk.js';
export * from './importer-frame.js';
export * from './report.js';
export * from './upload-writer.js';
export * from './sl-lods.js';
export * from './sl-physics.js';
export * from './sl-report.js';
export * from './physics-simplify.js';
export { VERSION } from './version.js';
