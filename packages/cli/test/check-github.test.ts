/** check/github.ts: GitHub Actions annotations on the asset files. */

import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../src/check/github.js';
import { checkRun } from './check-fixtures.js';

/** Reads a workflow command back the way the runner does. */
function parseCommand(line: string): { command: string; props: Record<string, string>; message: string } {
  const m = /^::(\w+) ([^:]*)::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const un = (s: string) =>
    s.replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%');
  const props = Object.fromEntries(
    m[2].split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), un(kv.slice(kv.indexOf('=') + 1))]),
  );
  return { command: m[1], props, message: un(m[3]) };
}

describe('formatGithub', () => {
  it('one ::error per failing asset, on its file, listing every number over', async () => {
    const run = await checkRun(
      { 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb' },
      { rules: [{ name: 'props', files: 'props/*.glb', maxLandImpact: 5, maxPrims: 4 }] },
    );
    const lines = formatGithub(run).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const a = parseCommand(lines[0]);
    expect(a.command).toBe('error');
    expect(a.props.file).toBe('props/chair.glb');
    expect(a.props.title).toBe('slmesh: over budget');
    expect(a.message.split('\n')).toEqual(
      run.assets[0].rules[0].checks.filter((c) => !c.ok).map((c) => `props/chair.glb: ${c.message} [rule props]`),
    );
    expect(a.message).toMatch(/prims 6 > 4 \(\+50%\)/);
    expect(lines[1]).toBe('slmesh check: 1 of 2 assets over budget');
  });

  it('escapes paths with commas, colons and percent signs, and titles regressions', async () => {
    const path = 'props/50%,off:sale.glb';
    const run = await checkRun(
      { [path]: 'chair.glb' },
      { rules: [{ files: 'props/*.glb' }] },
      {
        baseline: {
          [path]: {
            landImpact: 1,
            download: 1,
            physics: 1,
            server: 1,
            'triangles.high': 1,
            'triangles.medium': 1,
            'triangles.low': 1,
            'triangles.lowest': 1,
            prims: 1,
          },
        },
      },
    );
    const a = parseCommand(formatGithub(run).split('\n')[0]);
    expect(a.props.file).toBe(path);
    expect(a.props.title).toBe('slmesh: regressed from the baseline');
    expect(a.message).toContain(`${path}: land impact 1 -> `);
    expect(escapeData('50%\r\n')).toBe('50%25%0D%0A');
    expect(escapeProperty('a:b,c')).toBe('a%3Ab%2Cc');
  });

  it('prints only the verdict when everything is within budget', async () => {
    const run = await checkRun(
      { 'props/cube.glb': 'cube.glb' },
      { rules: [{ files: 'props/*.glb', maxLandImpact: 5 }] },
    );
    expect(formatGithub(run)).toBe('slmesh check: the asset is within budget\n');
  });
});
