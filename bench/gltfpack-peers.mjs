/**
 * The gltfpack builds the speed benchmarks compare with, each when installed: npm's package
 * (gltfpack compiled to WASM, run by Node: the same runtime and the same meshoptimizer WASM
 * slmesh runs on) and Debian's package (a native binary). Issue #11's "gltfpack takes 0.23 s"
 * on the 252k-triangle Suzanne is what the native build takes here; npm's takes 0.7 to 0.9 s.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** [{ key, label, cmd, version }] of the installed gltfpack builds, npm's first. */
export function gltfpackPeers(root) {
  const candidates = [
    { key: 'npm', label: 'npm package `gltfpack`, WASM run by Node', cmd: join(root, 'node_modules/.bin/gltfpack') },
    { key: 'debian', label: 'Debian package `gltfpack`, native', cmd: '/usr/bin/gltfpack' },
  ];
  return candidates
    .filter((p) => existsSync(p.cmd))
    .map((p) => {
      const r = spawnSync(p.cmd, ['-v'], { encoding: 'utf8' });
      return { ...p, version: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n')[0] || 'gltfpack' };
    });
}
