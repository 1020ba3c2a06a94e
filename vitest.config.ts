import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url));

// Tests import the workspace packages from source, so a test run never depends on a stale build.
// CLI tests that spawn `slmesh` use the built bin: the global setup rebuilds whatever is stale first.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@slmesh\/core$/, replacement: src('core') },
      { find: /^@slmesh\/gltf-plugin$/, replacement: src('gltf-plugin') },
      { find: /^@slmesh\/gltf-plugin\/node$/, replacement: src('gltf-plugin').replace(/index\.ts$/, 'node.ts') },
      { find: /^@slmesh\/preview\/payload$/, replacement: src('preview').replace(/index\.ts$/, 'payload.ts') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-assets/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['./vitest.setup.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
