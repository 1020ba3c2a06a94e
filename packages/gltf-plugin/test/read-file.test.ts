import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SlmeshError } from '@slmesh/core';
import { describe, expect, it } from 'vitest';
import { checkUris, parseGltfJson, readModelFile } from '../src/read-file.js';

const dir = mkdtempSync(join(tmpdir(), 'slmesh-read-'));
const json = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

function glb(jsonText: string, declaredLength?: number): Uint8Array {
  const body = new TextEncoder().encode(jsonText);
  const pad = (4 - (body.length % 4)) % 4;
  const jsonLen = body.length + pad;
  const total = 12 + 8 + jsonLen;
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, declaredLength ?? total, true);
  v.setUint32(12, jsonLen, true);
  v.setUint32(16, 0x4e4f534a, true);
  out.set(body, 20);
  out.fill(0x20, 20 + body.length);
  return out;
}

const expectError = (fn: () => unknown, code: string, text: RegExp) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SlmeshError);
    expect((e as SlmeshError).code).toBe(code);
    expect((e as SlmeshError).message).toMatch(text);
    expect((e as SlmeshError).message).not.toContain('\n');
    return;
  }
  throw new Error('expected an error');
};

describe('parseGltfJson', () => {
  it('reads the JSON chunk of a GLB and plain .gltf JSON', () => {
    expect(parseGltfJson('a.glb', glb('{"asset":{"version":"2.0"}}')).glb).toBe(true);
    expect(parseGltfJson('a.gltf', json({ asset: { version: '2.0' } })).glb).toBe(false);
  });
  it('names the file and the problem for broken input', () => {
    expectError(() => parseGltfJson('x.glb', glb('{"asset":')), 'INPUT_UNREADABLE', /^x\.glb: .*does not parse/);
    expectError(() => parseGltfJson('x.glb', glb('{"asset":{}}', 9999)), 'INPUT_UNREADABLE', /^x\.glb: truncated GLB/);
    expectError(
      () => parseGltfJson('x.glb', glb('{"asset":{}}').subarray(0, 16)),
      'INPUT_UNREADABLE',
      /^x\.glb: truncated GLB/,
    );
    expectError(
      () => parseGltfJson('x.glb', new TextEncoder().encode('hello')),
      'INPUT_UNREADABLE',
      /^x\.glb: not a glTF/,
    );
    expectError(() => parseGltfJson('x.gltf', json({ foo: 1 })), 'INPUT_UNREADABLE', /no "asset"/);
  });
  it('says a glTF 1.0 file is glTF 1.0 and how to get 2.0, instead of tripping over its types', () => {
    expectError(
      () => parseGltfJson('old.gltf', json({ asset: { version: '1.0' }, buffers: { b: {} } })),
      'INPUT_UNREADABLE',
      /^old\.gltf: glTF 1\.0; slmesh reads glTF 2\.0: convert it to glTF 2\.0 first/,
    );
    expectError(
      () => parseGltfJson('old.gltf', json({ asset: { version: 1 } })),
      'INPUT_UNREADABLE',
      /^old\.gltf: glTF 1; slmesh reads glTF 2\.0/,
    );
    // No version, but 1.0's collections keyed by id.
    expectError(
      () => parseGltfJson('old.gltf', json({ asset: { generator: 'collada2gltf' }, meshes: { m: {} } })),
      'INPUT_UNREADABLE',
      /^old\.gltf: glTF 1\.0 \(collections keyed by id\); slmesh reads glTF 2\.0/,
    );
    const v1 = glb('{"asset":{"version":"1.0"}}');
    new DataView(v1.buffer).setUint32(4, 1, true);
    expectError(
      () => parseGltfJson('old.glb', v1),
      'INPUT_UNREADABLE',
      /^old\.glb: GLB version 1 \(glTF 1\.0\); slmesh reads glTF 2\.0/,
    );
    expect(parseGltfJson('new.gltf', json({ asset: { version: '2.1' } })).glb).toBe(false);
    expect(parseGltfJson('new.gltf', json({ asset: {} })).glb).toBe(false);
  });
});

describe('checkUris', () => {
  const check = (uri: string) => () => checkUris(join(dir, 'm.gltf'), { asset: {}, buffers: [{ uri }] });
  it('allows data URIs and paths inside the folder', () => {
    expect(check('data:application/octet-stream;base64,AAAA')).not.toThrow();
    expect(check('bin/m.bin')).not.toThrow();
    expect(check('m%20copy.bin')).not.toThrow();
  });
  it('rejects escapes, absolute paths and network schemes', () => {
    expectError(check('../secret.bin'), 'INPUT_UNSAFE', /outside the model's folder/);
    expectError(check('a/../../secret.bin'), 'INPUT_UNSAFE', /outside/);
    expectError(check('%2e%2e/secret.bin'), 'INPUT_UNSAFE', /outside/);
    expectError(check('/etc/passwd'), 'INPUT_UNSAFE', /absolute path/);
    expectError(check('https://example.com/m.bin'), 'INPUT_UNSAFE', /URL scheme/);
    expectError(check('file:///etc/passwd'), 'INPUT_UNSAFE', /URL scheme/);
    expectError(
      () => checkUris(join(dir, 'm.gltf'), { asset: {}, images: [{ uri: 'C:\\x.png' }] }),
      'INPUT_UNSAFE',
      /images\[0\]\.uri .* is an absolute Windows path/,
    );
    // Drive paths as exporters leave them (assimp's test models: D:\projects\..., Q:/ASSIMP/...).
    expectError(check('Q:/ASSIMP/models/earth.jpg'), 'INPUT_UNSAFE', /absolute Windows path/);
    expectError(check('c:x.bin'), 'INPUT_UNSAFE', /URL scheme/);
  });
});

describe('readModelFile', () => {
  it('fails with a one-line SlmeshError for a missing file', async () => {
    await expect(readModelFile(join(dir, 'nope.glb'))).rejects.toMatchObject({
      code: 'INPUT_UNREADABLE',
      message: expect.stringMatching(/nope\.glb: no such file/),
    });
  });
  it('refuses a .gltf whose buffer escapes its folder before reading anything', async () => {
    const p = join(dir, 'evil.gltf');
    writeFileSync(
      p,
      JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: '../../../../etc/passwd', byteLength: 10 }] }),
    );
    await expect(readModelFile(p)).rejects.toMatchObject({ code: 'INPUT_UNSAFE' });
  });
  it('names a required extension it cannot read (KHR_technique_webgl), and never prints an odd name', async () => {
    const write = (name: string, required: unknown) => {
      const p = join(dir, name);
      writeFileSync(p, JSON.stringify({ asset: { version: '2.0' }, extensionsUsed: [], extensionsRequired: required }));
      return p;
    };
    await expect(readModelFile(write('technique.gltf', ['KHR_technique_webgl']))).rejects.toMatchObject({
      code: 'INPUT_UNREADABLE',
      message: expect.stringMatching(/technique\.gltf: .*requires the extension KHR_technique_webgl, which slmesh/),
    });
    const odd = readModelFile(write('odd.gltf', ['KHR_x\n../../"evil"']));
    await expect(odd).rejects.toMatchObject({ message: expect.stringMatching(/an extension with an odd name/) });
    await expect(odd).rejects.toMatchObject({ message: expect.not.stringMatching(/evil|\n/) });
    // A required extension it reads is no error.
    await expect(readModelFile(write('known.gltf', ['KHR_mesh_quantization']))).resolves.toMatchObject({
      model: { objects: [] },
    });
  });
});
