/**
 * A minimal PNG reader for the browser tests' screenshots (8-bit RGB / RGBA, not interlaced,
 * as Chromium writes them): enough to count pixels in a region.
 */

import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  rgba: Uint8Array;
}

export function decodePng(png: Uint8Array): Image {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(0) !== 0x89504e47) throw new Error('not a PNG');
  let width = 0,
    height = 0,
    colourType = 0;
  const idat: Uint8Array[] = [];
  for (let o = 8; o < png.length; ) {
    const len = view.getUint32(o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const body = png.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      const h = new DataView(body.buffer, body.byteOffset, body.byteLength);
      width = h.getUint32(0);
      height = h.getUint32(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit non-interlaced PNGs');
      colourType = body[9];
    } else if (type === 'IDAT') idat.push(body);
    o += 12 + len;
  }
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  if (!channels) throw new Error(`PNG colour type ${colourType} not supported`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      out.set(
        [cur[x * channels], cur[x * channels + 1], cur[x * channels + 2], channels === 4 ? cur[x * channels + 3] : 255],
        (y * width + x) * 4,
      );
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** Pixels whose colour is within `tolerance` (per channel) of `rgb`. */
export function countColour(img: Image, rgb: [number, number, number], tolerance: number): number {
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    if (
      Math.abs(img.rgba[i] - rgb[0]) <= tolerance &&
      Math.abs(img.rgba[i + 1] - rgb[1]) <= tolerance &&
      Math.abs(img.rgba[i + 2] - rgb[2]) <= tolerance
    )
      n++;
  }
  return n;
}

/** Distinct colours (quantised to 5 bits per channel) and the share of the most common one. */
export function colourStats(img: Image): { distinct: number; dominantShare: number } {
  const counts = new Map<number, number>();
  for (let i = 0; i < img.rgba.length; i += 4) {
    const key = ((img.rgba[i] >> 3) << 10) | ((img.rgba[i + 1] >> 3) << 5) | (img.rgba[i + 2] >> 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = img.rgba.length / 4;
  return { distinct: counts.size, dominantShare: Math.max(...counts.values()) / total };
}
