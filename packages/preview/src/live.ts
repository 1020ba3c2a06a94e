/**
 * Live reload for pages served by `slmesh preview --serve --watch`: listens to the server's
 * event stream and reloads when a newer version is ready, keeping the view (camera, size, LOD
 * factor, physics shape) across the reload in sessionStorage. A failed re-run is shown, and
 * the page keeps the last good version. Pages opened from a file do nothing here.
 */

export interface ViewState {
  camera: [number, number, number];
  target: [number, number, number];
  lodFactor: number;
  /** Longest side asked about, metres, or null for the model's own size. */
  size: number | null;
  physics: string;
  focus: number;
  wireframe: boolean;
}

const KEY_PREFIX = 'slmesh-preview:';

export function saveViewState(path: string, state: ViewState): void {
  try {
    sessionStorage.setItem(KEY_PREFIX + path, JSON.stringify(state));
  } catch {
    // Storage may be unavailable (privacy settings): the view just starts afresh.
  }
}

export function loadViewState(path: string): ViewState | undefined {
  try {
    const text = sessionStorage.getItem(KEY_PREFIX + path);
    if (!text) return undefined;
    const s = JSON.parse(text) as ViewState;
    const vec = (v: unknown) =>
      Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
    if (!vec(s.camera) || !vec(s.target) || !(s.lodFactor > 0)) return undefined;
    return s;
  } catch {
    return undefined;
  }
}

export interface LiveHandlers {
  /** A newer version is ready: save what should survive the reload. */
  beforeReload(): void;
  /** A re-run failed: show the message. */
  failed(message: string): void;
  /** Connection state, for the header. */
  status(text: string): void;
}

/** Starts listening when the page was served (http) with live data; returns false otherwise. */
export function startLive(live: { version: number; events: string } | undefined, handlers: LiveHandlers): boolean {
  if (!live || !/^https?:$/.test(location.protocol) || typeof EventSource === 'undefined') return false;
  const source = new EventSource(live.events);
  source.addEventListener('version', (ev) => {
    const version = Number((JSON.parse((ev as MessageEvent).data) as { version: unknown }).version);
    if (version > live.version) {
      handlers.status('reloading…');
      handlers.beforeReload();
      source.close();
      location.reload();
    } else {
      handlers.status('live: reloads when the model is re-exported');
    }
  });
  source.addEventListener('failed', (ev) => {
    const message = String((JSON.parse((ev as MessageEvent).data) as { message: unknown }).message);
    handlers.failed(message);
  });
  source.addEventListener('error', () => handlers.status('live: server not reachable, retrying…'));
  return true;
}
