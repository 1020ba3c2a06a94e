/**
 * The size chart: land impact and download weight of the linkset against its size (longest
 * side, 0.01 m to 64 m, log scale on both axes), with the current size marked. Built as SVG with
 * DOM calls (no markup strings); the curves are core's prices at each size (priceAtSize).
 */

import { svg, replaceChildren } from './dom.js';
import { metres, weight } from './format.js';
import { logSizes } from './price.js';

export const CHART_MIN_SIZE = 0.01;
export const CHART_MAX_SIZE = 64;
const SAMPLES = 81;
const W = 640;
const H = 250;
const PAD = { left: 54, right: 16, top: 14, bottom: 40 };

export interface ChartPoint {
  size: number;
  landImpact: number;
  download: number;
}

export interface SizeChart {
  element: SVGSVGElement;
  /** Moves the marker to the size shown (and its values). */
  mark(size: number, landImpact: number, download: number): void;
}

/** The sizes the chart samples. */
export function chartSizes(): number[] {
  return logSizes(CHART_MIN_SIZE, CHART_MAX_SIZE, SAMPLES);
}

function decadeTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    const v = 10 ** e;
    if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
  }
  return out;
}

function tickLabel(v: number): string {
  return v >= 1 ? String(Math.round(v)) : String(Number(v.toPrecision(1)));
}

/** Draws the chart for `points` (from chartSizes); `onPick(size)` when the user clicks a size. */
export function createSizeChart(points: ChartPoint[], onPick: (size: number) => void): SizeChart {
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart',
    role: 'img',
    'aria-label': 'Land impact and download weight by size',
    'data-testid': 'size-chart',
  });

  // 1. Scales: x log over the sizes, y log over the values (at least one decade).
  const values = points.flatMap((p) => [p.landImpact, p.download]).filter((v) => v > 0);
  let yLo = Math.min(...values, 1);
  let yHi = Math.max(...values, 1);
  yLo = 10 ** Math.floor(Math.log10(Math.max(yLo, 1e-4)));
  yHi = 10 ** Math.ceil(Math.log10(yHi * 2)); // headroom for the legend
  if (yHi / yLo < 10) yHi = yLo * 10;
  const x = (s: number) =>
    PAD.left +
    ((Math.log(s) - Math.log(CHART_MIN_SIZE)) / (Math.log(CHART_MAX_SIZE) - Math.log(CHART_MIN_SIZE))) *
      (W - PAD.left - PAD.right);
  const y = (v: number) =>
    PAD.top +
    (1 - (Math.log(Math.max(v, yLo)) - Math.log(yLo)) / (Math.log(yHi) - Math.log(yLo))) * (H - PAD.top - PAD.bottom);

  // 2. Grid and axes.
  const grid = svg('g', { class: 'grid' });
  const xTicks = [...decadeTicks(CHART_MIN_SIZE, CHART_MAX_SIZE), CHART_MAX_SIZE];
  for (const t of xTicks) {
    grid.append(svg('line', { x1: x(t), x2: x(t), y1: PAD.top, y2: H - PAD.bottom }));
    grid.append(svg('text', { x: x(t), y: H - PAD.bottom + 15, 'text-anchor': 'middle', class: 'tick' }, tickLabel(t)));
  }
  for (const t of decadeTicks(yLo, yHi)) {
    grid.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t) }));
    grid.append(svg('text', { x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' }, tickLabel(t)));
  }
  grid.append(
    svg(
      'text',
      { x: (PAD.left + W - PAD.right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis' },
      'size: longest side of the linkset (m), log scale',
    ),
  );
  grid.append(
    svg(
      'text',
      {
        x: 12,
        y: (PAD.top + H - PAD.bottom) / 2,
        'text-anchor': 'middle',
        class: 'axis',
        transform: `rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})`,
      },
      'weight (log)',
    ),
  );
  root.append(grid);

  // 3. The curves.
  const path = (key: 'landImpact' | 'download') =>
    points.map((p, i) => `${i ? 'L' : 'M'}${x(p.size).toFixed(1)},${y(p[key]).toFixed(1)}`).join('');
  root.append(svg('path', { d: path('landImpact'), class: 'curve land-impact', 'data-series': 'land-impact' }));
  root.append(svg('path', { d: path('download'), class: 'curve download', 'data-series': 'download' }));

  // 4. Legend.
  const legend = svg('g', { class: 'legend', transform: `translate(${PAD.left + 10} ${PAD.top + 6})` });
  legend.append(
    svg('line', { x1: 0, x2: 22, y1: 6, y2: 6, class: 'curve land-impact' }),
    svg('text', { x: 28, y: 10 }, 'land impact'),
  );
  legend.append(
    svg('line', { x1: 110, x2: 132, y1: 6, y2: 6, class: 'curve download' }),
    svg('text', { x: 138, y: 10 }, 'download weight'),
  );
  root.append(legend);

  // 5. The marker of the current size.
  const marker = svg('g', { class: 'marker', 'data-testid': 'size-marker' });
  const line = svg('line', { y1: PAD.top, y2: H - PAD.bottom });
  const dotLi = svg('circle', { r: 4, class: 'dot land-impact' });
  const dotDl = svg('circle', { r: 4, class: 'dot download' });
  const label = svg('text', { class: 'marker-label' });
  marker.append(line, dotLi, dotDl, label);
  root.append(marker);

  // 6. Click to choose a size.
  root.addEventListener('click', (ev) => {
    const r = root.getBoundingClientRect();
    const px = ((ev.clientX - r.left) / r.width) * W;
    if (px < PAD.left || px > W - PAD.right) return;
    const t = (px - PAD.left) / (W - PAD.left - PAD.right);
    onPick(Math.exp(Math.log(CHART_MIN_SIZE) + t * (Math.log(CHART_MAX_SIZE) - Math.log(CHART_MIN_SIZE))));
  });

  return {
    element: root,
    mark(size, landImpact, download) {
      const inside = size >= CHART_MIN_SIZE && size <= CHART_MAX_SIZE;
      marker.setAttribute('visibility', inside ? 'visible' : 'hidden');
      marker.setAttribute('data-size', String(size));
      if (!inside) return;
      const mx = x(size);
      for (const [k, v] of [
        ['x1', mx],
        ['x2', mx],
      ] as const)
        line.setAttribute(k, String(v));
      dotLi.setAttribute('cx', String(mx));
      dotLi.setAttribute('cy', String(y(landImpact)));
      dotDl.setAttribute('cx', String(mx));
      dotDl.setAttribute('cy', String(y(download)));
      const right = mx > W - 200;
      label.setAttribute('x', String(right ? mx - 6 : mx + 6));
      label.setAttribute('y', String(H - PAD.bottom - 8));
      label.setAttribute('text-anchor', right ? 'end' : 'start');
      replaceChildren(label, `${metres(size)}: LI ${weight(landImpact)}, download ${weight(download)}`);
    },
  };
}
