export * from './lod-naming.js';
export * from './to-model.js';
export * from './node-io.js';
export * from './read-file.js';
export * from './node-zlib.js';
export * from './report.js';
