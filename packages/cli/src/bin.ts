#!/usr/bin/env node
/**
 * The `slmesh` command. Every user error ends as one line on stderr and an exit status from
 * docs/errors.md; a stack trace is printed only for an internal error, and only with
 * SLMESH_DEBUG=1. Error lines have control characters replaced (a file name cannot move the
 * cursor or start a new line), and a closed stdout (`slmesh check | head`) ends output quietly.
 */

import { Command, CommanderError } from 'commander';
import { isSlmeshError } from '@slmesh/core';
import { EXIT_INTERNAL, exitCodeFor } from './exit-codes.js';
import { VERSION } from './version.js';
import { printable } from './format-table.js';

/** Runs a command's action and keeps its exit status. */
type RunCommand = (fn: () => Promise<number>) => Promise<void>;

// A reader that goes away (`| head`) is not an error: stop writing, keep the exit status.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      stream.write = (() => true) as typeof stream.write;
      return;
    }
    process.exitCode = EXIT_INTERNAL;
  });
}

/**
 * `pnpm slmesh ...` in a clone runs the root package.json's script, which pnpm starts in the
 * repository root; INIT_CWD is the folder the user typed it in. Paths on the command line are
 * the user's, so work from there (only for that script: npm_package_name is the monorepo's).
 */
function useCallersFolder(env: NodeJS.ProcessEnv): void {
  if (
    env.npm_lifecycle_event === 'slmesh' &&
    env.npm_package_name === 'slmesh-monorepo' &&
    env.INIT_CWD &&
    env.INIT_CWD !== process.cwd()
  ) {
    process.chdir(env.INIT_CWD);
  }
}

type Register = (program: Command, run: RunCommand) => void;

/** The commands, in the order help lists them, each loaded on demand. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  cost: async () => (await import('./commands/cost.js')).registerCost,
  preview: async () => (await import('./commands/preview.js')).registerPreview,
  check: async () => (await import('./commands/check.js')).registerCheck,
  init: async () => (await import('./commands/init.js')).registerInit,
  optimize: async () => (await import('./commands/optimize.js')).registerOptimize,
};

async function main(argv: string[]): Promise<number> {
  useCallersFolder(process.env);
  let status = 0;
  const run = async (fn: () => Promise<number>) => {
    status = await fn();
  };
  const program = new Command()
    .name('slmesh')
    .description('See and shrink Second Life land impact before upload.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  // Only the command asked for is loaded (each pulls in its own modules: the budget schema's
  // validator, the preview page, the glTF reader); help, a typo or no command loads them all.
  const first = argv.slice(2).find((a) => !a.startsWith('-'));
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  for (const name of names) (await COMMANDS[name]())(program, run);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; usage mistakes exit 2 (commander already printed the line).
      return e.exitCode === 0 ? 0 : 2;
    }
    if (isSlmeshError(e)) {
      process.stderr.write(`slmesh: ${printable(e.message.split('\n')[0])}\n`);
      return exitCodeFor(e.code);
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`slmesh: internal error: ${printable(msg.split('\n')[0]).slice(0, 300)}\n`);
    if (process.env.SLMESH_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
    return EXIT_INTERNAL;
  }
  return status;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT_INTERNAL;
  },
);
