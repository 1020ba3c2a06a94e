#!/usr/bin/env node
/** `pnpm fuzz [--cases N] [--seed S]`: a longer fuzz run; failing inputs go to test-assets/fuzz-regressions/. */
import { join } from 'node:path';
import { fuzz, root } from './harness.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const count = arg('--cases', 500);
const seed = arg('--seed', Date.now() % 100000);
console.error(`fuzz: ${count} cases from seed ${seed}`);
const failures = fuzz({ count, seed, keepDir: join(root, 'test-assets/fuzz-regressions'), log: (s) => console.error(s) });
for (const f of failures) console.log(f);
console.error(failures.length ? `fuzz: ${failures.length} problems; inputs kept in test-assets/fuzz-regressions/` : 'fuzz: no problems');
process.exit(failures.length ? 1 : 0);
