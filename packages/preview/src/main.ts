/**
 * The `slmesh preview` page: reads the embedded report and geometry, draws the model with the
 * LOD a viewer shows at the camera's distance for the chosen RenderVolumeLODFactor (core
 * lodAtDistance on each object's distance from the camera to its centre), the four LODs side by
 * side, the physics shapes on demand, and the costs, re-priced with core when the size changes.
 *
 * Tests and tools drive it through `window.slmeshPreview` (see docs/preview.md).
 */

import { Scene, Vector3 } from 'three';
import { LOD_NAMES, lodAtDistance, lodSwitchDistances, type LodName, LOD_FACTOR_CHOICES } from '@slmesh/core';
import { chartSizes, CHART_MAX_SIZE, CHART_MIN_SIZE, createSizeChart, type SizeChart } from './chart.js';
import { el, replaceChildren, setValue } from './dom.js';
import { count, inputNumber, metres, size3 } from './format.js';
import { loadViewState, saveViewState, startLive } from './live.js';
import { CostPanel, DiagnosticsPanel, ObjectsTable, type CameraInfo } from './panels.js';
import { decodePreview, type DecodedPreview } from './payload.js';
import { priceAtSize, type Priced } from './price.js';
import {
  buildScene,
  HULL_COLOUR,
  MATERIAL_COLOURS,
  PHYSICS_MESH_COLOUR,
  type PhysicsMode,
  type PreviewScene,
} from './scene.js';
import { createViewer, MAIN_FOV, wantAntialias, type Viewer } from './viewer.js';

/** RenderVolumeLODFactor choices: the official viewer's default and presets, Firestorm's default, the maximum. */
/** The factors the page offers: core's one list. */
export const LOD_FACTORS: readonly number[] = LOD_FACTOR_CHOICES;
const LOD_FACTOR_LABEL: Record<number, string> = {
  1: '1 (SL viewer default)',
  2: '2 (Firestorm default)',
  4: '4 (maximum)',
};
const LOD_LABEL: Record<LodName, string> = { high: 'High', medium: 'Medium', low: 'Low', lowest: 'Lowest' };
const DEFAULT_DIRECTION = new Vector3(0.6, -1, 0.45).normalize();

interface State {
  lodFactor: number;
  /** Longest side asked about, metres; undefined = the model's own size. */
  size: number | undefined;
  physics: PhysicsMode;
  /** Object the camera orbits and measures from; -1 = the linkset's centre. */
  focus: number;
  wireframe: boolean;
}

export interface PreviewHook {
  ready: boolean;
  error?: string;
  /** performance.now() when the first frame had been drawn. */
  firstFrameMs?: number;
  frames?: number;
  setCameraDistance?(d: number, objectIndex?: number): HookState;
  setLodFactor?(f: number): HookState;
  setSize?(longestSide: number | null): HookState;
  setPhysics?(mode: PhysicsMode): HookState;
  setFocus?(objectIndex: number): HookState;
  state?(): HookState;
}

export interface HookState {
  distance: number;
  focus: number;
  focusName: string;
  lodFactor: number;
  size: number;
  activeLod: LodName | 'mixed';
  objects: {
    name: string;
    distance: number;
    lod: LodName;
    drawn: LodName;
    radius: number;
    switchDistances: { medium: number; low: number; lowest: number };
  }[];
  physics: PhysicsMode;
  frames: number;
  webgl: boolean;
  priced: Priced;
}

declare global {
  interface Window {
    slmeshPreview: PreviewHook;
  }
}

window.slmeshPreview = { ready: false };

/** A colour swatch (styled through the DOM: the page's CSP allows no style attributes). */
function swatch(colour: string): HTMLElement {
  const node = el('span', { class: 'swatch' });
  node.style.background = colour;
  return node;
}

function fatal(message: string): void {
  window.slmeshPreview = { ready: false, error: message };
  document.body.append(
    el('div', { class: 'banner error', role: 'alert' }, `The preview could not load the model: ${message}`),
  );
}

async function start(): Promise<void> {
  const dataEl = document.getElementById('slmesh-data');
  const geometryEl = document.getElementById('slmesh-geometry');
  if (!dataEl || !geometryEl) {
    fatal('the page has no embedded model');
    return;
  }
  let preview: DecodedPreview;
  try {
    preview = await decodePreview(dataEl.textContent ?? '', geometryEl.textContent ?? '');
  } catch (e) {
    fatal(e instanceof Error ? e.message : String(e));
    return;
  }
  runPage(preview);
}

/** A file with nothing to draw (no mesh, or every object blocked): its diagnostics, nothing else. */
function runEmptyPage(preview: DecodedPreview): void {
  const file = preview.data.report.files[0];
  document.title = `${file.path} · slmesh preview`;
  const diagnostics = new DiagnosticsPanel();
  diagnostics.update(file.diagnostics);
  document.body.append(
    el(
      'div',
      { class: 'app' },
      el(
        'header',
        { class: 'top' },
        el('h1', {}, 'slmesh preview'),
        el('span', { class: 'file', id: 'file-name' }, file.path),
      ),
      el(
        'div',
        { class: 'banner error', role: 'status' },
        'Nothing to show: the file has no object Second Life would accept (see the diagnostics).',
      ),
      diagnostics.element,
    ),
  );
  window.slmeshPreview = { ready: true, firstFrameMs: performance.now(), frames: 0 };
}

function runPage(preview: DecodedPreview): void {
  const { data } = preview;
  const file = data.report.files[0];
  if (file.objects.length === 0) {
    runEmptyPage(preview);
    return;
  }
  const reportObjects = file.objects;
  const ownSize = Math.max(...file.linkset.scale);
  const saved = loadViewState(file.path);

  // 1. State: the saved view (a live reload), else the defaults. The camera orbits a single
  //    object's centre, or a linkset's centre (each object still measured from its own centre).
  let largest = 0;
  reportObjects.forEach((o, i) => {
    if (o.radius > reportObjects[largest].radius) largest = i;
  });
  const state: State = {
    lodFactor: saved?.lodFactor ?? data.lodFactor,
    size: saved?.size ?? undefined,
    physics: (saved?.physics as PhysicsMode) ?? 'off',
    focus:
      saved && saved.focus >= -1 && saved.focus < reportObjects.length
        ? saved.focus
        : reportObjects.length === 1
          ? 0
          : -1,
    wireframe: saved?.wireframe ?? false,
  };
  let priced: Priced = priceAtSize(preview, state.size, state.lodFactor);

  // 2. Layout.
  document.title = `${file.path} · slmesh preview`;
  const banner = el('div', { class: 'banner', role: 'status', hidden: true });
  const liveStatus = el('span', { class: 'live-status', id: 'live-status' });
  const header = el(
    'header',
    { class: 'top' },
    el('h1', {}, 'slmesh preview'),
    el('span', { class: 'file', id: 'file-name' }, file.path),
    el(
      'span',
      { class: 'meta', id: 'file-meta' },
      `${file.linkset.prims} prim${file.linkset.prims === 1 ? '' : 's'} · own size ${size3(file.linkset.scale)}${file.siblings.length ? ` · with ${file.siblings.join(', ')}` : ''}`,
    ),
    liveStatus,
  );

  const distanceText = el('span', { class: 'big', id: 'camera-distance' });
  const focusName = el('span', { id: 'focus-name' });
  const activeLod = el('span', { class: 'big lod', id: 'active-lod' });
  const switchText = el('div', { class: 'small', id: 'switch-distances' });
  const hud = el(
    'div',
    { class: 'hud' },
    el('div', {}, 'Camera ', distanceText, ' from ', focusName),
    el('div', {}, 'Showing ', activeLod, ' LOD'),
    switchText,
  );
  const noWebgl = el(
    'div',
    { class: 'no-webgl', hidden: true },
    'WebGL is not available in this browser, so the model is not drawn. The costs, LOD distances and chart below still apply.',
  );
  const mainView = el('div', { class: 'view-main', id: 'view-main', 'data-testid': 'main-view' }, hud, noWebgl);
  const paneLabels = {} as Record<LodName, { title: HTMLElement; info: HTMLElement; pane: HTMLElement }>;
  const panes = LOD_NAMES.map((slot) => {
    const title = el('div', { class: 'pane-title' }, LOD_LABEL[slot]);
    const info = el('div', { class: 'pane-info' });
    const pane = el('div', { class: 'view-lod', 'data-lod-pane': slot }, title, info);
    paneLabels[slot] = { title, info, pane };
    return pane;
  });
  const views = el('section', { class: 'views', id: 'views' }, mainView, el('div', { class: 'view-lods' }, ...panes));

  // Controls.
  const factorSelect = el('select', { id: 'lod-factor' });
  const factors = LOD_FACTORS.includes(state.lodFactor)
    ? LOD_FACTORS
    : [...LOD_FACTORS, state.lodFactor].sort((a, b) => a - b);
  for (const f of factors)
    factorSelect.append(
      el('option', { value: String(f), selected: f === state.lodFactor }, LOD_FACTOR_LABEL[f] ?? String(f)),
    );
  const sizeInput = el('input', {
    id: 'size-input',
    type: 'number',
    min: '0.001',
    step: 'any',
    'aria-label': 'Longest side in metres',
  });
  const sizeRange = el('input', {
    id: 'size-range',
    type: 'range',
    min: '0',
    max: '1000',
    step: '1',
    'aria-label': 'Size (log scale)',
  });
  const sizeReset = el('button', { id: 'size-reset', type: 'button' }, `Own size (${metres(ownSize)})`);
  const sizeNote = el('div', { class: 'small', id: 'size-note' });
  const distanceRange = el('input', {
    id: 'distance-range',
    type: 'range',
    min: '0',
    max: '1000',
    step: '1',
    'aria-label': 'Camera distance (log scale)',
  });
  const distanceTicks = el('div', { class: 'ticks', id: 'distance-ticks' });
  const focusSelect = el('select', { id: 'focus' });
  focusSelect.append(el('option', { value: '-1' }, 'Linkset centre'));
  reportObjects.forEach((o, i) => focusSelect.append(el('option', { value: String(i) }, o.name)));
  const physicsChoices: { mode: PhysicsMode; label: string; colour?: string }[] = [
    { mode: 'off', label: 'Off' },
    { mode: 'hull', label: 'Single hull', colour: HULL_COLOUR },
    { mode: 'decomposition', label: 'Decomposition' },
    { mode: 'mesh', label: 'Physics mesh', colour: PHYSICS_MESH_COLOUR },
  ];
  const physicsInputs = {} as Record<PhysicsMode, HTMLInputElement>;
  const physicsField = el('fieldset', { class: 'physics', id: 'physics' }, el('legend', {}, 'Physics shape'));
  const wireframe = el('input', { id: 'wireframe', type: 'checkbox' });
  const controls = el(
    'section',
    { class: 'panel controls', 'aria-label': 'Controls' },
    el(
      'div',
      { class: 'pair' },
      el('label', { class: 'control' }, el('span', {}, 'RenderVolumeLODFactor'), factorSelect),
      el('label', { class: 'control' }, el('span', {}, 'Orbit around'), focusSelect),
    ),
    el(
      'div',
      { class: 'control' },
      el('label', { for: 'size-input' }, 'Size: longest side (m)'),
      el('div', { class: 'row' }, sizeInput, sizeReset),
      sizeRange,
      sizeNote,
    ),
    el(
      'div',
      { class: 'control' },
      el('label', { for: 'distance-range' }, 'Camera distance'),
      distanceRange,
      distanceTicks,
    ),
    physicsField,
    el('label', { class: 'control check' }, wireframe, el('span', {}, 'Wireframe')),
  );
  const costPanel = new CostPanel();
  const objectsTable = new ObjectsTable(reportObjects, (i) => setFocus(i));
  const diagnosticsPanel = new DiagnosticsPanel();
  const chartHolder = el(
    'section',
    { class: 'panel chart-panel', id: 'chart', 'aria-label': 'Cost by size' },
    el('h2', {}, 'Cost by size ', el('span', { class: 'sub' }, '(click to try a size)')),
  );
  const legend = el('section', { class: 'panel materials', id: 'materials', 'aria-label': 'Materials' });

  const app = el(
    'div',
    { class: 'app' },
    header,
    banner,
    el('main', { class: 'layout' }, views, el('aside', { class: 'side' }, controls, costPanel.element)),
    el('div', { class: 'bottom' }, chartHolder, el('div', { class: 'bottom-right' }, diagnosticsPanel.element, legend)),
    objectsTable.element,
  );
  document.body.append(app);

  // 3. The 3D scene.
  const three = new Scene();
  const model: PreviewScene = buildScene(preview);
  three.add(model.root);
  replaceChildren(
    legend,
    el('h2', {}, 'Materials'),
    ...model.materials.map((m, i) =>
      el('div', { class: 'material' }, swatch(MATERIAL_COLOURS[i % MATERIAL_COLOURS.length]), m),
    ),
  );
  for (const c of physicsChoices) {
    const input = el('input', {
      type: 'radio',
      name: 'physics',
      value: c.mode,
      id: `physics-${c.mode}`,
      disabled: !model.available[c.mode],
    });
    physicsInputs[c.mode] = input;
    const used = reportObjects.filter((o) =>
      c.mode === 'hull' ? o.physics.shape === 'convex-hull' : o.physics.shape === c.mode,
    ).length;
    physicsField.append(
      el(
        'label',
        { class: `choice${model.available[c.mode] ? '' : ' disabled'}` },
        input,
        c.colour ? swatch(c.colour) : null,
        c.label,
        c.mode !== 'off' && !model.available[c.mode] ? el('span', { class: 'sub' }, ' (none in file)') : null,
        c.mode !== 'off' && used > 0
          ? el(
              'span',
              { class: 'sub' },
              ` (used by ${used === reportObjects.length ? 'every object' : `${used} object${used === 1 ? '' : 's'}`})`,
            )
          : null,
      ),
    );
  }
  if (!model.available[state.physics]) state.physics = 'off';

  let camInfo: CameraInfo[] = [];
  const centreOf = (i: number) => {
    if (i < 0) return new Vector3(...model.centre);
    const p = priced.objects[i].position;
    return new Vector3(p[0], p[1], p[2]);
  };
  const linksetRadius = () => 0.5 * Math.hypot(...priced.linkset.scale);
  const focusRadius = () => (state.focus >= 0 ? priced.objects[state.focus].radius : linksetRadius());
  const fitDistance = () =>
    ((linksetRadius() + centreOf(state.focus).distanceTo(centreOf(-1))) / Math.sin(((MAIN_FOV / 2) * Math.PI) / 180)) *
    1.3;

  const viewer: Viewer = createViewer(
    views,
    mainView,
    Object.fromEntries(LOD_NAMES.map((s) => [s, paneLabels[s].pane])) as Record<LodName, HTMLElement>,
    three,
    {
      prepareMain() {
        computeLods();
        camInfo.forEach((x, i) => model.showLod(i, x.drawn));
        model.showPhysics(state.physics);
      },
      preparePane(slot) {
        model.objects.forEach((_, i) => model.showLod(i, slot));
        model.showPhysics('off');
      },
      paneFrame() {
        return { centre: centreOf(-1), radius: Math.max(linksetRadius(), 1e-4) };
      },
      afterRender() {
        updateCameraLabels();
      },
      cameraMoved() {
        updateCameraLabels();
      },
    },
    { antialias: wantAntialias(reportObjects.reduce((a, o) => a + o.lods.high.triangles, 0)) },
  );
  if (!viewer.webgl) noWebgl.hidden = false;

  /** Each object's distance from the camera to its centre, and the LOD the viewer shows there. */
  function computeLods(): CameraInfo[] {
    const cam = viewer.camera.position;
    camInfo = priced.objects.map((o, i) => {
      const distance = cam.distanceTo(centreOf(i));
      const lod = lodAtDistance(o.radius, distance, state.lodFactor);
      return { distance, lod, drawn: model.objects[i].drawn[lod] };
    });
    return camInfo;
  }

  function activeLodOf(): LodName | 'mixed' {
    if (state.focus >= 0) return camInfo[state.focus].lod;
    const set = new Set(camInfo.map((x) => x.lod));
    return set.size === 1 ? camInfo[0].lod : 'mixed';
  }

  function updateCameraLabels(): void {
    computeLods();
    const d = viewer.distance();
    setValue(distanceText, metres(d), d);
    replaceChildren(focusName, state.focus >= 0 ? reportObjects[state.focus].name : 'the linkset centre');
    const lod = activeLodOf();
    if (lod === 'mixed') {
      const counts = LOD_NAMES.map((n) => [n, camInfo.filter((x) => x.lod === n).length] as const).filter(
        ([, k]) => k > 0,
      );
      setValue(activeLod, counts.map(([n, k]) => `${n} ×${k}`).join(', '), 'mixed');
    } else {
      const x = state.focus >= 0 ? camInfo[state.focus] : camInfo[0];
      setValue(activeLod, x.drawn === lod ? lod : `${lod} (shows ${x.drawn})`, lod);
    }
    activeLod.setAttribute('data-lod', lod);
    activeLod.className = `big lod lod-${lod}`;
    for (const slot of LOD_NAMES)
      paneLabels[slot].pane.classList.toggle(
        'active',
        lod === slot || (lod === 'mixed' && camInfo.some((x) => x.lod === slot)),
      );
    objectsTable.updateCamera(camInfo, state.focus);
    // The distance slider follows the camera.
    const [lo, hi] = distanceBounds();
    distanceRange.value = String(
      Math.round(((Math.log(Math.max(lo, Math.min(hi, d))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * 1000),
    );
    if (window.slmeshPreview.ready) window.slmeshPreview.frames = viewer.frames;
  }

  /** Switch distances of the focus object (the largest object for the linkset centre). */
  function focusSwitches() {
    const i = state.focus >= 0 ? state.focus : largest;
    return priced.objects[i].switchDistances;
  }

  function distanceBounds(): [number, number] {
    const sw = focusSwitches();
    const lo = Math.max(1e-3, 0.5 * focusRadius());
    const far = Number.isFinite(sw.lowest) ? sw.lowest * 1.6 : 1000;
    return [lo, Math.max(far, fitDistance() * 4, lo * 10)];
  }

  function updateDistanceTicks(): void {
    const [lo, hi] = distanceBounds();
    const sw = focusSwitches();
    const ticks = (['medium', 'low', 'lowest'] as const)
      .filter((k) => Number.isFinite(sw[k]))
      .map((k, row) => {
        const t = (Math.log(sw[k]) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        const tick = el(
          'span',
          { class: `tick lod-${k}`, title: `${k} from ${metres(sw[k])}` },
          `${k} ${metres(sw[k])}`,
        );
        tick.style.left = `${(Math.min(1, Math.max(0, t)) * 100).toFixed(2)}%`;
        tick.style.top = `${row * 13}px`;
        return tick;
      });
    replaceChildren(distanceTicks, ...ticks);
    const name = reportObjects[state.focus >= 0 ? state.focus : largest]?.name ?? '';
    const which = state.focus < 0 && reportObjects.length > 1 ? `${name} (the largest object)` : name;
    replaceChildren(
      switchText,
      `RenderVolumeLODFactor ${state.lodFactor}: ${which} switches to medium at ${metres(sw.medium)}, low at ${metres(sw.low)}, lowest at ${metres(sw.lowest)}`,
    );
  }

  function updatePanes(): void {
    const i = state.focus >= 0 ? state.focus : largest;
    const o = priced.objects[i];
    const sw = o.switchDistances;
    const from: Record<LodName, string> = {
      high: `0 – ${metres(sw.medium)}`,
      medium: `${metres(sw.medium)} – ${metres(sw.low)}`,
      low: `${metres(sw.low)} – ${metres(sw.lowest)}`,
      lowest: `from ${metres(sw.lowest)}`,
    };
    for (const slot of LOD_NAMES) {
      const tris = model.objects.reduce((a, m) => a + m.triangles[slot], 0);
      const drawn = model.objects[i].drawn[slot];
      const missing = reportObjects.filter((ro) => !ro.lods[slot].present).length;
      replaceChildren(
        paneLabels[slot].info,
        `${count(tris)} triangles · ${reportObjects.length > 1 ? `${reportObjects[i].name} ` : ''}${from[slot]}`,
        drawn !== slot
          ? el('div', { class: 'missing' }, `not in the file: shows ${drawn}`)
          : missing > 0 && reportObjects.length > 1
            ? el(
                'div',
                { class: 'missing' },
                `${missing} object${missing === 1 ? '' : 's'} without it show the next higher`,
              )
            : null,
      );
      paneLabels[slot].pane.setAttribute('data-triangles', String(tris));
    }
  }

  let chart: SizeChart | undefined;
  function updatePrices(): void {
    priced = priceAtSize(preview, state.size, state.lodFactor);
    model.setScale(priced.factors[0]);
    costPanel.update(priced);
    objectsTable.update(priced);
    diagnosticsPanel.update(priced.diagnostics);
    chart?.mark(priced.longestSide, priced.linkset.landImpact, priced.linkset.streaming);
    sizeInput.value = inputNumber(priced.longestSide);
    const t =
      (Math.log(priced.longestSide) - Math.log(CHART_MIN_SIZE)) / (Math.log(CHART_MAX_SIZE) - Math.log(CHART_MIN_SIZE));
    sizeRange.value = String(Math.round(Math.min(1, Math.max(0, t)) * 1000));
    const notes: string[] = [];
    if (state.size !== undefined) notes.push(`×${inputNumber(priced.factors[0])} of the model's own size`);
    if (priced.diagnostics.some((d) => d.code === 'scale-capped'))
      notes.push(
        "over the uploader's limits at the size asked (an object 63.9 m on an axis, the model 240 m): its Scale stops there, so this is the size shown and priced",
      );
    if (priced.objects.some((o) => o.scale.some((s) => s < 0.01)))
      notes.push('an object is under 0.01 m on an axis at this size: Second Life makes it at least 0.01 m');
    replaceChildren(sizeNote, notes.join('; '));
    updateDistanceTicks();
    updatePanes();
  }

  // 4. Actions (the controls and the test hook share them).
  function setSize(longestSide: number | undefined): void {
    if (longestSide !== undefined && !(longestSide > 0 && Number.isFinite(longestSide))) return;
    const before = centreOf(state.focus);
    const d = viewer.distance();
    const f0 = priced.factors[0];
    state.size = longestSide !== undefined && longestSide === ownSize ? undefined : longestSide;
    updatePrices();
    // Keep the framing: the camera follows the focus point and its distance scales with the model.
    const after = centreOf(state.focus);
    if (!after.equals(before)) viewer.moveTarget(after);
    viewer.setDistance(d * (priced.factors[0] / f0));
    viewer.render();
  }
  function setLodFactor(f: number): void {
    if (!(f > 0)) return;
    state.lodFactor = f;
    if (![...factorSelect.options].some((o) => Number(o.value) === f))
      factorSelect.append(el('option', { value: String(f) }, String(f)));
    factorSelect.value = String(f);
    updatePrices();
    viewer.render();
  }
  function setPhysics(mode: PhysicsMode): void {
    state.physics = model.available[mode] ? mode : 'off';
    physicsInputs[state.physics].checked = true;
    viewer.render();
  }
  function setFocus(i: number): void {
    state.focus = i >= -1 && i < reportObjects.length ? i : -1;
    focusSelect.value = String(state.focus);
    viewer.moveTarget(centreOf(state.focus));
    updateDistanceTicks();
    updatePanes();
    viewer.render();
  }
  function setCameraDistance(d: number, objectIndex?: number): void {
    if (objectIndex !== undefined && objectIndex !== state.focus) setFocus(objectIndex);
    viewer.setDistance(d);
    viewer.render();
  }

  factorSelect.addEventListener('change', () => setLodFactor(Number(factorSelect.value)));
  sizeInput.addEventListener('change', () => setSize(Number(sizeInput.value)));
  sizeRange.addEventListener('input', () => {
    const t = Number(sizeRange.value) / 1000;
    setSize(
      Number(
        Math.exp(Math.log(CHART_MIN_SIZE) + t * (Math.log(CHART_MAX_SIZE) - Math.log(CHART_MIN_SIZE))).toPrecision(3),
      ),
    );
  });
  sizeReset.addEventListener('click', () => setSize(undefined));
  distanceRange.addEventListener('input', () => {
    const [lo, hi] = distanceBounds();
    setCameraDistance(Math.exp(Math.log(lo) + (Number(distanceRange.value) / 1000) * (Math.log(hi) - Math.log(lo))));
  });
  focusSelect.addEventListener('change', () => setFocus(Number(focusSelect.value)));
  for (const mode of Object.keys(physicsInputs) as PhysicsMode[])
    physicsInputs[mode].addEventListener('change', () => setPhysics(mode));
  wireframe.addEventListener('change', () => {
    state.wireframe = wireframe.checked;
    model.setWireframe(state.wireframe);
    viewer.render();
  });

  // 5. First frame: prices, camera (saved, or framing the linkset from the front right), draw.
  updatePrices();
  focusSelect.value = String(state.focus);
  physicsInputs[state.physics].checked = true;
  wireframe.checked = state.wireframe;
  model.setWireframe(state.wireframe);
  if (saved) {
    viewer.target.set(...saved.target);
    viewer.camera.position.set(...saved.camera);
    viewer.moveTarget(viewer.target.clone());
  } else {
    viewer.moveTarget(centreOf(state.focus));
    viewer.look(DEFAULT_DIRECTION, fitDistance());
  }
  viewer.render();

  const hookState = (): HookState => ({
    distance: viewer.distance(),
    focus: state.focus,
    focusName: state.focus >= 0 ? reportObjects[state.focus].name : '',
    lodFactor: state.lodFactor,
    size: priced.longestSide,
    activeLod: activeLodOf(),
    objects: camInfo.map((x, i) => ({
      name: reportObjects[i].name,
      distance: x.distance,
      lod: x.lod,
      drawn: x.drawn,
      radius: priced.objects[i].radius,
      switchDistances: lodSwitchDistances(priced.objects[i].radius, state.lodFactor),
    })),
    physics: state.physics,
    frames: viewer.frames,
    webgl: viewer.webgl,
    priced,
  });
  const withState =
    <A extends unknown[]>(fn: (...a: A) => void) =>
    (...a: A): HookState => {
      fn(...a);
      return hookState();
    };
  // The first frame is really drawn once finish() returns: that is the time the benchmark reports.
  viewer.finish();
  const firstFrameMs = performance.now();
  window.slmeshPreview = {
    ready: true,
    firstFrameMs,
    frames: viewer.frames,
    setCameraDistance: withState(setCameraDistance),
    setLodFactor: withState(setLodFactor),
    setSize: withState((s: number | null) => setSize(s === null ? undefined : s)),
    setPhysics: withState(setPhysics),
    setFocus: withState(setFocus),
    state: hookState,
  };
  document.body.setAttribute('data-ready', 'true');

  // 6. After the first frame: the size chart (it prices the model at 81 sizes), and live reload.
  setTimeout(() => {
    const points = chartSizes().map((s) => {
      const p = priceAtSize(preview, s, state.lodFactor);
      return { size: s, landImpact: p.linkset.landImpact, download: p.linkset.streaming };
    });
    chart = createSizeChart(points, (s) => setSize(Number(s.toPrecision(3))));
    chartHolder.append(chart.element);
    chart.mark(priced.longestSide, priced.linkset.landImpact, priced.linkset.streaming);
  }, 0);

  startLive(data.live, {
    beforeReload() {
      saveViewState(file.path, {
        camera: viewer.camera.position.toArray() as [number, number, number],
        target: viewer.target.toArray() as [number, number, number],
        lodFactor: state.lodFactor,
        size: state.size ?? null,
        physics: state.physics,
        focus: state.focus,
        wireframe: state.wireframe,
      });
    },
    failed(message) {
      banner.hidden = false;
      banner.className = 'banner error';
      replaceChildren(
        banner,
        `The last re-export could not be read, so this is still the previous version: ${message}`,
      );
    },
    status(text) {
      replaceChildren(liveStatus, text);
    },
  });
  if (data.live) replaceChildren(liveStatus, `made ${new Date(data.createdAt).toLocaleTimeString()}`);
}

void start();
