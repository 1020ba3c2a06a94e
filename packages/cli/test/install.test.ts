/**
 * Installed as a user installs it: `pnpm pack-all` tarballs, installed with plain npm into an
 * empty global prefix and into a project, then every command run from a folder outside the
 * repository (the preview page opened in Chromium), a library script with slLods, slPhysics and
 * slReport, and the gltf-transform config. Needs the build (`pnpm test` builds first) and the npm
 * registry for third-party dependencies (`--prefer-offline` uses npm's cache when it can).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module
import { hasChromium, launchChromium, openPreview } from '../../preview/chromium.mjs';

const root = resolve(__dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'slmesh-install-'));
const artifacts = join(tmp, 'artifacts');
const prefix = join(tmp, 'prefix');
const user = join(tmp, 'user');
const project = join(tmp, 'project');
const NPM = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
let tarballs: string[] = [];

const slmesh = (args: string[], cwd = user) =>
  spawnSync(join(prefix, 'bin', 'slmesh'), args, { cwd, encoding: 'utf8', timeout: 180_000 });

/** The fenced ```js block of docs/library.md that starts with `// sl-pipeline.mjs`. */
function libraryScript(): string {
  const md = readFileSync(join(root, 'docs/library.md'), 'utf8');
  const block = [...md.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((b) => b.startsWith('// sl-pipeline.mjs'));
  if (!block) throw new Error('docs/library.md has no sl-pipeline.mjs block');
  return block;
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/pack-all.mjs'), '--no-build', '--out', artifacts], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  tarballs = readdirSync(artifacts)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(artifacts, f));
  mkdirSync(prefix);
  execFileSync('npm', ['install', '-g', '--prefix', prefix, ...NPM, ...tarballs], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  mkdirSync(user);
  copyFileSync(join(root, 'test-assets/chair.glb'), join(user, 'chair.glb'));
}, 400_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the tarballs', () => {
  it('are one per public package, with real versions, MIT licence, repository, engines, README and schemas', () => {
    expect(tarballs.map((t) => t.split('/').pop())).toEqual([
      'slmesh-cli-0.1.0.tgz',
      'slmesh-core-0.1.0.tgz',
      'slmesh-gltf-plugin-0.1.0.tgz',
      'slmesh-preview-0.1.0.tgz',
    ]);
    for (const t of tarballs) {
      const files = execFileSync('tar', ['-tzf', t], { encoding: 'utf8' }).split('\n');
      const manifest = JSON.parse(execFileSync('tar', ['-xOzf', t, 'package/package.json'], { encoding: 'utf8' }));
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      expect(manifest.license).toBe('MIT');
      expect(manifest.repository.url).toMatch(/^git\+https:/);
      expect(manifest.engines.node).toBe('>=20.19');
      expect(files).toContain('package/LICENSE');
      expect(files).toContain('package/README.md');
      // Every source map in the package points to a file the package has.
      for (const map of files.filter((f) => f.endsWith('.js.map')).slice(0, 20)) {
        const { sources } = JSON.parse(execFileSync('tar', ['-xOzf', t, map], { encoding: 'utf8' }));
        for (const s of sources) expect(files).toContain(join(map, '..', s));
      }
    }
    const cli = execFileSync('tar', ['-tzf', tarballs[0]], { encoding: 'utf8' });
    expect(cli).toContain('package/schemas/cost-report.schema.json');
    expect(cli).toContain('package/schemas/budget.schema.json');
    expect(
      JSON.parse(execFileSync('tar', ['-xOzf', tarballs[0], 'package/package.json'], { encoding: 'utf8' }))
        .dependencies['@slmesh/preview'],
    ).toBe('0.1.0');
  });

  it('install without a native image library (no sharp) or unused dependencies', () => {
    const all = execFileSync(
      'find',
      [
        prefix,
        '-name',
        'package.json',
        '-path',
        '*/node_modules/*',
        '-not',
        '-path',
        '*/node_modules/*/node_modules/*/*/*',
      ],
      { encoding: 'utf8' },
    );
    expect(all).not.toMatch(/\/sharp\/package\.json|@img\/|picomatch|@gltf-transform\/functions/);
  });
});

describe('slmesh installed with plain npm into an empty prefix, run from a user folder', () => {
  it('cost (table and --json)', () => {
    const table = slmesh(['cost', 'chair.glb']);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('Seat');
    const json = slmesh(['cost', 'chair.glb', '--json']);
    expect(JSON.parse(json.stdout).files[0].linkset.prims).toBe(6);
  });

  it('optimize, then init and check', () => {
    const opt = slmesh(['optimize', 'chair.glb', '-o', 'chair-sl.glb', '--report', 'r.json']);
    expect(opt.status, opt.stderr).toBe(0);
    expect(existsSync(join(user, 'chair-sl.glb'))).toBe(true);
    expect(JSON.parse(readFileSync(join(user, 'r.json'), 'utf8')).files[0].linkset.prims).toBe(6);
    const init = slmesh(['init']);
    expect(init.status, init.stderr).toBe(0);
    const check = slmesh(['check', '--format', 'json=check.json']);
    expect(check.status, check.stderr + check.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(user, 'check.json'), 'utf8')).check).toBeDefined();
  });

  it('preview writes a page that opens in Chromium', async () => {
    const r = slmesh(['preview', 'chair.glb']);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(join(user, 'chair.preview.html'), 'utf8');
    expect(html).toMatch(/three\.js authors|Three\.js Authors/i); // three.js's MIT notice is kept
    if (!hasChromium()) return;
    const browser = await launchChromium();
    try {
      const { page, errors } = await openPreview(browser, pathToFileURL(join(user, 'chair.preview.html')).href);
      expect(
        await page.evaluate(() => (window as never as { slmeshPreview: { error?: string } }).slmeshPreview.error),
      ).toBeUndefined();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('a project that depends on the packages', () => {
  beforeAll(() => {
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    execFileSync('npm', ['install', ...NPM, ...tarballs, '@gltf-transform/core@^4.2.1', 'meshoptimizer@^1.3.0'], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
    copyFileSync(join(root, 'test-assets/chair.glb'), join(project, 'chair.glb'));
  }, 400_000);

  it('npx slmesh runs the local bin', () => {
    const r = spawnSync('npx', ['--no-install', 'slmesh', 'cost', 'chair.glb', '--json'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).files[0].path).toBe('chair.glb');
  });

  it("docs/library.md's script runs slLods, slPhysics and slReport", () => {
    writeFileSync(join(project, 'sl-pipeline.mjs'), libraryScript());
    const r = spawnSync(process.execPath, ['sl-pipeline.mjs', 'chair.glb', 'chair-sl.glb'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^land impact \d+\.\d\d -> \d+\.\d\d$/m);
    const report = JSON.parse(
      execFileSync(join(project, 'node_modules/.bin/slmesh'), ['cost', 'chair-sl.glb', '--json'], {
        cwd: project,
        encoding: 'utf8',
      }),
    );
    expect(report.files[0].siblings).toEqual(
      expect.arrayContaining(['chair-sl_LOD2.glb', 'chair-sl_LOD1.glb', 'chair-sl_LOD0.glb']),
    );
    for (const lod of ['medium', 'low', 'lowest']) expect(report.files[0].objects[0].lods[lod].present, lod).toBe(true);
  });

  it('the installed gltf-transform config adds sl-report', () => {
    const config = join(project, 'node_modules/@slmesh/gltf-plugin/gltf-transform-config.mjs');
    const cli = join(root, 'node_modules/@gltf-transform/cli/bin/cli.js');
    const out = execFileSync(process.execPath, [cli, 'sl-report', 'chair.glb', '--config', config], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(JSON.parse(out).files[0].linkset.prims).toBe(6);
  });
});

/** The `run:` steps of docs/ci.md's GitHub Actions workflow, as written (folded `>` blocks joined). */
function githubRunSteps(): { name: string; run: string; workdir?: string }[] {
  const md = readFileSync(join(root, 'docs/ci.md'), 'utf8');
  const yaml = [...md.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('runs-on:'));
  if (!yaml) throw new Error('docs/ci.md has no GitHub Actions workflow');
  const lines = yaml.split('\n');
  const steps: { name: string; run: string; workdir?: string }[] = [];
  let step: { name: string; run: string; workdir?: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const item = /^\s+- (?:name|uses): (.*)$/.exec(lines[i]);
    if (item) {
      step = { name: item[1], run: '' };
      steps.push(step);
      continue;
    }
    const wd = /^\s+working-directory: (.*)$/.exec(lines[i]);
    if (wd && step) step.workdir = wd[1].trim();
    const run = /^(\s+)run: (.*)$/.exec(lines[i]);
    if (!run || !step) continue;
    if (run[2] === '>' || run[2] === '|') {
      const body: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > run[1].length))
        body.push(lines[++i].trim());
      step.run = body.join(run[2] === '>' ? ' ' : '\n').trim();
    } else {
      step.run = run[2].replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
    }
  }
  return steps.filter((s) => s.run);
}

describe("docs/ci.md's GitHub Actions job, its run steps as written", () => {
  it('installs the tarballs, makes the baseline, checks, and writes the summary and JUnit report', async () => {
    const repo = join(tmp, 'ci-repo');
    const ciPrefix = join(tmp, 'ci-prefix');
    mkdirSync(join(repo, 'props'), { recursive: true });
    mkdirSync(join(repo, 'tools/slmesh'), { recursive: true });
    mkdirSync(ciPrefix);
    for (const t of tarballs) copyFileSync(t, join(repo, 'tools/slmesh', t.split('/').pop()!));
    copyFileSync(join(root, 'test-assets/chair.glb'), join(repo, 'props/chair.glb'));
    copyFileSync(join(root, 'test-assets/cube.glb'), join(repo, 'props/cube.glb'));
    expect(slmesh(['init'], repo).status).toBe(0);
    // The target branch's checkout (actions/checkout with path: .base): the same assets and budget.
    mkdirSync(join(repo, '.base/props'), { recursive: true });
    for (const f of ['props/chair.glb', 'props/cube.glb', 'slmesh.budget.json'])
      copyFileSync(join(repo, f), join(repo, '.base', f));
    const summary = join(tmp, 'step-summary.md');
    writeFileSync(summary, '');
    const env = {
      ...process.env,
      PATH: `${join(ciPrefix, 'bin')}:${process.env.PATH}`,
      npm_config_prefix: ciPrefix,
      GITHUB_STEP_SUMMARY: summary,
    };

    const steps = githubRunSteps();
    expect(steps.map((s) => s.name)).toEqual([
      'Install slmesh',
      'Baseline (target branch)',
      'Check budgets',
      'Step summary',
    ]);
    for (const step of steps) {
      const cmd = step.run.replace(/\$\{\{ matrix\.shard \}\}/g, '1');
      expect(cmd).not.toContain('${{');
      const r = await new Promise<{ status: number | null; out: string }>((res) => {
        const child = spawn('bash', ['-e', '-c', cmd], { cwd: join(repo, step.workdir ?? '.'), env });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (status) => res({ status, out }));
      });
      expect(r.status, `${step.name}: ${cmd}\n${r.out}`).toBe(0);
    }
    expect(existsSync(join(ciPrefix, 'bin/slmesh'))).toBe(true);
    expect(JSON.parse(readFileSync(join(repo, 'baseline.json'), 'utf8')).check).toBeDefined();
    expect(readFileSync(join(repo, 'slmesh-junit-1.xml'), 'utf8')).toContain('<testsuite');
    expect(readFileSync(summary, 'utf8').length).toBeGreaterThan(20);
  }, 400_000);
});
