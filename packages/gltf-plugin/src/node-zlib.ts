/**
 * node:zlib as the InflateFn that core takes (zlib RFC 1950 wrapper, as the viewer's unzip_llsd).
 *
 * Inflating only: blocks are compressed (and so priced) with core's zlibNgDeflate, which gives
 * the bytes of the viewer's zlib-ng; node:zlib's deflate (Chromium's zlib) made the bundled test
 * assets' blocks 7.8% larger in total (from 1% smaller to 21% larger per block) and so
 * overestimated the download weight (issue #16); it is no longer offered.
 */

import { inflateSync } from 'node:zlib';
import type { InflateFn } from '@slmesh/core';

export const nodeInflate: InflateFn = (data) => new Uint8Array(inflateSync(data));
