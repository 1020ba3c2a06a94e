/**
 * `pnpm bench optimize-speed`: the CPU time and memory of `slmesh optimize --physics hull` on
 * real Blender models, against gltfpack in the same run.
 *
 *   1. a 252k-triangle Suzanne (Blender's monkey, subdivision surface level 4, smooth, UVs),
 *      each run followed by `gltfpack -si 0.25` on the same file, with every gltfpack installed
 *      (npm's WASM build and Debian's native one: gltfpack-peers.mjs): 7 rounds, CPU time (user
 *      + sys of the child, from /usr/bin/time), median of the per-round ratios; target at most 3x;
 *   2. a 1M-triangle Suzanne (level 5), one run with `--physics hull` and one with the defaults
 *      (auto physics): CPU time, wall time and peak memory; target under 60 s and 2 GB;
 *   2b. the same 1M Suzanne left flat-shaded (every corner its own vertex), defaults;
 *   3. 1M triangles in 800 parts (Blender icospheres of 1,280 triangles, 1 m apart in a 10 x 10 x
 *      8 stack), one run with the defaults: the same figures (more parts than a linkset holds, so
 *      the parts are also planned joined into one);
 *   3b. 1M triangles in 3,200 parts (icospheres of 320 triangles, 1 m apart in a 15 x 15 x 15
 *      stack, 3,200 of its places filled), one run with the defaults: each part has hundreds
 *      overhead, which the physics opening test looks at;
 *   4. 1M triangles in 4 distinct parts (four flat-shaded level-4 Suzannes, each stretched along x
 *      by its own factor), defaults against `--jobs 1`: the distinct parts planned on worker
 *      threads against one after the other, the files compared byte for byte.
 *
 * The models are made by Blender (`blender -b --factory-startup --python`) when it is installed;
 * without it the benchmark says so and stops.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gltfpackPeers } from './gltfpack-peers.mjs';

const BLENDER = '/usr/bin/blender';
const TIME = '/usr/bin/time';
/** Rounds on the 252k model: this shared machine's CPU time moves by a fifth from run to run, so an odd number, enough for a median. */
const ROUNDS = 7;

const SUZANNE_PY = `
import bpy, sys
args = sys.argv[sys.argv.index('--') + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.mesh.primitive_monkey_add(size=2)
o = bpy.context.active_object
o.name = 'Suzanne'
m = o.modifiers.new('sub', 'SUBSURF'); m.levels = int(args[1]); m.render_levels = int(args[1])
if len(args) < 3 or args[2] != 'flat':
  bpy.ops.object.shade_smooth()
bpy.ops.export_scene.gltf(filepath=args[0], export_format='GLB', export_apply=True)
`;

// One icosphere made, the others copies of it with their own mesh (as many primitive_ico_sphere_add
// calls make, byte for byte, in seconds instead of minutes).
const BALLS_PY = `
import bpy, sys, math
args = sys.argv[sys.argv.index('--') + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
n = int(args[1]); sub = int(args[2]); k = int(math.ceil(n ** (1 / 3))); i = 0
bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=sub, radius=0.4, location=(0, 0, 0))
first = bpy.context.active_object
for x in range(k):
  for y in range(k):
    for z in range(k):
      if i < n:
        o = first
        if i > 0:
          o = first.copy()
          o.data = first.data.copy()
          bpy.context.collection.objects.link(o)
        o.location = (x, y, z)
        i += 1
bpy.ops.export_scene.gltf(filepath=args[0], export_format='GLB', export_apply=True)
`;

const SUZANNES_PY = `
import bpy, sys
args = sys.argv[sys.argv.index('--') + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
for i in range(int(args[1])):
  bpy.ops.mesh.primitive_monkey_add(size=2, location=(3 * i, 0, 0))
  o = bpy.context.active_object
  o.name = 'Suzanne%d' % i
  o.scale = (1 + 0.25 * i, 1, 1)
  m = o.modifiers.new('sub', 'SUBSURF'); m.levels = 4; m.render_levels = 4
bpy.ops.export_scene.gltf(filepath=args[0], export_format='GLB', export_apply=True)
`;

/** Runs a command under /usr/bin/time: its CPU seconds (user + sys), wall seconds and peak RSS (MiB). */
function timed(cmd, args) {
  const r = spawnSync(TIME, ['-f', 'TIME %U %S %e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = (
    r.stderr
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('TIME ')) ?? ''
  ).split(' ');
  if (r.status !== 0 || line.length < 5) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr.slice(-500)}`);
  return { cpu: +line[1] + +line[2], wall: +line[3], rssMiB: +line[4] / 1024, stdout: r.stdout };
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

export async function run({ root, log }) {
  if (!existsSync(BLENDER) || !existsSync(TIME)) {
    return {
      title: 'optimize speed: slmesh vs gltfpack on Blender models',
      markdown: `Blender (${BLENDER}) or ${TIME} is missing on this machine: no run.`,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'slmesh-bench-speed-'));
  const script = join(dir, 'suzanne.py');
  writeFileSync(script, SUZANNE_PY);
  const balls = join(dir, 'balls.py');
  writeFileSync(balls, BALLS_PY);
  const suzannes = join(dir, 'suzannes.py');
  writeFileSync(suzannes, SUZANNES_PY);
  const make = (level, name, py = script, ...more) => {
    const out = join(dir, name);
    const r = spawnSync(BLENDER, ['-b', '--factory-startup', '--python', py, '--', out, String(level), ...more], {
      encoding: 'utf8',
    });
    if (!existsSync(out)) throw new Error(`blender failed: ${r.stderr.slice(-500)}`);
    return out;
  };
  const blender = (spawnSync(BLENDER, ['--version'], { encoding: 'utf8' }).stdout ?? '').split('\n')[0].trim();
  const bin = join(root, 'packages/cli/dist/bin.js');
  const peers = gltfpackPeers(root);

  // 1. 252k: rounds of slmesh then each gltfpack.
  const s252 = make(4, 'suzanne-252k.glb');
  const rounds = [];
  let line252 = '';
  for (let i = 0; i < ROUNDS; i++) {
    const sl = timed(process.execPath, [bin, 'optimize', s252, '-o', join(dir, 'out.glb'), '--physics', 'hull']);
    const gp = peers.map((p) => timed(p.cmd, ['-si', '0.25', '-i', s252, '-o', join(dir, 'gp.glb')]));
    rounds.push({ sl, gp });
    line252 = sl.stdout.split('\n').find((l) => l.startsWith('Suzanne')) ?? '';
    log(
      `252k round ${i + 1}: slmesh ${sl.cpu.toFixed(2)} s CPU; ${peers.map((p, k) => `gltfpack ${p.key} ${gp[k].cpu.toFixed(2)} s: ${(sl.cpu / gp[k].cpu).toFixed(2)}x`).join('; ')}`,
    );
  }
  const li252 = (rounds[0].sl.stdout.match(/land impact\s+(.*)/) ?? [])[1] ?? '';

  // 2. 1M: one run.
  const s1m = make(5, 'suzanne-1m.glb');
  const big = timed(process.execPath, [bin, 'optimize', s1m, '-o', join(dir, 'out1m.glb'), '--physics', 'hull']);
  const line1m = big.stdout.split('\n').find((l) => l.startsWith('Suzanne')) ?? '';
  const li1m = (big.stdout.match(/land impact\s+(.*)/) ?? [])[1] ?? '';
  log(`1M: ${big.cpu.toFixed(1)} s CPU, ${big.wall.toFixed(1)} s wall, ${big.rssMiB.toFixed(0)} MiB`);
  const auto1m = timed(process.execPath, [bin, 'optimize', s1m, '-o', join(dir, 'auto1m.glb')]);
  log(`1M defaults: ${auto1m.cpu.toFixed(1)} s CPU, ${auto1m.wall.toFixed(1)} s wall, ${auto1m.rssMiB.toFixed(0)} MiB`);
  // 2b. The same 1M Suzanne left flat-shaded (no shade_smooth, as primitive_monkey_add makes it):
  //     every corner its own vertex on a normal seam, so nothing collapses keeping the normals.
  const flat1m = make(5, 'suzanne-1m-flat.glb', script, 'flat');
  const flat = timed(process.execPath, [bin, 'optimize', flat1m, '-o', join(dir, 'flat1m.glb')]);
  const lineFlat = flat.stdout.split('\n').find((l) => l.startsWith('Suzanne')) ?? '';
  const liFlat = (flat.stdout.match(/land impact\s+(.*)/) ?? [])[1] ?? '';
  log(`1M flat defaults: ${flat.cpu.toFixed(1)} s CPU, ${flat.wall.toFixed(1)} s wall, ${flat.rssMiB.toFixed(0)} MiB`);
  // 3. 1M in 800 parts: one run, defaults.
  const parts = make(800, 'balls-800.glb', balls, '4');
  const many = timed(process.execPath, [bin, 'optimize', parts, '-o', join(dir, 'balls.glb')]);
  const liMany = (many.stdout.match(/land impact\s+(.*)/) ?? [])[1] ?? '';
  log(`800 parts: ${many.cpu.toFixed(1)} s CPU, ${many.wall.toFixed(1)} s wall, ${many.rssMiB.toFixed(0)} MiB`);
  // 3b. 1M in 3,200 smaller parts stacked 15 high: each part has hundreds of others overhead.
  const stack = make(3200, 'balls-3200.glb', balls, '3');
  const stacked = timed(process.execPath, [bin, 'optimize', stack, '-o', join(dir, 'stack.glb')]);
  const liStacked = (stacked.stdout.match(/land impact\s+(.*)/) ?? [])[1] ?? '';
  log(
    `3200 parts: ${stacked.cpu.toFixed(1)} s CPU, ${stacked.wall.toFixed(1)} s wall, ${stacked.rssMiB.toFixed(0)} MiB`,
  );
  // 4. 1M in 4 distinct parts: worker threads (the default) against --jobs 1, the same files.
  const four = make(4, 'suzannes-4.glb', suzannes);
  const oneThread = timed(process.execPath, [bin, 'optimize', four, '-o', join(dir, 'four1.glb'), '--jobs', '1']);
  const threads = timed(process.execPath, [bin, 'optimize', four, '-o', join(dir, 'fourN.glb')]);
  const sameFiles = ['', '_LOD2', '_LOD1', '_LOD0', '_PHYS'].every((x) => {
    const [a, b] = [join(dir, `four1${x}.glb`), join(dir, `fourN${x}.glb`)];
    return existsSync(a) === existsSync(b) && (!existsSync(a) || readFileSync(a).equals(readFileSync(b)));
  });
  log(
    `4 distinct parts: --jobs 1 ${oneThread.wall.toFixed(1)} s wall; default ${threads.wall.toFixed(1)} s wall; same files: ${sameFiles}`,
  );
  rmSync(dir, { recursive: true, force: true });
  const figures = (t) =>
    `**${t.cpu.toFixed(1)} s CPU**, ${t.wall.toFixed(1)} s wall, **${t.rssMiB.toFixed(0)} MiB** peak`;

  const md = [];
  md.push(
    `Models made by ${blender || 'Blender'}: Suzanne (\`primitive_monkey_add\`), subdivision surface level 4 (251,904 triangles) and level 5 (1,007,616 triangles), smooth shading, UVs, exported as GLB. Physics: \`--physics hull\` (the single hull; this branch's physics code). CPU time = user + sys of the child process (\`/usr/bin/time\`), which is what a shared machine can measure fairly; peak memory = max RSS.`,
  );
  md.push('');
  md.push(
    `| run | slmesh CPU | ${peers.map((p) => `gltfpack (${p.key}) CPU | ratio`).join(' | ')} | slmesh wall | slmesh peak memory |`,
  );
  md.push(`|---|---:|${peers.map(() => '---:|---:|').join('')}---:|---:|`);
  rounds.forEach((r, i) =>
    md.push(
      `| 252k round ${i + 1} | ${r.sl.cpu.toFixed(2)} s | ${r.gp.map((g) => `${g.cpu.toFixed(2)} s | ${(r.sl.cpu / g.cpu).toFixed(2)}x`).join(' | ')} | ${r.sl.wall.toFixed(2)} s | ${r.sl.rssMiB.toFixed(0)} MiB |`,
    ),
  );
  md.push('');
  md.push(
    `\`slmesh optimize suzanne-252k.glb -o out.glb --physics hull\` against \`gltfpack -si 0.25 -i suzanne-252k.glb -o gp.glb\` (one simplification to 25 %), median of the ${ROUNDS} per-round ratios of CPU time (target: at most 3x): ${peers.map((p, k) => `**${median(rounds.map((r) => r.sl.cpu / r.gp[k].cpu)).toFixed(2)}x** ${p.version} (${p.label}; median ${median(rounds.map((r) => r.gp[k].cpu)).toFixed(2)} s)`).join(', ') || 'no gltfpack installed'}. Issue #11's baseline (gltfpack 0.23 s on this model) matches the native build.`,
  );
  md.push('');
  md.push(
    `slmesh's LODs: \`${line252.trim().replace(/\s+/g, ' ')}\` (object, input, high, medium, low, lowest triangles with their screen-space errors); land impact ${li252.trim()}.`,
  );
  md.push('');
  md.push(
    `1M triangles, \`slmesh optimize suzanne-1m.glb -o out.glb --physics hull\`: ${figures(big)} (target: under 60 s and 2 GB). LODs: \`${line1m.trim().replace(/\s+/g, ' ')}\`; land impact ${li1m.trim()}. With the defaults (auto physics), \`slmesh optimize suzanne-1m.glb -o out.glb\`: ${figures(auto1m)}.`,
  );
  md.push('');
  md.push(
    `The same 1M Suzanne left flat-shaded (no \`shade_smooth\`: every corner its own vertex on a normal seam, 2M vertices), \`slmesh optimize suzanne-1m-flat.glb -o out.glb\` (defaults): ${figures(flat)} (target: under 60 s and 2 GB). LODs: \`${lineFlat.trim().replace(/\s+/g, ' ')}\`; land impact ${liFlat.trim()}.`,
  );
  md.push('');
  md.push(
    `1M triangles in 800 parts (Blender icospheres, subdivisions 4, 0.8 m wide, 1 m apart in a 10 x 10 x 8 stack; 1,024,000 triangles), \`slmesh optimize balls-800.glb -o out.glb\` (defaults; 800 parts are more than a linkset holds, so they are planned joined into one too, and kept apart here): ${figures(many)}; land impact ${liMany.trim()}.`,
  );
  md.push('');
  md.push(
    `1M triangles in 3,200 parts (Blender icospheres, subdivisions 3, 0.8 m wide, 1 m apart in a 15 x 15 x 15 stack; 1,024,000 triangles), \`slmesh optimize balls-3200.glb -o out.glb\` (defaults; every part has up to 13 storeys of others overhead, and auto's opening test looks at those): ${figures(stacked)}; land impact ${liStacked.trim()}.`,
  );
  md.push('');
  md.push(
    `1M triangles in 4 distinct parts (four flat-shaded level-4 Suzannes, each stretched along x by its own factor; 1,007,616 triangles), \`slmesh optimize suzannes-4.glb -o out.glb --jobs 1\` (one part after the other): ${figures(oneThread)}; with the defaults (the distinct parts on ${Math.min(availableParallelism(), 4)} worker threads at most, at most 600,000 triangles of parts at once): ${figures(threads)}; the same five files: ${sameFiles ? 'yes' : '**no**'}.`,
  );
  return { title: 'optimize speed: slmesh vs gltfpack on Blender models', markdown: md.join('\n') };
}
