/**
 * @slmesh/gltf-plugin: glTF-Transform integration for slmesh. This entry is browser-safe: no
 * Node module is reachable from it. The simplifier (meshoptimizer's MeshoptSimplifier) is
 * injected, glTF-Transform style; the zlib `deflate` the uploader's encoding needs defaults to
 * core's zlibNgDeflate (pure TypeScript, byte-identical to the viewer's zlib-ng level 9).
 * `@slmesh/gltf-plugin/node` re-exports all of this plus file reading (`readModelFile`,
 * `reportFile`), `createNodeIO` and `optimizeFile`.
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
export * from './triangle-order.js';
export { VERSION } from './version.js';
