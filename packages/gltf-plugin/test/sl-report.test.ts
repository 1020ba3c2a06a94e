import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { zlibNgDeflate } from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../src/read-file.js';
import { reportFile } from '../src/report-file.js';
import { slReport as slReportBrowser } from '../src/sl-report.js';
import { slReport } from '../src/node.js';
import { VERSION } from '../src/version.js';

const root = resolve(__dirname, '../../..');
const asset = (name: string) => join(root, 'test-assets', name);

describe('slReport', () => {
  it('prices an in-memory document exactly as the file report does', async () => {
    const doc = await readDocument(asset('chair.glb'));
    const report = slReport(doc, { path: 'chair.glb' });
    const { report: file } = await reportFile(asset('chair.glb'), { siblings: false });
    expect(report.schemaVersion).toBeGreaterThan(0);
    expect(report.generator).toEqual({ name: 'slmesh', version: VERSION });
    expect(report.files[0].path).toBe('chair.glb');
    expect(report.files[0].objects).toEqual(file.objects);
    expect(report.files[0].linkset).toEqual(file.linkset);
    expect(report.files[0].linkset.prims).toBe(6);
  });

  it('follows its options (size, LOD factor) and leaves undefined options at their defaults', async () => {
    const doc = await readDocument(asset('chair.glb'));
    const big = slReport(doc, { size: { longestSide: 10 }, lodFactor: 1 });
    const same = slReport(doc, { size: undefined, lodFactor: undefined, deflate: undefined });
    expect(big.settings.lodFactor).toBe(1);
    expect(same.settings).toEqual(slReport(doc).settings);
    expect(Math.max(...big.files[0].linkset.scale)).toBeCloseTo(10, 9);
    expect(same.files[0].linkset).toEqual(slReport(doc).files[0].linkset);
  });

  it('the browser-safe entry prices with zlibNgDeflate by default: the same report as the Node entry', async () => {
    const doc = await readDocument(asset('cube.glb'));
    expect(slReportBrowser(doc)).toEqual(slReport(doc));
    expect(slReportBrowser(doc, { deflate: zlibNgDeflate })).toEqual(slReport(doc));
  });

  it('VERSION is the package version', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')).version);
  });
});
