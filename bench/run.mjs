#!/usr/bin/env node
/**
 * `pnpm bench [name...]`: runs the benchmarks (bench/<name>.bench.mjs; all of them when no name
 * is given) against the built packages, keeps each one's section in bench/results/<name>.md,
 * and rewrites docs/benchmarks.md from every stored section, with the command and machine.
 *
 * A benchmark module exports `async function run(ctx)` returning `{ title, markdown }`;
 * ctx = { root, log(line) }. Peers (vhacd-js, gltfpack) run in the same process run, side by side.
 */

import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const resultsDir = join(benchDir, 'results');
const all = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .map((f) => f.replace(/\.bench\.mjs$/, ''))
  .sort();
const wanted = process.argv.slice(2);
for (const w of wanted) {
  if (!all.includes(w)) {
    console.error(`bench: no benchmark "${w}" (have: ${all.join(', ')})`);
    process.exit(2);
  }
}
const names = wanted.length ? wanted : all;
const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

for (const name of names) {
  const started = new Date();
  console.error(`bench: ${name} ...`);
  const mod = await import(pathToFileURL(join(benchDir, `${name}.bench.mjs`)).href);
  const { title, markdown } = await mod.run({ root, log: (s) => console.error(`  ${s}`) });
  const section = [
    `## ${title}`,
    '',
    `Command: \`pnpm bench ${name}\` (run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}).`,
    '',
    markdown.trim(),
    '',
  ].join('\n');
  writeFileSync(join(resultsDir, `${name}.md`), section);
}

const sections = all
  .filter((n) => existsSync(join(resultsDir, `${n}.md`)))
  .map((n) => readFileSync(join(resultsDir, `${n}.md`), 'utf8').trim());
writeFileSync(
  join(root, 'docs/benchmarks.md'),
  [
    '# Benchmarks',
    '',
    'Made by `pnpm bench` (all) or `pnpm bench <name>` (one section; the others are kept from their last run).',
    'Each section names the command and the machine it ran on. Timings are wall-clock medians unless a table says otherwise;',
    'peers run in the same process run, side by side. Tests never assert timings: speed lives here.',
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n'),
);
console.error('bench: wrote docs/benchmarks.md');
