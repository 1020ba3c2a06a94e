#!/usr/bin/env node
/**
 * `pnpm fuzz [--cases N] [--seed S]`: a longer fuzz run; failing inputs go to
 * test-assets/fuzz-regressions/ (not with --no-keep). `--replay` runs every kept input instead.
 * Exit 0 when every case ended cleanly, 1 otherwise (the problems are printed on stdout).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fuzz, root, runCase } from './harness.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const keepDir = join(root, 'test-assets/fuzz-regressions');
let failures = [];
if (process.argv.includes('--replay')) {
  const files = readdirSync(keepDir).filter((f) => f.endsWith('.glb'));
  console.error(`fuzz: replaying ${files.length} kept inputs`);
  for (const f of files) failures.push(...runCase(new Uint8Array(readFileSync(join(keepDir, f))), f));
} else {
  const count = arg('--cases', 500);
  const seed = arg('--seed', Date.now() % 100000);
  console.error(`fuzz: ${count} cases from seed ${seed}`);
  failures = fuzz({
    count,
    seed,
    keepDir: process.argv.includes('--no-keep') ? undefined : keepDir,
    log: (s) => console.error(s),
  });
}
for (const f of failures) console.log(f);
console.error(failures.length ? `fuzz: ${failures.length} problems` : 'fuzz: no problems');
process.exit(failures.length ? 1 : 0);
