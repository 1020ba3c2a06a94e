/**
 * `slmesh check --format junit`: JUnit XML as CI systems render it (GitLab's test report,
 * Jenkins, Azure, the GitHub test-report actions). One <testsuite> per budget rule, with one
 * <testcase> per asset the rule matches; a `baseline` suite with one case per asset compared
 * with the baseline; an `unmatched` suite for assets no rule matches. A case that fails has
 * one <failure> whose message lists what is over and by how much.
 *
 * Guarantees: well-formed XML 1.0 (characters XML cannot carry are replaced, attributes and
 * text escaped); no timestamps or durations, so the same inputs give identical output.
 */

import { failureLines, type CheckRun } from './check-report.js';

// XML 1.0 allows tab, newline, carriage return and everything from space up, minus surrogates
// halves on their own and U+FFFE/U+FFFF.
const INVALID_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(s: string): string {
  return s.replace(INVALID_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

interface Case {
  name: string;
  classname: string;
  file: string;
  failures: string[];
  output: string[];
}

function suite(name: string, cases: Case[]): string[] {
  const failures = cases.filter((c) => c.failures.length).length;
  const out = [
    `  <testsuite name="${xmlAttr(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    const head = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" file="${xmlAttr(c.file)}"`;
    if (!c.failures.length && !c.output.length) {
      out.push(`${head}/>`);
      continue;
    }
    out.push(`${head}>`);
    if (c.failures.length) {
      out.push(
        `      <failure type="${xmlAttr(name === 'baseline' ? 'regression' : 'budget')}" message="${xmlAttr(c.failures.join('; '))}">${xmlText(c.failures.map((f) => `${c.file}: ${f}`).join('\n'))}</failure>`,
      );
    }
    if (c.output.length) out.push(`      <system-out>${xmlText(c.output.join('\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  return out;
}

export function formatJunit(run: CheckRun, ruleNames: readonly string[]): string {
  const suites: string[] = [];
  let tests = 0;
  let failed = 0;
  const add = (name: string, cases: Case[]) => {
    if (!cases.length) return;
    tests += cases.length;
    failed += cases.filter((c) => c.failures.length).length;
    for (const line of suite(name, cases)) suites.push(line);
  };
  // 1. A suite per rule, in budget order; a case per asset x rule.
  for (const rule of ruleNames) {
    const cases: Case[] = [];
    for (const a of run.assets) {
      const r = a.rules.find((x) => x.rule === rule);
      if (!r) continue;
      cases.push({
        name: a.path,
        classname: `slmesh.budget.${rule}`,
        file: a.path,
        failures: r.checks.filter((c) => !c.ok).map((c) => c.message),
        output: r.checks.map((c) => `${c.ok ? 'ok  ' : 'OVER'} ${c.message}`),
      });
    }
    add(rule, cases);
  }
  // 2. Assets no rule matches.
  add(
    'unmatched',
    run.assets
      .filter((a) => a.unmatched)
      .map((a) => ({
        name: a.path,
        classname: 'slmesh.unmatched',
        file: a.path,
        failures: failureLines(a)
          .filter((f) => f.kind === 'unmatched')
          .map((f) => f.message),
        output: [],
      })),
  );
  // 3. The baseline comparison.
  if (run.summary.baseline) {
    add(
      'baseline',
      run.assets.map((a) => ({
        name: a.path,
        classname: 'slmesh.baseline',
        file: a.path,
        failures: (a.baseline?.changes ?? []).filter((c) => !c.ok).map((c) => c.message),
        output:
          a.baseline?.status === 'new'
            ? ['new: not in the baseline']
            : (a.baseline?.changes ?? []).map((c) => c.message),
      })),
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="slmesh check" tests="${tests}" failures="${failed}" errors="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
