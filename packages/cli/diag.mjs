globalThis.DBG = 1;
import { readModelFile } from '@slmesh/gltf-plugin/node';
import { avatarOpenings, convexHull, lodTriangles, lodBox } from '@slmesh/core';
import { primUpAxis } from '/work/main/packages/core/dist/physics/build-physics.js';
const [file, k = '1', h] = process.argv.slice(2);
const { model } = await readModelFile(file, { siblings: false });
for (const o of model.objects) {
  const t = lodTriangles(o.lods.high);
  const s = +k;
  const p = t.positions.map((v) => v * s);
  const box = lodBox(o.lods.high);
  const up = primUpAxis(o);
  const r = avatarOpenings(p, t.indices, [convexHull(p).points], { up, ...(h ? { height: +h } : {}) });
  console.log(o.name, 'up', up, 'box', box.min.map((v) => (v * s).toFixed(2)), box.max.map((v) => (v * s).toFixed(2)), JSON.stringify(r));
}
