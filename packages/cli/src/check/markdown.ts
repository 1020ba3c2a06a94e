/**
 * `slmesh check --format markdown`: a pull-request comment or GitHub step summary. The verdict
 * as a heading, a table of the assets that fail with what is over and by how much, the
 * changes from the baseline, and every asset's numbers folded away in <details>.
 *
 * Long lists are cut (with a count of what was left out) so a large repository stays under
 * GitHub's 65,536-character comment limit.
 */

import { failureLines, verdict, type CheckRun } from './check-report.js';
import { formatCount, formatWeight, linksetTriangles } from './evaluate.js';

const MAX_FAILURE_ROWS = 200;
const MAX_ASSET_ROWS = 300;

/** Text safe inside a table cell. */
export function cell(s: string): string {
  return s
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[<*_`[\]]/g, (c) => `\\${c}`);
}

const code = (s: string) =>
  `\`${s
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/`/g, "'")
    .replace(/\|/g, '\\|')}\``;

function cut(rows: string[], max: number, what: string): string[] {
  return rows.length <= max ? rows : [...rows.slice(0, max), `\n…and ${rows.length - max} more ${what}.`];
}

export function formatMarkdown(run: CheckRun): string {
  const s = run.summary;
  const out: string[] = [];
  out.push(`### ${s.ok ? '✅' : '❌'} slmesh check: ${verdict(run)}`, '');
  const facts = [`budget ${code(s.budget)}`];
  if (s.shard) facts.push(`shard ${s.shard.index}/${s.shard.count}`);
  if (s.baseline) facts.push(`baseline ${code(s.baseline.file)}, an increase over ${s.baseline.maxIncrease}% fails`);
  out.push(facts.join(' · '), '');

  // 1. What fails, by how much.
  const failures = run.assets.flatMap((a) =>
    failureLines(a).map(
      (f) =>
        `| ${code(a.path)} | ${f.kind === 'baseline' ? 'baseline' : f.rule ? cell(f.rule) : '—'} | ${cell(f.message)} |`,
    ),
  );
  if (failures.length) {
    out.push('| asset | rule | over |', '| --- | --- | --- |', ...cut(failures, MAX_FAILURE_ROWS, 'failures'), '');
  }

  // 2. Changes from the baseline.
  if (s.baseline) {
    const rows = run.assets.flatMap((a) =>
      a.baseline?.status === 'new'
        ? [`| ${code(a.path)} | new | | | |`]
        : (a.baseline?.changes ?? []).map(
            (c) =>
              `| ${code(a.path)} | ${cell(c.label)} | ${c.label.includes('triangles') || c.metric === 'prims' ? formatCount(c.before) : formatWeight(c.before, c.after)} | ${c.label.includes('triangles') || c.metric === 'prims' ? formatCount(c.after) : formatWeight(c.after, c.before)} | ${c.changePercent === null ? 'was 0' : `${c.changePercent >= 0 ? '+' : ''}${c.changePercent.toFixed(1)}%`}${c.ok ? '' : ' ❌'} |`,
          ),
    );
    for (const p of s.baseline.removed) rows.push(`| ${code(p)} | removed | | | |`);
    out.push('<details><summary>Changes from the baseline</summary>', '');
    if (rows.length)
      out.push(
        '| asset | what | before | after | change |',
        '| --- | --- | ---: | ---: | ---: |',
        ...cut(rows, MAX_FAILURE_ROWS, 'changes'),
      );
    else out.push('No changes.');
    out.push('', '</details>', '');
  }

  // 3. Every asset's numbers.
  if (run.assets.length) {
    const rows = run.assets.map((a) => {
      const ls = a.report.linkset;
      return `| ${a.ok ? '✅' : '❌'} | ${code(a.path)} | ${formatWeight(ls.landImpact)} | ${formatWeight(ls.streaming)} | ${formatWeight(ls.physics)}${ls.physicsEstimate ? ' (estimate)' : ''} | ${formatWeight(ls.server)} | ${formatCount(linksetTriangles(a.report, 'high'))} | ${ls.prims} |`;
    });
    out.push(`<details><summary>All ${run.assets.length} asset${run.assets.length === 1 ? '' : 's'}</summary>`, '');
    out.push(
      '| | asset | land impact | download | physics | server | triangles | prims |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...cut(rows, MAX_ASSET_ROWS, 'assets'),
      '',
      '</details>',
      '',
    );
  }
  return `${out.join('\n')}`;
}
