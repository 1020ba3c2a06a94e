/**
 * node:zlib as the DeflateFn / InflateFn that core takes (zlib RFC 1950 wrapper, as the viewer's
 * zip_llsd / unzip_llsd use).
 */

import { deflateSync, inflateSync } from 'node:zlib';
import type { DeflateFn, InflateFn } from '@slmesh/core';

export const nodeDeflate: DeflateFn = (data, level) => new Uint8Array(deflateSync(data, { level }));
export const nodeInflate: InflateFn = (data) => new Uint8Array(inflateSync(data));
