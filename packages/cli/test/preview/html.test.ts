/**
 * The page's HTML: data that cannot close its <script> element, a Content-Security-Policy that
 * admits exactly the page's own script and style, and no model text outside the JSON.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeJsonForScript, previewHtml } from '../../src/preview/html.js';

const HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script><!-- \u2028\u2029 & >';

describe('escapeJsonForScript', () => {
  it('leaves no <, >, & or line separators, and parses back to the same value', () => {
    const json = JSON.stringify({ name: HOSTILE, nested: [HOSTILE] });
    const safe = escapeJsonForScript(json);
    expect(safe).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(safe)).toEqual({ name: HOSTILE, nested: [HOSTILE] });
  });
});

describe('previewHtml', () => {
  const app = { js: 'console.log("app")', css: 'body{margin:0}' };
  const html = previewHtml({ dataJson: JSON.stringify({ name: HOSTILE }), geometryBase64: 'AAEC', app });

  it('keeps the hostile name inside the JSON element, escaped', () => {
    expect(html).not.toContain('</script><script>alert(2)');
    expect(html).not.toContain('<img');
    // Exactly the three script elements the page has, each closed once.
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const data = html.match(/<script type="application\/json" id="slmesh-data">([\s\S]*?)<\/script>/)![1];
    expect(JSON.parse(data).name).toBe(HOSTILE);
  });

  it('allows only the page’s own script and style by hash', () => {
    const csp = html.match(/Content-Security-Policy" content="([^"]*)"/)![1];
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(app.js)}`);
    expect(csp).toContain(`style-src ${hash(app.css)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('refuses a script that would end its element, and geometry that is not base64', () => {
    expect(() => previewHtml({ dataJson: '{}', geometryBase64: 'AA', app: { js: 'x="</script>"', css: '' } })).toThrow(
      /end its element/,
    );
    expect(() => previewHtml({ dataJson: '{}', geometryBase64: '<b>', app })).toThrow(/base64/);
  });
});
