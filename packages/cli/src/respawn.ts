/**
 * The heavy commands (`optimize`, `cost`) run in a child Node started with V8's
 * `--single-threaded`: no background compiler and garbage-collector threads. On a big model those
 * threads cost about a third more CPU time (a 252k-triangle Suzanne: 4.8 s against 3.5 s of CPU)
 * for the same or a longer wall time on a 2-core machine (docs/benchmarks.md). V8 takes the flag
 * only at start, so the command starts itself again with it; the parent only waits, passes
 * signals on and exits as the child did (a child killed by a signal kills the parent with it).
 *
 * Not done when SLMESH_RESPAWN=0, when Node already runs single-threaded, under a debugger
 * (--inspect), for help, or for the other commands (check runs its own workers, preview serves).
 *
 * This module imports nothing but Node's own, so the parent stays small.
 */

import { spawn } from 'node:child_process';
import { EXIT_INTERNAL } from './exit-codes.js';

/** Commands whose work is one long computation on the main thread. */
export const RESPAWN_COMMANDS: ReadonlySet<string> = new Set(['optimize', 'cost']);
export const RESPAWN_FLAG = '--single-threaded';
/** Set in the child, so it never starts another. */
const CHILD_MARK = 'SLMESH_RESPAWNED';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Whether this command line runs in a single-threaded child (see the module's comment). */
export function shouldRespawn(argv: readonly string[], execArgv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (env[CHILD_MARK] === '1' || env.SLMESH_RESPAWN === '0') return false;
  if (execArgv.includes(RESPAWN_FLAG)) return false;
  const nodeOptions = (env.NODE_OPTIONS ?? '').split(/\s+/);
  if ([...execArgv, ...nodeOptions].some((a) => a.startsWith('--inspect'))) return false;
  const args = argv.slice(2);
  if (args.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version')) return false;
  const first = args.find((a) => !a.startsWith('-'));
  return first !== undefined && RESPAWN_COMMANDS.has(first);
}

/**
 * Runs this command line again in a child Node with RESPAWN_FLAG, its output on this terminal,
 * and ends this process as the child ended.
 */
export function respawn(): void {
  const child = spawn(process.execPath, [...process.execArgv, RESPAWN_FLAG, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [CHILD_MARK]: '1' },
  });
  // Ctrl-C reaches the child from the terminal too; a signal sent to this process alone is passed on.
  const handlers = FORWARDED.map((signal) => {
    const pass = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    process.on(signal, pass);
    return () => process.off(signal, pass);
  });
  const detach = () => {
    for (const off of handlers) off();
  };
  child.on('error', (e) => {
    detach();
    process.stderr.write(`slmesh: internal error: could not start ${process.execPath}: ${e.message}\n`);
    process.exitCode = EXIT_INTERNAL;
  });
  child.on('exit', (code, signal) => {
    detach();
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? EXIT_INTERNAL;
  });
}
