/**
 * check/budget.ts: the budget file. Errors name the file and the JSON path; the hand-written
 * validator and the published docs/budget.schema.json accept and refuse the same budgets.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { budgetFromJson, loadBudget, nearest, parseJsonFile } from '../src/check/budget.js';
import { root } from './check-fixtures.js';

const schema = JSON.parse(readFileSync(join(root, 'docs/budget.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const load = (json: unknown) => budgetFromJson(json, 'slmesh.budget.json', '/p');

const VALID: unknown[] = [
  {
    rules: [
      { files: 'props/**/*.glb', maxLandImpact: 5, maxDownload: 4, maxPhysics: 2, maxTriangles: { high: 20000 } },
    ],
  },
  {
    $schema: 'https://slmesh.dev/schemas/budget.schema.json',
    '//': ['a comment', 'on two lines'],
    pricing: { lodFactor: 1, animesh: false, scripts: 2, linkRule: 'legacy', linkSpan: 64, siblings: false },
    defaults: { $comment: 'x', uploadable: true, linkable: true, maxTriangles: { high: 1000, lowest: 10 } },
    ignore: ['**/wip/**'],
    rules: [
      {
        name: 'props',
        files: ['props/**/*.glb', 'deco/*.gltf'],
        exclude: 'props/big/*',
        maxServer: 1,
        requiredLods: ['medium', 'physics'],
        maxHullVertices: 64,
        maxPrims: 4,
        canBePhysical: true,
        atSizes: ['asset', 0.5, 4],
      },
      {
        '//': 'inherits props',
        files: 'big/*.glb',
        extends: 'props',
        maxTriangles: { high: null },
        atSizes: null,
        linkable: null,
      },
      { files: 'x.glb', maxTriangles: 300 },
    ],
  },
  { rules: [], extends: 'base.json' },
];

const INVALID: [unknown, string][] = [
  [[], '(top level): must be an object, got an array'],
  [{}, '(top level): a budget needs "rules"'],
  [{ rules: {} }, 'rules: must be an array of rules, got an object'],
  [{ rules: [{ maxLandImpact: 5 }] }, 'rules[0]: a rule needs "files"'],
  [
    { rules: [{ files: 'x', maxLandImapct: 5 }] },
    'rules[0].maxLandImapct: unknown key (did you mean "maxLandImpact"?)',
  ],
  [{ rules: [{ files: 'x', maxLandImpact: '5' }] }, 'rules[0].maxLandImpact: must be a number, got "5"'],
  [{ rules: [{ files: 'x', maxDownload: -1 }] }, 'rules[0].maxDownload: must be at least 0, got -1'],
  [
    { rules: [{ files: 'x', maxTriangles: { high: 1.5 } }] },
    'rules[0].maxTriangles.high: must be a whole number, got 1.5',
  ],
  [
    { rules: [{ files: 'x', maxTriangles: { hi: 1 } }] },
    'rules[0].maxTriangles.hi: unknown key (did you mean "high"?)',
  ],
  [
    { rules: [{ files: 'x', requiredLods: ['LOD1'] }] },
    'rules[0].requiredLods[0]: must be one of "medium", "low", "lowest", "physics", got "LOD1"',
  ],
  [{ rules: [{ files: 'x', requiredLods: ['low', 'low'] }] }, 'rules[0].requiredLods[1]: "low" is listed twice'],
  [{ rules: [{ files: 'x', atSizes: [] }] }, 'rules[0].atSizes: must be a non-empty array'],
  [{ rules: [{ files: 'x', atSizes: [0] }] }, 'rules[0].atSizes[0]: must be greater than 0, got 0'],
  [{ rules: [{ files: 'x', atSizes: [2, 2] }] }, 'rules[0].atSizes[1]: size 2 is listed twice'],
  [{ rules: [{ files: 'x', linkable: 'yes' }] }, 'rules[0].linkable: must be true or false, got "yes"'],
  [{ rules: [{ files: 'x', maxHullVertices: 0 }] }, 'rules[0].maxHullVertices: must be at least 1, got 0'],
  [{ rules: [{ files: 'x', maxPrims: 2.5 }] }, 'rules[0].maxPrims: must be a whole number, got 2.5'],
  [{ rules: [{ files: [] }] }, 'rules[0].files: must be a string or a non-empty array of strings, got an array'],
  [{ rules: [{ files: ['a', ''] }] }, 'rules[0].files[1]: must be a non-empty string, got ""'],
  [{ rules: [{ files: 'x', '//': 3 }] }, 'rules[0]["//"]: a comment must be a string or an array of strings, got 3'],
  [{ rules: [{ files: 'x' }], defaults: { files: 'y' } }, 'defaults.files: unknown key'],
  [
    { rules: [{ files: 'x' }], pricing: { linkRule: 'new' } },
    'pricing.linkRule: must be "current" or "legacy", got "new"',
  ],
  [{ rules: [{ files: 'x' }], pricing: { scripts: -1 } }, 'pricing.scripts: must be at least 0, got -1'],
  [{ rules: [{ files: 'x' }], $schema: 3 }, '$schema: must be a string, got 3'],
  [
    { rules: [{ files: 'x' }], colour: 'red' },
    'colour: unknown key (known keys: $schema, extends, defaults, rules, ignore, pricing)',
  ],
];

describe('budget validation', () => {
  for (const [json, message] of INVALID) {
    it(`refuses ${JSON.stringify(json).slice(0, 70)}: one line with the file and the JSON path`, () => {
      expect(() => load(json)).toThrow(`slmesh.budget.json: ${message}`);
      expect(validate(json), 'the published schema refuses it too').toBe(false);
    });
  }

  it('accepts the budgets the schema accepts', () => {
    for (const json of VALID) expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(() => load(VALID[0])).not.toThrow();
    expect(() => load(VALID[1])).not.toThrow();
  });

  it('needs at least one rule, unique names, known extends and no cycles', () => {
    expect(() => load({ rules: [] })).toThrow('slmesh.budget.json: rules: the budget has no rules');
    expect(() =>
      load({
        rules: [
          { name: 'a', files: 'x' },
          { name: 'a', files: 'y' },
        ],
      }),
    ).toThrow('rules[1].name: "a" is also the name of slmesh.budget.json: rules[0]');
    expect(() =>
      load({
        rules: [
          { name: 'props', files: 'x' },
          { files: 'y', extends: 'prop' },
        ],
      }),
    ).toThrow('rules[1].extends: no rule is named "prop" (did you mean "props"?)');
    expect(() =>
      load({
        rules: [
          { name: 'a', files: 'x', extends: 'b' },
          { name: 'b', files: 'y', extends: 'a' },
        ],
      }),
    ).toThrow(/extends: "[ab]" leads back to this rule \(a cycle\)/);
  });

  it('reports JSON syntax errors with line and column', () => {
    expect(() => parseJsonFile('{\n  "rules": [\n    {"files": "x",}\n  ]\n}', 'b.json')).toThrow(
      /^b\.json: not valid JSON at line 3, column 19: /,
    );
    expect(() => parseJsonFile('{"rules": ', 'b.json')).toThrow('b.json: not valid JSON (it ends too early)');
  });

  it('suggests near keys only', () => {
    expect(nearest('maxlandimpact', ['maxLandImpact'])).toBe('maxLandImpact');
    expect(nearest('colour', ['rules', 'defaults'])).toBeUndefined();
  });
});

describe('budget inheritance', () => {
  it('rules take defaults, override them and unset them with null; maxTriangles merges per LOD', () => {
    const b = load({
      defaults: { maxLandImpact: 10, uploadable: true, maxTriangles: { high: 5000, lowest: 50 } },
      rules: [
        { name: 'a', files: 'a/*.glb' },
        { name: 'b', files: 'b/*.glb', maxLandImpact: 3, uploadable: null, maxTriangles: { high: 800 } },
        { name: 'c', files: 'c/*.glb', extends: 'b', maxTriangles: { lowest: null }, atSizes: [4] },
      ],
    });
    const [a, bb, c] = b.rules.map((r) => r.limits);
    expect(a).toEqual({
      maxLandImpact: 10,
      uploadable: true,
      maxTriangles: { high: 5000, lowest: 50 },
      atSizes: ['asset'],
    });
    expect(bb).toEqual({ maxLandImpact: 3, maxTriangles: { high: 800, lowest: 50 }, atSizes: ['asset'] });
    expect(c).toEqual({ maxLandImpact: 3, maxTriangles: { high: 800 }, atSizes: [4] });
  });

  it('names rules by their globs when unnamed, and matches with files minus exclude', () => {
    const b = load({
      ignore: 'wip/**',
      rules: [
        { files: ['props/**/*.glb'], exclude: 'props/big/*' },
        { files: 'props/**/*.glb', maxPrims: 2 },
      ],
    });
    expect(b.rules.map((r) => r.name)).toEqual(['props/**/*.glb', 'props/**/*.glb (rule 2)']);
    expect(b.rules[0].matches('props/a/x.glb')).toBe(true);
    expect(b.rules[0].matches('props/big/x.glb')).toBe(false);
    expect(b.isIgnored('wip/a/x.glb')).toBe(true);
    expect(b.pricing).toEqual({ lodFactor: 2, animesh: false, scripts: 0, linkRule: 'current', siblings: true });
    const at = budgetFromJson({ rules: [{ files: '**/*.glb' }] }, 'b.json', '/p/budgets', '/p');
    expect(at.relativePath('/p/budgets/props/a.glb')).toBe('props/a.glb');
    expect(at.relativePath('/p/assets/a.glb')).toBe('assets/a.glb'); // outside the budget's folder: as printed
    expect(at.relativePath('/q/a.glb')).toBe('/q/a.glb');
    expect(at.rules[0].matches(at.relativePath('/q/a.glb'))).toBe(true);
  });

  it('extends other budget files: their defaults and pricing under ours, their rules first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-budget-'));
    writeFileSync(
      join(dir, 'org.json'),
      JSON.stringify({
        pricing: { scripts: 3 },
        defaults: { maxLandImpact: 10, uploadable: true },
        rules: [{ name: 'all', files: '**/*.glb' }],
      }),
    );
    writeFileSync(
      join(dir, 'slmesh.budget.json'),
      JSON.stringify({
        extends: './org.json',
        pricing: { animesh: true },
        defaults: { maxLandImpact: 4 },
        rules: [{ name: 'props', files: 'props/*.glb', extends: 'all' }],
      }),
    );
    const b = await loadBudget('slmesh.budget.json', dir);
    expect(b.rules.map((r) => r.name)).toEqual(['all', 'props']);
    expect(b.rules[0].limits).toEqual({ maxLandImpact: 4, uploadable: true, atSizes: ['asset'] });
    expect(b.pricing.scripts).toBe(3);
    expect(b.pricing.animesh).toBe(true);
    expect(b.dir).toBe(dir);
  });

  it('names the extended file in its errors, and refuses missing files and cycles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmesh-budget-'));
    writeFileSync(join(dir, 'base.json'), JSON.stringify({ rules: [{ files: 'x', maxPhysics: 'lots' }] }));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ extends: 'base.json', rules: [] }));
    await expect(loadBudget('a.json', dir)).rejects.toThrow(
      'base.json: rules[0].maxPhysics: must be a number, got "lots"',
    );
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ extends: 'missing.json' }));
    await expect(loadBudget('b.json', dir)).rejects.toThrow('b.json: extends: no such budget file "missing.json"');
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ extends: 'd.json', rules: [{ files: 'x' }] }));
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ extends: 'c.json', rules: [{ files: 'y' }] }));
    await expect(loadBudget('c.json', dir)).rejects.toThrow(
      /extends: "c\.json" leads back to c\.json \(a cycle\)|a cycle/,
    );
    await expect(loadBudget('none.json', dir)).rejects.toThrow('none.json: no such budget file');
  });
});

describe('the schema the CLI validates with', () => {
  it('is docs/budget.schema.json, unchanged', async () => {
    const { BUDGET_SCHEMA } = await import('../src/check/budget-schema.js');
    expect(BUDGET_SCHEMA).toEqual(schema);
  });
});
