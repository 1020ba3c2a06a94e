/** check/junit.ts: JUnit XML that CI systems (and Python's XML parser) read. */

import { describe, expect, it } from 'vitest';
import { formatJunit, xmlAttr, xmlText } from '../src/check/junit.js';
import { checkRun, parseJunit } from './check-fixtures.js';

const BUDGET = {
  rules: [
    { name: 'props', files: 'props/**/*.glb', maxLandImpact: 5, maxPrims: 4 },
    { name: 'all <tiny> & "cheap"', files: '**/*.glb', maxServer: 100 },
  ],
};

describe('formatJunit', () => {
  it('one suite per rule, one case per asset x rule, failures saying what is over; parses', async () => {
    const run = await checkRun(
      { 'props/chair.glb': 'chair.glb', 'props/cube.glb': 'cube.glb', 'other/vase.glb': 'vase.glb' },
      BUDGET,
    );
    const doc = parseJunit(formatJunit(run, ['props', 'all <tiny> & "cheap"']));
    expect(doc.name).toBe('slmesh check');
    expect(doc.suites.map((s) => s.name)).toEqual(['props', 'all <tiny> & "cheap"']);
    expect(doc.suites[0].cases.map((c) => c.name)).toEqual(['props/chair.glb', 'props/cube.glb']);
    expect(doc.suites[1].cases.map((c) => c.name)).toEqual(['other/vase.glb', 'props/chair.glb', 'props/cube.glb']);
    expect(doc.tests).toBe(5);
    const chair = doc.suites[0].cases[0];
    expect(chair.file).toBe('props/chair.glb');
    expect(chair.failure).toMatch(
      /^props\/chair\.glb: land impact [\d.]+ > 5 \(\+\d+%\)\nprops\/chair\.glb: prims 6 > 4 \(\+50%\)$/,
    );
    expect(chair.message).toContain('prims 6 > 4 (+50%)');
    expect(doc.suites[0].cases[1].failure).toBeNull();
    expect(doc.failures).toBe(doc.suites.reduce((n, s) => n + s.cases.filter((c) => c.failure !== null).length, 0));
    expect(doc.suites[0].failures).toBe(1);
  });

  it('stays well-formed with hostile names, and adds unmatched and baseline suites', async () => {
    const weird = 'props/a&b<"x">\u0001\u{1F600}.glb';
    const run = await checkRun({ [weird]: 'cube.glb', 'loose.glb': 'cube.glb' }, BUDGET, { baseline: {} });
    const doc = parseJunit(formatJunit(run, ['props', 'all <tiny> & "cheap"']));
    expect(doc.suites.map((s) => s.name)).toEqual(['props', 'all <tiny> & "cheap"', 'baseline']);
    expect(doc.suites[0].cases[0].name).toBe('props/a&b<"x">\ufffd\u{1F600}.glb');
    const loose = await checkRun({ 'loose.glb': 'cube.glb' }, { rules: [{ files: 'props/*.glb' }] });
    const d2 = parseJunit(formatJunit(loose, ['props/*.glb']));
    expect(d2.suites.map((s) => s.name)).toEqual(['unmatched']);
    expect(d2.suites[0].cases[0].failure).toContain('no budget rule matches');
  });

  it('escapes text and attributes', () => {
    expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(xmlAttr('"x"\ny')).toBe('&quot;x&quot;&#10;y');
    expect(xmlText('\u0000\ud800')).toBe('\ufffd\ufffd');
  });
});
