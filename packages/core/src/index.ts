export * from './types.js';
export * from './constants.js';
export * from './errors.js';
export * from './object-geometry.js';
export * from './convex-hull.js';
export * from './submodels.js';
export * from './upload-checks.js';
export * from './cost-report.js';
