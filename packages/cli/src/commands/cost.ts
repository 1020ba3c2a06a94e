/**
 * `slmesh cost <files...>`: what Second Life will charge for each file, per object and for the
 * linkset. Reads every file first; if any cannot be read, nothing is printed or written but
 * the one-line error (exit 2).
 */

import { join } from 'node:path';
import type { Command } from 'commander';
import { SlmeshError, type Vec3, LOD_FACTOR_DEFAULT } from '@slmesh/core';
import { jsonReplacer, makeCostReport, reportFile, type FileReport, type SizeRequest } from '@slmesh/gltf-plugin/node';
import { formatReport, noWorkflowCommands } from '../format-table.js';
import { safeFileName, writeAllOrNothing } from '../write-atomic.js';
import { VERSION } from '../version.js';
import { positive } from '../options.js';

export interface CostCommandOptions {
  json?: boolean;
  scale?: string;
  size?: string;
  lodFactor?: string;
  emitAsset?: string;
  animesh?: boolean;
  linkRule?: string;
  linkSpan?: string;
  scripts?: string;
  siblings?: boolean;
  maxTriangles?: string;
  importer?: string;
}

/** `--importer current|baked`: which glTF importer to read files as (spec 4b). */
export function parseImporter(value: string | undefined): 'current' | 'baked' {
  const v = value ?? 'current';
  if (v !== 'current' && v !== 'baked')
    throw new SlmeshError('USAGE', `--importer is current or baked, got "${value}"`);
  return v;
}

export function parseSize(options: CostCommandOptions): SizeRequest {
  if (options.scale && options.size) throw new SlmeshError('USAGE', '--scale and --size cannot be used together');
  if (options.scale) {
    const parts = options.scale.split(',');
    if (parts.length !== 3) throw new SlmeshError('USAGE', `--scale takes X,Y,Z in metres, got "${options.scale}"`);
    return { scale: parts.map((p) => positive(p.trim(), '--scale')) as Vec3 };
  }
  if (options.size) return { longestSide: positive(options.size, '--size') };
  return undefined;
}

export async function runCost(files: string[], options: CostCommandOptions, out: (s: string) => void): Promise<number> {
  const size = parseSize(options);
  const lodFactor = options.lodFactor !== undefined ? positive(options.lodFactor, '--lod-factor') : LOD_FACTOR_DEFAULT;
  const rule = (options.linkRule ?? 'current') as 'current' | 'legacy';
  if (rule !== 'current' && rule !== 'legacy')
    throw new SlmeshError('USAGE', `--link-rule is current or legacy, got "${options.linkRule}"`);
  const maxSpan = options.linkSpan !== undefined ? positive(options.linkSpan, '--link-span') : undefined;
  const maxTriangles =
    options.maxTriangles !== undefined ? positive(options.maxTriangles, '--max-triangles') : undefined;
  const scripts = options.scripts !== undefined ? Math.floor(Number(options.scripts)) : 0;
  const importer = parseImporter(options.importer);
  if (!(scripts >= 0)) throw new SlmeshError('USAGE', `--scripts must be a whole number, got "${options.scripts}"`);

  // 1. Price every file (any unreadable file stops the command before output).
  const reports: FileReport[] = [];
  const assets: { path: string; data: Uint8Array }[] = [];
  const used = new Set<string>();
  const nextSuffix = new Map<string, number>();
  for (const file of files) {
    const { report, assets: fileAssets } = await reportFile(file, {
      size,
      lodFactor,
      animesh: !!options.animesh,
      scripts,
      siblings: options.siblings !== false,
      importer,
      ...(maxTriangles !== undefined ? { maxTriangles } : {}),
      linkability: { rule, ...(maxSpan !== undefined ? { maxSpan } : {}) },
      keepAssets: !!options.emitAsset,
    });
    reports.push(report);
    for (const [name, data] of fileAssets ?? []) {
      // The next free suffix is remembered per name: n equal names take linear time.
      const base = safeFileName(name);
      let fname = base;
      let k = nextSuffix.get(base) ?? 2;
      if (used.has(fname)) {
        for (fname = `${base}-${k}`; used.has(fname); ) fname = `${base}-${++k}`;
        nextSuffix.set(base, k + 1);
      }
      used.add(fname);
      assets.push({ path: join(options.emitAsset!, `${fname}.llmesh`), data });
    }
  }
  const report = makeCostReport(
    reports,
    { lodFactor, ...(size ? { size } : {}), animesh: !!options.animesh, linkabilityRule: rule },
    VERSION,
  );

  // 2. Write the assets (all or none), then print.
  if (options.emitAsset) await writeAllOrNothing(assets);
  out(options.json ? JSON.stringify(report, jsonReplacer, 2) + '\n' : noWorkflowCommands(formatReport(report)));
  return 0;
}

export function registerCost(program: Command, run: (fn: () => Promise<number>) => Promise<void>): void {
  program
    .command('cost')
    .description('project download, physics and server weight, land impact and linkability of glTF/GLB files')
    .argument('<files...>', 'glTF or GLB files (sibling _LOD2/_LOD1/_LOD0/_PHYS files are picked up)')
    .option('--json', 'print the JSON report (docs/cost-report.schema.json)')
    .option('--scale <x,y,z>', 'price the linkset at this size in metres')
    .option('--size <metres>', 'price the linkset with this longest side in metres')
    .option('--lod-factor <F>', 'RenderVolumeLODFactor for the LOD switch distances', String(LOD_FACTOR_DEFAULT))
    .option('--emit-asset <dir>', "write each object's encoded Second Life mesh asset to <dir>/<name>.llmesh")
    .option('--animesh', 'price as an animated object (triangle-based download weight)')
    .option('--link-rule <rule>', 'linkability rule: current (since Dec 2010) or legacy', 'current')
    .option('--link-span <metres>', 'largest linkable span of prim centres (default 54)')
    .option('--scripts <n>', 'scripts in the linkset, for server weight', '0')
    .option('--no-siblings', 'do not read sibling _LOD2/_LOD1/_LOD0/_PHYS files')
    .option('--max-triangles <n>', 'refuse files with more triangles than this (default 5000000)')
    .option(
      '--importer <mode>',
      'read files as the current glTF importer (node rotation and scale kept on the prim) or the older baked one (node transforms baked into the vertices)',
      'current',
    )
    .action(async (files: string[], options: CostCommandOptions) => {
      await run(() => runCost(files, options, (s) => process.stdout.write(s)));
    });
}
