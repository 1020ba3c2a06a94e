/**
 * The JSON chunk of a GLB, read and replaced (the BIN chunk kept as it is). Shared by the fuzz
 * harness's mutations and scripts/held-out-glb.mjs.
 */

const GLB_MAGIC = 0x46546c67;
const JSON_CHUNK = 0x4e4f534a;

/** Whether `bytes` start as a GLB whose first chunk is JSON. */
export function isGlbWithJson(bytes) {
  if (bytes.length < 20) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return v.getUint32(0, true) === GLB_MAGIC && v.getUint32(16, true) === JSON_CHUNK;
}

/** A GLB's JSON chunk as text, and the bytes after it. */
export function glbParts(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = v.getUint32(12, true);
  return { json: new TextDecoder().decode(bytes.subarray(20, 20 + jsonLen)), rest: bytes.subarray(20 + jsonLen) };
}

/** The GLB with its JSON chunk replaced by `text` (space-padded to 4 bytes), version 2. */
export function withGlbJson(bytes, text) {
  const body = new TextEncoder().encode(text);
  const padded = new Uint8Array(body.length + ((4 - (body.length % 4)) % 4)).fill(0x20);
  padded.set(body);
  const rest = glbParts(bytes).rest;
  const out = new Uint8Array(20 + padded.length + rest.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, GLB_MAGIC, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, out.length, true);
  v.setUint32(12, padded.length, true);
  v.setUint32(16, JSON_CHUNK, true);
  out.set(padded, 20);
  out.set(rest, 20 + padded.length);
  return out;
}

/** The GLB with its JSON parsed, changed in place by `edit`, and written back. */
export function editGlbJson(bytes, edit) {
  const json = JSON.parse(glbParts(bytes).json);
  edit(json);
  return withGlbJson(bytes, JSON.stringify(json));
}
