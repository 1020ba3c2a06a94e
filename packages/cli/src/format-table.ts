/**
 * The readable `slmesh cost` output: one table per file, objects then the linkset, the LOD
 * switch distances and the diagnostics. Numbers a creator compares with the viewer's upload
 * floater use the floater's precision (3 decimals for weights).
 */

import type { CostReport, FileReport } from '@slmesh/gltf-plugin/node';

const w3 = (n: number) => n.toFixed(3);
const int = (n: number) => n.toLocaleString('en-US');
const metres = (n: number) => (!Number.isFinite(n) ? 'never' : n >= 100 ? `${n.toFixed(0)} m` : `${n.toFixed(1)} m`);
const size = (v: number[]) => v.map((x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2))).join(' x ');

/** Pads columns of a table of strings; numbers (right-aligned) are columns after the first. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => rows.reduce((w, r) => Math.max(w, (r[c] ?? '').length), 0));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Strips control characters so a hostile node name cannot drive the terminal. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/**
 * Text for a CI log: no line may start (after spaces) with `::`, or GitHub Actions would run it
 * as a workflow command (`::stop-commands::`, `::add-mask::`, `::error`): a node or file named
 * so gets `: :` instead. Only `--format github` writes real commands, and escapes what it quotes.
 */
export function noWorkflowCommands(text: string): string {
  return text.replace(/^([ \t]*):(?=:)/gm, '$1: ');
}

/** A name for a table cell: printable, and cut to `max` characters so one long name cannot stretch every row. */
export function cellName(s: string, max = 48): string {
  const p = printable(s);
  return p.length > max ? `${p.slice(0, max - 1)}…` : p;
}

export function formatFile(file: FileReport, settings: CostReport['settings']): string {
  const out: string[] = [];
  const ls = file.linkset;
  const link = ls.linkable.ok
    ? `linkable (span ${ls.linkable.span.toFixed(2)} m < ${ls.linkable.limit} m, ${ls.prims} of ${ls.linkable.maxPrims} prims)`
    : `NOT linkable (${printable(ls.linkable.reason ?? '')})`;
  out.push(`${printable(file.path)}: ${ls.prims} prim${ls.prims === 1 ? '' : 's'}, ${size(ls.scale)} m, ${link}`);
  if (file.siblings.length) out.push(`  with ${file.siblings.map(printable).join(', ')}`);
  out.push('');
  const rows: string[][] = [
    ['object', 'size (m)', 'triangles H/M/L/Lw', 'bytes H/M/L/Lw', 'download', 'physics', 'server', 'land impact'],
  ];
  for (const o of file.objects) {
    const l = o.lods;
    const mark = (x: { present: boolean }, s: string) => (x.present ? s : `(${s})`);
    rows.push([
      cellName(o.name),
      size(o.scale),
      [l.high, l.medium, l.low, l.lowest].map((x) => mark(x, int(x.triangles))).join('/'),
      [l.high, l.medium, l.low, l.lowest].map((x) => mark(x, int(x.bytes))).join('/'),
      w3(o.streaming),
      `${w3(o.physics.weight)}${o.physics.estimate ? '*' : ''}${o.physics.assumes?.includes('analyze') ? ' assumes Analyze' : ''}${o.physics.convexified ? ' (hull)' : ''}`,
      w3(o.server),
      w3(o.landImpact),
    ]);
  }
  rows.push([
    'linkset',
    size(ls.scale),
    '',
    '',
    w3(ls.streaming),
    `${w3(ls.physics)}${ls.physicsEstimate ? '*' : ''}`,
    w3(ls.server),
    `${w3(ls.landImpact)} -> ${ls.landImpactRounded}`,
  ]);
  out.push(table(rows));
  const notes: string[] = [];
  if (file.objects.some((o) => Object.values(o.lods).some((x) => !x.present)))
    notes.push('(n) = LOD not in the asset; the viewer shows and charges the next higher LOD');
  if (ls.physicsEstimate) notes.push("* = estimate: no public formula for a decomposition's physics weight");
  if (file.objects.some((o) => o.physics.assumes?.includes('analyze')))
    notes.push(
      'assumes Analyze = priced as hulls: a physics model from a file is a triangle mesh unless you click Analyze in the uploader',
    );
  if (file.objects.some((o) => o.physics.convexified))
    notes.push('(hull) = physics mesh on an object with a side under 0.5 m: the server charges its single convex hull');
  for (const o of file.objects)
    if (o.physics.choice)
      notes.push(`physics of ${cellName(o.name)}: ${o.physics.choice.shape}, ${printable(o.physics.choice.reason)}`);
  for (const n of notes) out.push(`  ${n}`);
  out.push(`  land impact is set by ${ls.dominant} weight; rounded half up (Second Life's rounding is not public)`);
  out.push(
    `  physical: weight ${w3(ls.physical.weight)}, ${ls.physical.canBePhysical ? 'can' : 'cannot'} be set physical (limit ${ls.physical.limit})`,
  );
  out.push('');
  out.push(`LOD switch distances at RenderVolumeLODFactor ${settings.lodFactor}:`);
  const drows: string[][] = [['object', 'radius', 'medium from', 'low from', 'lowest from']];
  for (const o of file.objects) {
    const d = o.switchDistances;
    drows.push([cellName(o.name), metres(o.radius), metres(d.medium), metres(d.low), metres(d.lowest)]);
  }
  out.push(table(drows));
  if (file.diagnostics.length) {
    out.push('');
    out.push('diagnostics:');
    for (const d of file.diagnostics) out.push(`  ${d.severity} ${d.code}: ${printable(d.message)}`);
  }
  return out.join('\n');
}

export function formatReport(report: CostReport): string {
  const head: string[] = [];
  const s = report.settings.size;
  if (s) {
    if ('longestSide' in s) head.push(`priced at longest side ${s.longestSide} m`);
    else if ('scale' in s) head.push(`priced at scale ${s.scale.join(' x ')} m`);
  }
  if (report.settings.animesh) head.push('priced as an animated object (animesh)');
  return [...head, ...report.files.map((f) => formatFile(f, report.settings))].join('\n\n') + '\n';
}
