/**
 * `slmesh check --format github`: GitHub Actions workflow commands. Each asset that fails gets
 * one `::error file=<path>,title=...::<what is over>` annotation, shown on the file in the pull
 * request; the message lists every failing number (one per line). One annotation per asset,
 * not per number, because GitHub shows at most 10 error annotations per step. Then the
 * verdict as a plain log line.
 *
 * Everything quoted is escaped as GitHub's toolkit does (escapeData, escapeProperty), with
 * control characters shown as `?`, so no file or node name can end the command or start another.
 *
 * Paths are relative to the working directory: run the check from the repository root (as
 * workflows do by default) so annotations land on the right file.
 */

import { printable } from '../format-table.js';
import { failureLines, verdict, type CheckRun } from './check-report.js';

/** Escapes a workflow command's message (GitHub's escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (GitHub's escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatGithub(run: CheckRun): string {
  const out: string[] = [];
  for (const a of run.assets) {
    const lines = failureLines(a);
    if (!lines.length) continue;
    const kinds = new Set(lines.map((l) => l.kind));
    const title = kinds.has('unmatched')
      ? 'slmesh: no budget rule'
      : kinds.has('budget') && kinds.has('baseline')
        ? 'slmesh: over budget and regressed'
        : kinds.has('budget')
          ? 'slmesh: over budget'
          : 'slmesh: regressed from the baseline';
    // Control characters other than the line breaks GitHub's escaping carries are shown as `?`.
    const message = lines
      .map((l) => printable(`${a.path}: ${l.message}${l.rule ? ` [rule ${l.rule}]` : ''}`))
      .join('\n');
    out.push(
      `::error file=${escapeProperty(printable(a.path))},title=${escapeProperty(title)}::${escapeData(message)}`,
    );
  }
  out.push(`slmesh check: ${verdict(run)}`);
  return `${out.join('\n')}\n`;
}
