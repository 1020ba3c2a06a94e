/**
 * Draws the page's views with one WebGL canvas: the main view (orbit camera; each object at the
 * LOD its camera distance selects) and four LOD panes (the linkset at high, medium, low and
 * lowest, from the main camera's direction, framed to fit). Each view is a region of the canvas
 * under a placeholder element (scissor test), and frames are drawn on demand, not continuously.
 *
 * Second Life's default camera has a 60 degree vertical field of view (the LOD formula's FOV
 * correction is 1 there), so the main camera uses it too.
 */

import {
  Color,
  DirectionalLight,
  HemisphereLight,
  PerspectiveCamera,
  type Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { LOD_NAMES, type LodName } from '@slmesh/core';

export const MAIN_FOV = 60;
const PANE_FOV = 30;
const BACKGROUND = '#2f343c';

export interface ViewerHooks {
  /** Before the main view is drawn: choose each object's LOD for the current camera. */
  prepareMain(): void;
  /** Before a pane is drawn: show `slot` on every object. */
  preparePane(slot: LodName): void;
  /** The sphere the panes frame: centre and radius, metres (at the current size). */
  paneFrame(): { centre: Vector3; radius: number };
  /** After every frame (labels). */
  afterRender(): void;
  /** When the camera moved (orbit, zoom, pan). */
  cameraMoved(): void;
}

export interface Viewer {
  camera: PerspectiveCamera;
  /** False when the browser has no WebGL: nothing is drawn, the camera still drives the LODs. */
  webgl: boolean;
  /** Frames drawn so far. */
  frames: number;
  /** The orbit centre. */
  target: Vector3;
  /** Draws every view now. */
  render(): void;
  /** Draws on the next animation frame (coalesced). */
  requestRender(): void;
  /** Moves the camera along its current direction to `d` metres from the target. */
  setDistance(d: number): void;
  /** Moves the target (and the camera with it, keeping its offset). */
  moveTarget(to: Vector3): void;
  /** Sets the camera at `direction` (from target towards the camera) and distance `d`. */
  look(direction: Vector3, d: number): void;
  distance(): number;
  /** Waits until the last frame is really drawn (not just submitted). */
  finish(): void;
}

export interface ViewerOptions {
  /** Multisampling (see wantAntialias). */
  antialias: boolean;
}

/**
 * Whether to ask for multisampling: yes on a GPU; on a software rasteriser (SwiftShader,
 * llvmpipe: headless browsers, machines without a GPU driver) only for light models, where it
 * costs little. At 250k triangles, multisampling on SwiftShader more than doubles a frame.
 */
export function wantAntialias(triangles: number): boolean {
  if (triangles < 60_000) return true;
  try {
    const probe =
      document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
    if (!probe) return false;
    const info = probe.getExtension('WEBGL_debug_renderer_info');
    const name = String(probe.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : probe.RENDERER));
    probe.getExtension('WEBGL_lose_context')?.loseContext();
    return !/swiftshader|llvmpipe|softpipe|software/i.test(name);
  } catch {
    return false;
  }
}

export function createViewer(
  container: HTMLElement,
  mainEl: HTMLElement,
  paneEls: Record<LodName, HTMLElement>,
  scene: Scene,
  hooks: ViewerHooks,
  options: ViewerOptions = { antialias: true },
): Viewer {
  const camera = new PerspectiveCamera(MAIN_FOV, 1, 0.01, 1000);
  camera.up.set(0, 0, 1);
  const paneCamera = new PerspectiveCamera(PANE_FOV, 1, 0.01, 1000);
  paneCamera.up.set(0, 0, 1);
  const target = new Vector3();

  // 1. Lights: a sky/ground fill (Z up) and a headlight that follows whichever camera draws.
  scene.background = new Color(BACKGROUND);
  const sky = new HemisphereLight(0xffffff, 0x555a60, 1.6);
  sky.position.set(0, 0, 1);
  scene.add(sky);
  const head = new DirectionalLight(0xffffff, 1.6);
  scene.add(head, head.target);

  // 2. The renderer, if the browser has WebGL.
  let renderer: WebGLRenderer | undefined;
  const canvas = document.createElement('canvas');
  canvas.className = 'gl';
  try {
    renderer = new WebGLRenderer({ canvas, antialias: options.antialias, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.setScissorTest(true);
    container.prepend(canvas);
  } catch {
    renderer = undefined;
  }

  let controls: OrbitControls | undefined;
  const viewer: Viewer = {
    camera,
    webgl: !!renderer,
    frames: 0,
    target,
    render,
    requestRender,
    setDistance(d) {
      const dir = camera.position.clone().sub(target);
      if (dir.lengthSq() === 0) dir.set(0.6, -1, 0.45);
      dir.normalize();
      camera.position.copy(target).addScaledVector(dir, d);
      syncControls();
    },
    moveTarget(to) {
      const offset = camera.position.clone().sub(target);
      target.copy(to);
      camera.position.copy(to).add(offset);
      syncControls();
    },
    look(direction, d) {
      camera.position.copy(target).addScaledVector(direction.clone().normalize(), d);
      syncControls();
    },
    distance() {
      return camera.position.distanceTo(target);
    },
    finish() {
      // Reading one pixel waits until the GPU (or the software rasteriser) has really drawn the frame.
      const gl = renderer?.getContext();
      gl?.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    },
  };

  function syncControls() {
    if (controls) {
      controls.target.copy(target);
      controls.update();
    }
    camera.lookAt(target);
  }

  // 3. Orbit controls on the main view's element (the canvas itself lets events through).
  controls = new OrbitControls(camera, mainEl);
  controls.target = target;
  controls.minDistance = 1e-4;
  controls.maxDistance = 1e6;
  controls.zoomSpeed = 1.2;
  controls.addEventListener('change', () => {
    hooks.cameraMoved();
    requestRender();
  });

  // On-demand drawing: requests coalesce into one frame, and a frame drawn in between (render()
  // called directly) makes a pending request moot.
  let pending = false;
  let dirty = false;
  function requestRender() {
    dirty = true;
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (dirty) render();
    });
  }

  function setClip(cam: PerspectiveCamera, distance: number, radius: number) {
    cam.near = Math.max(1e-4, Math.min(distance * 0.01, Math.max(distance - radius * 2, distance * 0.001)));
    cam.far = Math.max(distance + radius * 4, distance * 4) + 1;
    cam.updateProjectionMatrix();
  }

  function region(elem: HTMLElement, box: DOMRect) {
    const r = elem.getBoundingClientRect();
    return { x: r.left - box.left, y: box.bottom - r.bottom, w: r.width, h: r.height };
  }

  function drawWith(cam: PerspectiveCamera, rect: { x: number; y: number; w: number; h: number }) {
    if (!renderer || rect.w <= 0 || rect.h <= 0) return;
    cam.aspect = rect.w / rect.h;
    cam.updateProjectionMatrix();
    head.position.copy(cam.position);
    head.target.position.copy(cam.position).add(cam.getWorldDirection(new Vector3()));
    head.target.updateMatrixWorld();
    renderer.setViewport(rect.x, rect.y, rect.w, rect.h);
    renderer.setScissor(rect.x, rect.y, rect.w, rect.h);
    renderer.render(scene, cam);
  }

  let drawnSize = '';
  function render() {
    dirty = false;
    const frame = hooks.paneFrame();
    // 1. Size the canvas to its container.
    const box = container.getBoundingClientRect();
    if (renderer) {
      const size = renderer.getSize(new Vector2());
      if (size.x !== box.width || size.y !== box.height) renderer.setSize(box.width, box.height, false);
      canvas.style.width = `${box.width}px`;
      canvas.style.height = `${box.height}px`;
    }
    drawnSize = `${box.width}x${box.height}`;
    // 2. Main view: each object at the LOD its distance selects.
    hooks.prepareMain();
    camera.lookAt(target);
    setClip(camera, camera.position.distanceTo(target), frame.radius + target.distanceTo(frame.centre));
    drawWith(camera, region(mainEl, box));
    // 3. Panes: the linkset at each LOD, from the main camera's direction, framed to fit.
    const dir = camera.position.clone().sub(target);
    if (dir.lengthSq() === 0) dir.set(0.6, -1, 0.45);
    dir.normalize();
    const fit = frame.radius / Math.sin(((PANE_FOV / 2) * Math.PI) / 180);
    for (const slot of LOD_NAMES) {
      hooks.preparePane(slot);
      const rect = region(paneEls[slot], box);
      const aspect = rect.h > 0 ? rect.w / rect.h : 1;
      const d = (aspect < 1 ? fit / aspect : fit) * 1.05;
      paneCamera.position.copy(frame.centre).addScaledVector(dir, d);
      paneCamera.lookAt(frame.centre);
      setClip(paneCamera, d, frame.radius);
      drawWith(paneCamera, rect);
    }
    viewer.frames++;
    hooks.afterRender();
  }

  new ResizeObserver(() => {
    const box = container.getBoundingClientRect();
    if (`${box.width}x${box.height}` !== drawnSize) requestRender();
  }).observe(container);
  return viewer;
}
