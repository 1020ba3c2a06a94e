/**
 * The local server of `slmesh preview --serve`: serves the current page on 127.0.0.1 only, and
 * tells open pages when a new version is ready (Server-Sent Events on /events; /version for
 * polling), so a page reloads itself after each re-export.
 *
 * Routes: GET / (the page), GET /version ({"version": n}), GET /events (text/event-stream:
 * `version` events {"version": n}, `failed` events {"message": "..."} when a re-run fails).
 * Requests whose Host header is not this server's own address are refused (DNS rebinding), and
 * only GET and HEAD are served.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlmeshError } from '@slmesh/core';

export const PREVIEW_HOST = '127.0.0.1';
/** Path of the event stream (the page reads it from its data). */
export const PREVIEW_EVENTS_PATH = '/events';

export interface PreviewServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  port: number;
  /** Serve a new page; open pages get a `version` event and reload. */
  setPage(html: string, version: number): void;
  /** Tell open pages a re-run failed (they show the message and keep the last good page). */
  notifyError(message: string): void;
  /** Stop serving: ends every event stream and closes the socket. */
  close(): Promise<void>;
}

export interface PreviewServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
}

const KEEPALIVE_MS = 15_000;

export async function startPreviewServer(
  initial: { html: string; version: number },
  options: PreviewServerOptions = {},
): Promise<PreviewServer> {
  let page = initial;
  const streams = new Set<ServerResponse>();
  let port = options.port ?? 0;

  const send = (res: ServerResponse, event: string, data: unknown) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    // 1. Only this server's own host name (no DNS rebinding), only GET / HEAD.
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `${PREVIEW_HOST}:${port}` && host !== `localhost:${port}`) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('forbidden host\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('method not allowed\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const common = {
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    // 2. The routes.
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : page.html);
    } else if (path === '/version') {
      res.writeHead(200, { ...common, 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ version: page.version }));
    } else if (path === PREVIEW_EVENTS_PATH && req.method === 'GET') {
      res.writeHead(200, { ...common, 'content-type': 'text/event-stream', connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      send(res, 'version', { version: page.version });
      streams.add(res);
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      res.on('close', () => {
        clearInterval(keepalive);
        streams.delete(res);
      });
    } else {
      res.writeHead(404, { ...common, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    }
  };

  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const where = `${PREVIEW_HOST}:${port}`;
      if (e.code === 'EADDRINUSE') reject(new SlmeshError('USAGE', `--port ${port}: ${where} is already in use`));
      else if (e.code === 'EACCES')
        reject(new SlmeshError('USAGE', `--port ${port}: not allowed to listen on ${where}`));
      else reject(e);
    });
    server.listen(port, PREVIEW_HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${PREVIEW_HOST}:${port}/`,
    port,
    setPage(html, version) {
      page = { html, version };
      for (const res of streams) send(res, 'version', { version });
    },
    notifyError(message) {
      for (const res of streams) send(res, 'failed', { message });
    },
    close() {
      for (const res of streams) res.end();
      streams.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
