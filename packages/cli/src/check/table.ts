/**
 * The readable `slmesh check` output (the default format): one row per asset and rule with the
 * numbers budgets limit, then every failure as `path: what > limit (+N%)`, the changes from
 * the baseline, and the verdict.
 */

import { printable } from '../format-table.js';
import { failureLines, verdict, type CheckRun } from './check-report.js';
import { formatCount, formatWeight, linksetTriangles } from './evaluate.js';

function table(rows: string[][]): string[] {
  // A loop, not Math.max(...rows): a spread of 200k rows overflows the stack.
  const widths = rows[0].map((_, c) => {
    let w = 0;
    for (const r of rows) w = Math.max(w, (r[c] ?? '').length);
    return w;
  });
  return rows.map((r) =>
    r
      .map((cell, c) => (c <= 1 || c === r.length - 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

export function formatCheckTable(run: CheckRun): string {
  const out: string[] = [];
  const s = run.summary;
  out.push(`slmesh check: ${verdict(run)} (budget ${printable(s.budget)})`);
  if (run.assets.length) {
    out.push('');
    const rows: string[][] = [
      ['asset', 'rule', 'land impact', 'download', 'physics', 'server', 'triangles', 'prims', 'result'],
    ];
    for (const a of run.assets) {
      const ls = a.report.linkset;
      const nums = [
        formatWeight(ls.landImpact),
        formatWeight(ls.streaming),
        `${formatWeight(ls.physics)}${ls.physicsEstimate ? '*' : ''}`,
        formatWeight(ls.server),
        formatCount(linksetTriangles(a.report, 'high')),
        String(ls.prims),
      ];
      const regressed = a.baseline && !a.baseline.ok ? ', regressed' : '';
      if (a.unmatched) rows.push([printable(a.path), '(none)', ...nums, `NO RULE${regressed}`]);
      for (const r of a.rules)
        rows.push([printable(a.path), printable(r.rule), ...nums, `${r.ok ? 'ok' : 'OVER'}${regressed}`]);
      if (!a.unmatched && a.rules.length === 0) rows.push([printable(a.path), '', ...nums, a.ok ? 'ok' : 'regressed']);
    }
    for (const line of table(rows)) out.push(line);
    if (run.assets.some((a) => a.report.linkset.physicsEstimate))
      out.push("  * = estimate: no public formula for a decomposition's physics weight");
  }
  const failures = run.assets.flatMap((a) =>
    failureLines(a)
      .filter((f) => f.kind !== 'baseline')
      .map((f) => `  ${printable(a.path)}: ${printable(f.message)}${f.rule ? `  [rule ${printable(f.rule)}]` : ''}`),
  );
  if (failures.length) {
    out.push('', 'over budget:');
    for (const f of failures) out.push(f);
  }
  if (s.baseline) {
    const changed = run.assets.flatMap((a) =>
      a.baseline?.status === 'new'
        ? [`  ${printable(a.path)}: new (not in the baseline)`]
        : (a.baseline?.changes ?? []).map((c) => `  ${printable(a.path)}: ${printable(c.message)}`),
    );
    for (const p of s.baseline.removed) changed.push(`  ${printable(p)}: removed`);
    out.push(
      '',
      `changes from the baseline ${printable(s.baseline.file)} (an increase over ${s.baseline.maxIncrease}% fails):`,
    );
    if (changed.length) for (const c of changed) out.push(c);
    else out.push('  none');
  }
  out.push('', `${verdict(run)}.`);
  return `${out.join('\n')}\n`;
}
