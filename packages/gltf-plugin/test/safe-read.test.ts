/**
 * safe-read.ts: a file is read only when its real path is a regular file inside the root,
 * not hidden, and under the size limit; errors name the file as shown and quote nothing.
 */

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insideRoot, readInside } from '../src/safe-read.js';

const dir = mkdtempSync(join(tmpdir(), 'slmesh-safe-read-'));
const root = join(dir, 'model');
mkdirSync(join(root, 'sub'), { recursive: true });
mkdirSync(join(root, '.git'));
writeFileSync(join(dir, 'secret.txt'), 'SECRET-BYTES');
writeFileSync(join(root, 'a.bin'), 'abcd');
writeFileSync(join(root, 'sub/b.bin'), 'efgh');
writeFileSync(join(root, '.git/config'), 'token');
symlinkSync('sub/b.bin', join(root, 'inside-link.bin'));
symlinkSync(join(dir, 'secret.txt'), join(root, 'out-link.bin'));
symlinkSync(dir, join(root, 'up'));
symlinkSync('/dev/zero', join(root, 'zero.bin'));
const opts = { root, maxBytes: 1024 };

describe('readInside', () => {
  it('reads regular files inside the root, following links that stay inside', async () => {
    expect(new TextDecoder().decode(await readInside(join(root, 'a.bin'), 'a.bin', opts))).toBe('abcd');
    expect(new TextDecoder().decode(await readInside(join(root, 'inside-link.bin'), 'x', opts))).toBe('efgh');
  });

  it('refuses links out of the root, folders linked out, devices, hidden files and big files', async () => {
    await expect(readInside(join(root, 'out-link.bin'), 'out-link.bin', opts)).rejects.toThrow(
      /^out-link\.bin: resolves .* outside the model's folder/,
    );
    await expect(readInside(join(root, 'up/secret.txt'), 'up/secret.txt', opts)).rejects.toThrow(/outside/);
    await expect(readInside(join(root, 'zero.bin'), 'zero.bin', opts)).rejects.toThrow(/outside/);
    await expect(readInside('/dev/zero', 'z', { root: '/dev', maxBytes: 10 })).rejects.toThrow(/not a regular file/);
    await expect(readInside(join(root, '.git/config'), 'c', opts)).rejects.toThrow(/hidden/);
    await expect(readInside(join(root, '.git/config'), 'c', { ...opts, hidden: 'allow' })).rejects.toThrow(/hidden/);
    await expect(readInside(join(root, 'a.bin'), 'a.bin', { root, maxBytes: 3 })).rejects.toThrow(
      /a\.bin: file is 4 bytes, over the 3-byte limit/,
    );
    await expect(readInside(join(root, 'none.bin'), 'none.bin', opts)).rejects.toThrow(/^none\.bin: no such file$/);
  });

  it('never quotes the bytes it refused', async () => {
    for (const p of ['out-link.bin', 'up/secret.txt']) {
      await readInside(join(root, p), p, opts).catch((e: Error) => expect(e.message).not.toContain('SECRET'));
    }
  });
});

describe('insideRoot', () => {
  it('is false for the root itself, its parent and siblings sharing a prefix', () => {
    expect(insideRoot('/a/b', '/a/b')).toBeUndefined();
    expect(insideRoot('/a/b', '/a')).toBeUndefined();
    expect(insideRoot('/a/b', '/a/bc/x')).toBeUndefined();
    expect(insideRoot('/a/b', '/a/b/c/x')).toBe('c/x');
  });
});
