/**
 * The page's text panels: the linkset's costs, the per-object table (with each object's camera
 * distance and the LOD it shows), and the diagnostics. Every value cell carries its exact
 * number as `data-value`; names and messages from the model go in as text only.
 */

import { LOD_NAMES, type LodName } from '@slmesh/core';
import { el, replaceChildren, setValue } from './dom.js';
import { count, metres, size3, weight } from './format.js';
import type { ReportDiagnostic, ReportObject } from './payload.js';
import type { Priced } from './price.js';

const DOMINANT_LABEL = { download: 'download weight', physics: 'physics weight', server: 'server weight' } as const;
const SHAPE_LABEL = { 'convex-hull': 'single hull', mesh: 'physics mesh', decomposition: 'decomposition' } as const;

function estimateBadge(): HTMLElement {
  return el(
    'span',
    {
      class: 'estimate',
      title: 'No public formula: Second Life does not publish how it weighs a convex decomposition',
    },
    'estimate',
  );
}

/** The linkset's cost panel. */
export class CostPanel {
  readonly element: HTMLElement;
  private cells: Record<string, HTMLElement> = {};
  private extra: Record<string, HTMLElement> = {};

  constructor() {
    const row = (key: string, label: string, help: string) => {
      const value = el('span', { class: 'value', id: `cost-${key}` });
      const note = el('span', { class: 'note', id: `cost-${key}-note` });
      this.cells[key] = value;
      this.extra[key] = note;
      return el(
        'div',
        { class: `cost-row cost-${key}`, title: help },
        el('span', { class: 'label' }, label),
        value,
        note,
      );
    };
    this.element = el(
      'section',
      { class: 'panel costs', id: 'costs', 'aria-label': 'Costs' },
      el('h2', {}, 'Costs ', el('span', { class: 'sub', id: 'costs-size' })),
      row('land-impact', 'Land impact', 'The largest of download, physics and server weight'),
      row(
        'download',
        'Download weight',
        'Streaming cost: the viewer’s formula on the compressed LOD sizes and the radius',
      ),
      row('physics', 'Physics weight', 'Of the shape each object uses (decomposition, physics mesh or single hull)'),
      row('server', 'Server weight', '0.5 per prim (no scripts)'),
      row(
        'physical',
        'If set physical',
        'Physics weight with the physical-linkset penalty; over 32 it cannot be set physical',
      ),
      row('linkable', 'Linkability', 'Smallest sphere around the prim centres under 54 m, at most 256 prims'),
    );
  }

  update(p: Priced): void {
    const ls = p.linkset;
    replaceChildren(this.element.querySelector('#costs-size')!, `at ${size3(ls.scale)}`);
    setValue(this.cells['land-impact'], `${weight(ls.landImpact)} → ${ls.landImpactRounded}`, ls.landImpact);
    this.cells['land-impact'].setAttribute('data-rounded', String(ls.landImpactRounded));
    replaceChildren(
      this.extra['land-impact'],
      `set by ${DOMINANT_LABEL[ls.dominant]}; rounded half up (Second Life’s rounding is not public)`,
    );
    setValue(this.cells.download, weight(ls.streaming), ls.streaming);
    replaceChildren(this.extra.download);
    setValue(this.cells.physics, weight(ls.physics), ls.physics);
    replaceChildren(this.extra.physics, ls.physicsEstimate ? estimateBadge() : null);
    setValue(this.cells.server, weight(ls.server), ls.server);
    replaceChildren(this.extra.server, `${ls.prims} prim${ls.prims === 1 ? '' : 's'}`);
    setValue(this.cells.physical, weight(ls.physical.weight), ls.physical.weight);
    replaceChildren(
      this.extra.physical,
      ls.physical.canBePhysical
        ? `can be set physical (limit ${ls.physical.limit})`
        : `cannot be set physical (over ${ls.physical.limit})`,
      ls.physicsEstimate ? estimateBadge() : null,
    );
    this.cells.physical.setAttribute('data-can-be-physical', String(ls.physical.canBePhysical));
    const link = ls.linkable;
    setValue(this.cells.linkable, link.ok ? 'linkable' : 'NOT linkable', link.ok);
    this.cells.linkable.className = `value ${link.ok ? 'ok' : 'bad'}`;
    this.cells.linkable.setAttribute('data-span', String(link.span));
    replaceChildren(
      this.extra.linkable,
      link.ok
        ? `span ${metres(link.span)} < ${link.limit} m, ${link.prims} of ${link.maxPrims} prims`
        : (link.reason ?? ''),
    );
  }
}

export interface CameraInfo {
  distance: number;
  lod: LodName;
  /** The LOD whose geometry is drawn (the next higher one when `lod` is missing). */
  drawn: LodName;
}

/** The per-object table. */
export class ObjectsTable {
  readonly element: HTMLElement;
  private body: HTMLTableSectionElement;
  private rows: { distance: HTMLElement; lod: HTMLElement; row: HTMLElement }[] = [];
  private valueCells: Record<string, HTMLElement>[] = [];

  constructor(report: ReportObject[], onFocus: (i: number) => void) {
    this.body = el('tbody');
    const head = el(
      'tr',
      {},
      ...[
        'Object',
        'Size',
        'Radius',
        'Triangles H / M / L / Lw',
        'Download',
        'Physics',
        'Server',
        'Land impact',
        'Camera',
        'LOD shown',
        'Medium from',
        'Low from',
        'Lowest from',
      ].map((h) => el('th', {}, h)),
    );
    this.element = el(
      'section',
      { class: 'panel objects', id: 'objects', 'aria-label': 'Objects' },
      el(
        'h2',
        {},
        'Objects ',
        el(
          'span',
          { class: 'sub' },
          '(prims of the linkset; (n) = LOD not in the file: the viewer shows and charges the next higher)',
        ),
      ),
      el('div', { class: 'table-wrap' }, el('table', {}, el('thead', {}, head), this.body)),
    );
    report.forEach((o, i) => {
      const cell = (field: string) => {
        const td = el('td', { 'data-field': field });
        return td;
      };
      const fields = [
        'name',
        'scale',
        'radius',
        'triangles',
        'streaming',
        'physics',
        'server',
        'landImpact',
        'distance',
        'lod',
        'medium',
        'low',
        'lowest',
      ];
      const cells: Record<string, HTMLElement> = {};
      for (const f of fields) cells[f] = cell(f);
      const button = el('button', { type: 'button', class: 'link', title: 'Orbit around this object' }, o.name);
      button.addEventListener('click', () => onFocus(i));
      cells.name.append(button);
      const lods = LOD_NAMES.map((n) =>
        o.lods[n].present ? count(o.lods[n].triangles) : `(${count(o.lods[n].triangles)})`,
      ).join(' / ');
      setValue(cells.triangles, lods, LOD_NAMES.map((n) => o.lods[n].triangles).join(','));
      const row = el('tr', { 'data-object': i }, ...fields.map((f) => cells[f]));
      this.body.append(row);
      this.rows.push({ distance: cells.distance, lod: cells.lod, row });
      this.valueCells.push(cells);
    });
  }

  update(p: Priced): void {
    p.objects.forEach((o, i) => {
      const c = this.valueCells[i];
      setValue(c.scale, size3(o.scale), o.scale.join(','));
      setValue(c.radius, metres(o.radius), o.radius);
      setValue(c.streaming, weight(o.streaming), o.streaming);
      replaceChildren(
        c.physics,
        weight(o.physics.weight),
        el('span', { class: 'shape' }, ` ${SHAPE_LABEL[o.physics.shape]}`),
        o.physics.estimate ? estimateBadge() : null,
        o.physics.assumes?.includes('analyze')
          ? el(
              'span',
              {
                class: 'shape',
                title:
                  'priced as hulls: a physics model from a file is a triangle mesh unless you click Analyze in the uploader',
              },
              ' assumes Analyze',
            )
          : null,
      );
      c.physics.setAttribute('data-value', String(o.physics.weight));
      setValue(c.server, weight(o.server), o.server);
      setValue(c.landImpact, weight(o.landImpact), o.landImpact);
      for (const k of ['medium', 'low', 'lowest'] as const)
        setValue(c[k], metres(o.switchDistances[k]), o.switchDistances[k]);
    });
  }

  updateCamera(info: CameraInfo[], focus: number): void {
    info.forEach((x, i) => {
      const r = this.rows[i];
      setValue(r.distance, metres(x.distance), x.distance);
      setValue(r.lod, x.drawn === x.lod ? x.lod : `${x.lod} (shows ${x.drawn})`, x.lod);
      r.lod.className = `lod lod-${x.lod}`;
      r.row.classList.toggle('focus', i === focus);
    });
  }
}

/** The diagnostics list. */
export class DiagnosticsPanel {
  readonly element: HTMLElement;
  private list: HTMLUListElement;

  constructor() {
    this.list = el('ul', { class: 'diagnostics-list' });
    this.element = el(
      'section',
      { class: 'panel diagnostics', id: 'diagnostics', 'aria-label': 'Diagnostics' },
      el('h2', {}, 'Diagnostics'),
      this.list,
    );
  }

  update(diagnostics: ReportDiagnostic[]): void {
    if (diagnostics.length === 0) {
      replaceChildren(
        this.list,
        el('li', { class: 'none' }, 'No findings: nothing the uploader would refuse or warn about.'),
      );
      return;
    }
    replaceChildren(
      this.list,
      ...diagnostics.map((d) =>
        el(
          'li',
          { class: `severity-${d.severity}`, 'data-code': d.code },
          el('span', { class: 'severity' }, d.severity),
          el('code', {}, d.code),
          el('span', { class: 'message' }, d.message),
        ),
      ),
    );
  }
}
