/**
 * The heavy commands run in a single-threaded child Node (src/respawn.ts): which command lines
 * do, that the child really has the flag, and that the parent passes a signal on and ends as the
 * child did, leaving no output.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESPAWN_FLAG, shouldRespawn } from '../src/respawn.js';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const argv = (...args: string[]) => ['/usr/bin/node', bin, ...args];

describe('shouldRespawn', () => {
  it('takes optimize and cost, and nothing else', () => {
    expect(shouldRespawn(argv('optimize', 'a.glb', '-o', 'b.glb'), [], {})).toBe(true);
    expect(shouldRespawn(argv('cost', '--json', 'a.glb'), [], {})).toBe(true);
    for (const cmd of ['check', 'preview', 'init', 'nonsense'])
      expect(shouldRespawn(argv(cmd, 'x'), [], {})).toBe(false);
    expect(shouldRespawn(argv(), [], {})).toBe(false);
  });

  it('not for help or the version, nor once single-threaded, nor in the child, nor under a debugger, nor with SLMESH_RESPAWN=0', () => {
    expect(shouldRespawn(argv('optimize', '--help'), [], {})).toBe(false);
    expect(shouldRespawn(argv('--version'), [], {})).toBe(false);
    expect(shouldRespawn(argv('optimize', 'a.glb'), [RESPAWN_FLAG], {})).toBe(false);
    expect(shouldRespawn(argv('optimize', 'a.glb'), [], { SLMESH_RESPAWNED: '1' })).toBe(false);
    expect(shouldRespawn(argv('optimize', 'a.glb'), ['--inspect-brk'], {})).toBe(false);
    expect(shouldRespawn(argv('optimize', 'a.glb'), [], { NODE_OPTIONS: '--inspect=9229' })).toBe(false);
    expect(shouldRespawn(argv('optimize', 'a.glb'), [], { SLMESH_RESPAWN: '0' })).toBe(false);
  });
});

/** The pids of `pid`'s children (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) out.push(...text.split(/\s+/).map(Number));
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(process.platform === 'linux')('slmesh optimize in its child', () => {
  it('runs in a child with the flag; SIGTERM to the parent alone ends both, with no output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-respawn-'));
    const out = join(dir, 'out.glb');
    const parent = spawn(process.execPath, [bin, 'optimize', join(root, 'test-assets/suzanne.glb'), '-o', out], {
      stdio: 'ignore',
    });
    const ended = new Promise<{ code: number | null; signal: string | null }>((r) =>
      parent.on('exit', (code, signal) => r({ code, signal })),
    );
    let child: number | undefined;
    for (let i = 0; i < 500 && child === undefined; i++) {
      child = childrenOf(parent.pid!)[0];
      if (child === undefined) await sleep(10);
    }
    expect(child, 'the parent started no child').toBeDefined();
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain(RESPAWN_FLAG);
    expect(cmdline).toContain('optimize');
    parent.kill('SIGTERM');
    const { code, signal } = await ended;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    await sleep(100);
    expect(existsSync(`/proc/${child}`) && !readFileSync(`/proc/${child}/stat`, 'utf8').includes(') Z ')).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
