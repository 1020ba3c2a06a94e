/**
 * The preview's data format has one owner, this package's payload module (exported as
 * `@slmesh/preview/payload`): the CLI writes the page's data with its encoder and declares
 * none of its types or its version itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as cli from '../../cli/src/preview/payload.js';
import * as owner from '../src/payload.js';

describe('the preview payload format', () => {
  it('is declared once: the CLI re-exports the owner and declares no format type or version', () => {
    expect(cli.PREVIEW_FORMAT).toBe(owner.PREVIEW_FORMAT);
    expect(cli.quantise).toBe(owner.quantise);
    const src = readFileSync(join(__dirname, '../../cli/src/preview/payload.ts'), 'utf8');
    expect(src).not.toMatch(
      /export const PREVIEW_FORMAT\s*=|interface (BlobRef|PreviewFace|PreviewObject|PreviewLod)\b|class BlobWriter/,
    );
    const pkg = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8'));
    expect(pkg.exports['./payload'].default).toBe('./dist/lib/payload.js');
    const cliPkg = JSON.parse(readFileSync(join(__dirname, '../../cli/package.json'), 'utf8'));
    expect(cliPkg.dependencies['@slmesh/preview']).toBe('workspace:*');
  });

  it("the owner's encoder and decoder round-trip a blob (deflate injected)", async () => {
    const w = new owner.BlobWriter();
    const ref = w.add(new Float32Array([1.5, -2, 3]), 'f32');
    const text = owner.encodeGeometry(w.bytes(), (d, level) => new Uint8Array(deflateSync(d, { level })));
    const blob = await owner.inflate(owner.base64ToBytes(text));
    expect(Array.from(new Float32Array(blob.buffer, blob.byteOffset + ref.offset, ref.length))).toEqual([1.5, -2, 3]);
  });
});
