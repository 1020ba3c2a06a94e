/**
 * Every shell command in README.md and docs/*.md (```sh blocks) is run here, in a temporary folder
 * laid out like a user's (chair.glb, props/, other/, assets/, a budget, a baseline), so the docs
 * cannot drift from the tool: a new command in the docs is run, or the test fails until it is
 * listed as covered elsewhere. `pnpm slmesh` runs through the repository's root script from that
 * folder (checking that it works in the caller's folder), `slmesh` is the built bin, `npx
 * gltf-transform` the dev dependency with the repository's gltf-transform config.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const bin = join(root, 'packages/cli/dist/bin.js');
const gltfTransform = join(root, 'node_modules/@gltf-transform/cli/bin/cli.js');

/**
 * Commands the docs show that this test does not run, and the test that does.
 * Matched against the start of each `&&`-separated part of a command.
 */
const COVERED_ELSEWHERE: [prefix: string, by: string][] = [
  ['npm install -g pnpm@', 'the clone itself (CI runs pnpm)'],
  ['pnpm install', 'CI (.ci/run)'],
  ['pnpm build', 'pnpm test builds first'],
  ['pnpm test', 'this suite'],
  ['pnpm pack-all', 'install.test.ts'],
  ['npm install -g ./', 'install.test.ts (tarballs into an empty prefix)'],
  ['npm install --save-dev', 'install.test.ts (a project that depends on the tarballs)'],
];

interface DocCommand {
  file: string;
  line: string;
}

function docCommands(): DocCommand[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const out: DocCommand[] = [];
  for (const file of files) {
    const md = readFileSync(join(root, file), 'utf8');
    for (const block of md.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
      for (const raw of block[1].split('\n')) {
        const line = raw.replace(/\s+#.*$/, '').trim();
        if (line && !line.startsWith('#')) out.push({ file, line });
      }
    }
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'slmesh-docs-'));
const env: Record<string, string> = {};

function asset(name: string, to: string) {
  mkdirSync(join(dir, to, '..'), { recursive: true });
  copyFileSync(join(root, 'test-assets', name), join(dir, to));
}

beforeAll(() => {
  for (const [name, to] of [
    ['chair.glb', 'chair.glb'],
    ['chair.glb', 'model.glb'],
    ['chair.glb', 'my-models/model.glb'],
    ['chair.glb', 'test-assets/chair.glb'],
    ['chair.glb', 'props/chair.glb'],
    ['cube.glb', 'props/cube.glb'],
    ['vase.glb', 'other/vase.glb'],
    ['suzanne.glb', 'assets/suzanne.glb'],
  ])
    asset(name, to);
  mkdirSync(join(dir, 'node_modules/@slmesh'), { recursive: true });
  symlinkSync(join(root, 'packages/gltf-plugin'), join(dir, 'node_modules/@slmesh/gltf-plugin'));
  // A budget every asset passes (the docs' check commands then exit 0), a second one, a baseline.
  const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8' });
  expect(run(['init', '--headroom', '50']).status).toBe(0);
  copyFileSync(join(dir, 'slmesh.budget.json'), join(dir, 'my.budget.json'));
  expect(run(['check', '--format', 'json=main.json']).status).toBe(0);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A doc command as this test runs it (see the file comment). */
function translate(part: string): string {
  return part
    .replace(/^cd (\S+) && /, 'cd $1 && ')
    .replace(/(^|&& )pnpm (-s )?slmesh /g, `$1pnpm -C ${root} $2slmesh `)
    .replace(/(^|&& )slmesh /g, `$1node ${bin} `)
    .replace(/(^|&& )npx gltf-transform /g, `$1node ${gltfTransform} `);
}

function covered(part: string): string | undefined {
  return COVERED_ELSEWHERE.find(([prefix]) => part.startsWith(prefix))?.[1];
}

/** bash -c `cmd` in the folder, without blocking the test worker (spawnSync would starve its RPC). */
function runAsync(cmd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn('bash', ['-c', cmd], { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill(), 240_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      res({ status, stdout, stderr });
    });
  });
}

/** Runs a long-running command (--serve) until it prints its URL, then stops it. */
function serveOnce(cmd: string): Promise<string> {
  return new Promise((res, rej) => {
    // Its own process group, so stopping it stops pnpm's node child (the server) too.
    const child = spawn('bash', ['-c', `exec ${cmd}`], { cwd: dir, env: { ...process.env, ...env }, detached: true });
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    let out = '';
    const timer = setTimeout(() => {
      stop();
      rej(new Error(`no URL within 60 s: ${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/http:\/\/127\.0\.0\.1:\d+/.test(out)) {
        clearTimeout(timer);
        stop();
        res(out);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

describe('every command in README.md and docs/*.md', () => {
  const commands = docCommands();

  it('finds the commands (the extractor works)', () => {
    expect(commands.length).toBeGreaterThan(40);
    expect(commands.some((c) => c.file === 'docs/ci.md' && c.line.startsWith('slmesh check'))).toBe(true);
  });

  for (const { file, line } of commands) {
    it(`${file}: ${line}`, async () => {
      const assign = /^([A-Z_]+)=(\S+)$/.exec(line);
      if (assign) {
        env[assign[1]] = assign[2];
        return;
      }
      const parts = line.split(/\s+&&\s+/);
      const run: string[] = [];
      for (const part of parts) if (!covered(part)) run.push(part);
      if (run.length === 0) return;
      const cmd = translate(run.join(' && '));
      if (cmd.includes('--serve')) {
        expect(await serveOnce(cmd)).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
        return;
      }
      // `init` keeps an existing budget (exit 2): the docs show it in a folder without one.
      if (/slmesh init(?!.*--budget)/.test(line)) rmSync(join(dir, 'slmesh.budget.json'), { force: true });
      const r = await runAsync(cmd);
      // 0, or 1 where the command's job is a verdict (check over budget, optimize missing --target-li).
      expect([0, 1], `${cmd}\n${r.stderr}`).toContain(r.status);
      if (/slmesh check\b/.test(line)) expect(r.status, r.stdout + r.stderr).toBe(0);
      if (/--json/.test(line)) expect(() => JSON.parse(r.stdout)).not.toThrow();
    });
  }
});
