/**
 * The --serve server: 127.0.0.1 only, the page and its version, Server-Sent Events on a new
 * version or a failed re-run, foreign Host headers and other methods refused, and close()
 * really stops it.
 */

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startPreviewServer, type PreviewServer } from '../../src/preview/server.js';

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type'] ?? '') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the event stream and collects events until `count` have arrived. */
function events(port: number, count: number): Promise<{ event: string; data: unknown }[]> {
  return new Promise((resolve, reject) => {
    const got: { event: string; data: unknown }[] = [];
    const req = request({ host: '127.0.0.1', port, path: '/events' }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) got.push({ event, data: JSON.parse(data) });
          if (got.length >= count) {
            req.destroy();
            resolve(got);
          }
        }
      });
    });
    req.on('error', (e) => (got.length >= count ? undefined : reject(e)));
    req.end();
  });
}

let server: PreviewServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('preview server', () => {
  it('serves the page and its version on 127.0.0.1 at a free port', async () => {
    server = await startPreviewServer({ html: '<!doctype html><p>one', version: 1 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.port).toBeGreaterThan(0);
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain('one');
    expect(JSON.parse((await get(server.port, '/version')).body)).toEqual({ version: 1 });
    expect((await get(server.port, '/nothing')).status).toBe(404);
  });

  it('pushes the current version, then new versions and failures, over /events', async () => {
    server = await startPreviewServer({ html: 'v1', version: 1 });
    const s = server;
    const stream = events(s.port, 3);
    await new Promise((r) => setTimeout(r, 100));
    s.setPage('v2', 2);
    s.notifyError('model.glb: truncated GLB');
    expect(await stream).toEqual([
      { event: 'version', data: { version: 1 } },
      { event: 'version', data: { version: 2 } },
      { event: 'failed', data: { message: 'model.glb: truncated GLB' } },
    ]);
    expect((await get(s.port, '/')).body).toBe('v2');
  });

  it('refuses another Host (DNS rebinding) and other methods', async () => {
    server = await startPreviewServer({ html: 'x', version: 1 });
    expect((await get(server.port, '/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(server.port, '/', { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await get(server.port, '/', {}, 'POST')).status).toBe(405);
  });

  it('says which port is taken, and stops listening on close', async () => {
    server = await startPreviewServer({ html: 'x', version: 1 });
    const port = server.port;
    await expect(startPreviewServer({ html: 'y', version: 1 }, { port })).rejects.toThrow(
      `--port ${port}: 127.0.0.1:${port} is already in use`,
    );
    await server.close();
    server = undefined;
    await expect(get(port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});
