/**
 * The JSON report validates against the published schema (docs/cost-report.schema.json) for
 * every bundled asset, so the schema and the code cannot drift apart unnoticed.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const schema = JSON.parse(readFileSync(join(root, 'docs/cost-report.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const assets = readdirSync(join(root, 'test-assets')).filter(
  (f) => f.endsWith('.glb') && !/_(LOD\d|PHYS)\.glb$/.test(f),
);

describe('cost report schema', () => {
  it('has bundled assets to check', () => expect(assets.length).toBeGreaterThan(5));
  for (const a of assets) {
    it(`slmesh cost --json ${a} matches docs/cost-report.schema.json`, () => {
      const r = spawnSync(
        process.execPath,
        [join(root, 'packages/cli/dist/bin.js'), 'cost', '--json', '--size', '2', join(root, 'test-assets', a)],
        { encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      const ok = validate(JSON.parse(r.stdout));
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    });
  }

  it('slmesh optimize --report (physics auto) matches it, with the physics choice and what it assumes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-schema-'));
    try {
      const r = spawnSync(
        process.execPath,
        [
          join(root, 'packages/cli/dist/bin.js'),
          'optimize',
          join(root, 'test-assets', 'chair.glb'),
          '-o',
          join(dir, 'out.glb'),
          '--report',
          join(dir, 'out.json'),
        ],
        { encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
      const ok = validate(report);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      const objects = report.files[0].objects;
      for (const o of objects) {
        expect(o.physics.choice.candidates.length).toBeGreaterThanOrEqual(2);
        expect(o.physics.choice.reason.length).toBeGreaterThan(0);
        // A decomposition is hulls only after Analyze: the report says so.
        expect(o.physics.shape === 'decomposition').toBe(!!o.physics.assumes?.includes('analyze'));
      }
      // An invalid choice is refused: the schema really checks it.
      const bad = structuredClone(report);
      bad.files[0].objects[0].physics.choice.shape = 'sphere';
      expect(validate(bad)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
