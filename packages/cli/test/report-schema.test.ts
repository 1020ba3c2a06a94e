/**
 * The JSON report validates against the published schema (docs/cost-report.schema.json) for
 * every bundled asset, so the schema and the code cannot drift apart unnoticed.
 */

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const schema = JSON.parse(readFileSync(join(root, 'docs/cost-report.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const assets = readdirSync(join(root, 'test-assets')).filter((f) => f.endsWith('.glb') && !/_(LOD\d|PHYS)\.glb$/.test(f));

describe('cost report schema', () => {
  it('has bundled assets to check', () => expect(assets.length).toBeGreaterThan(5));
  for (const a of assets) {
    it(`slmesh cost --json ${a} matches docs/cost-report.schema.json`, () => {
      const r = spawnSync(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'cost', '--json', '--size', '2', join(root, 'test-assets', a)], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const ok = validate(JSON.parse(r.stdout));
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    });
  }
});
