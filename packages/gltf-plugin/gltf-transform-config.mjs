/**
 * A glTF-Transform CLI config that adds slmesh's commands to `gltf-transform`
 * (@gltf-transform/cli, installed separately):
 *
 *   gltf-transform --config node_modules/@slmesh/gltf-plugin/gltf-transform-config.mjs sl-report chair.glb
 *   gltf-transform --config <this file> sl-lods chair.glb chair-sl.glb --max-error-px 1
 *   gltf-transform --config <this file> sl-physics chair-sl.glb chair-sl.glb --mode decompose
 *
 * sl-lods and sl-physics are the slLods() and slPhysics() transforms; they write the output (the
 * high file, the input's node tree) and its sibling files next to it (`chair-sl_LOD2.glb`,
 * `_LOD1`, `_LOD0`; `chair-sl_PHYS.glb`), the only layout the viewer's glTF importer takes LODs
 * and physics from. sl-report prints the cost report of the file and its siblings
 * (docs/cost-report.schema.json) as JSON on stdout, as `slmesh cost --json` does. Dependencies resolve
 * from this package (meshoptimizer, @slmesh/core), not from the folder it is run in.
 */

import { basename, dirname, join } from 'node:path';
import { MeshoptSimplifier } from 'meshoptimizer';
import { makeCostReport, reportFile, siblingFileName, slLods, slPhysics } from './dist/node.js';
import { VERSION } from './dist/version.js';

const SUFFIX_SLOTS = ['medium', 'low', 'lowest', 'physics'];
/** Writes sibling documents (slot -> Document) next to `output` as `out_LOD2.glb` ... */
async function writeSiblings(io, output, docs) {
  for (const slot of SUFFIX_SLOTS) {
    if (docs[slot]) await io.write(join(dirname(String(output)), siblingFileName(basename(String(output)), slot)), docs[slot]);
  }
}

const size = (v) => (v === undefined ? undefined : { longestSide: Number(v) });
const num = (v) => (v === undefined ? undefined : Number(v));

export default {
  onProgramReady: async ({ program, io, Session }) => {
    program
      .command('sl-lods', 'Second Life LODs (slmesh slLods): the output and its _LOD2, _LOD1, _LOD0 sibling files')
      .help('Generates the LODs Second Life shows at each distance, each within --max-error-px pixels of high, and writes the sibling files the viewer\'s uploader reads (out.glb, out_LOD2.glb, out_LOD1.glb, out_LOD0.glb).')
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .argument('<output>', 'Path to write output')
      .option('--lod-factor <factor>', 'RenderVolumeLODFactor the LODs are planned for (default 2)', { validator: program.NUMBER })
      .option('--max-error-px <px>', 'Screen-space error bound in pixels (default 1)', { validator: program.NUMBER })
      .option('--target-li <li>', 'Land impact budget for the linkset (budget mode)', { validator: program.NUMBER })
      .option('--min-coverage <fraction>', 'Silhouette floor (default 0.9)', { validator: program.NUMBER })
      .option('--size <metres>', "Plan for this longest side (default: the model's own size)", { validator: program.NUMBER })
      .option('--keep-authored-lods', 'Keep LODs the file already has', { validator: program.BOOLEAN })
      .action(async ({ args, options, logger }) => {
        await MeshoptSimplifier.ready;
        let siblings = {};
        const transform = slLods({
          onSiblings: (s) => (siblings = s),
          simplifier: MeshoptSimplifier,
          lodFactor: num(options.lodFactor),
          maxErrorPx: num(options.maxErrorPx),
          targetLandImpact: num(options.targetLi),
          minCoverage: num(options.minCoverage),
          size: size(options.size),
          keepAuthoredLods: options.keepAuthoredLods === true ? true : undefined,
        });
        await Session.create(io, logger, args.input, args.output).transform(transform);
        await writeSiblings(io, args.output, siblings);
      });

    program
      .command('sl-physics', 'Second Life physics shapes (slmesh slPhysics): the out_PHYS.glb sibling file')
      .help('Builds the single hull and, as --mode asks, a convex decomposition or a triangle physics mesh, written as the Name_PHYS nodes of the out_PHYS.glb sibling file, with a summary in extras.slmesh.physics.')
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .argument('<output>', 'Path to write output')
      .option('--mode <mode>', 'auto, hull, decompose, mesh or none (default auto)', { validator: ['auto', 'hull', 'decompose', 'mesh', 'none'] })
      .option('--tolerance <metres>', 'Decomposition fit tolerance (default 0.05)', { validator: program.NUMBER })
      .option('--size <metres>', "Weigh at this longest side (default: the model's own size)", { validator: program.NUMBER })
      .action(async ({ args, options, logger }) => {
        let physics;
        await Session.create(io, logger, args.input, args.output).transform(
          slPhysics({ mode: options.mode, tolerance: num(options.tolerance), size: size(options.size), onPhysicsDocument: (d) => (physics = d) }),
        );
        await writeSiblings(io, args.output, { physics });
      });

    program
      .command('sl-report', 'Second Life cost report (slmesh slReport), JSON on stdout')
      .help('Download, physics and server weight, land impact and linkability of the model, as `slmesh cost --json` reports them (docs/cost-report.schema.json).')
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .option('--lod-factor <factor>', 'RenderVolumeLODFactor for the LOD distances (default 2)', { validator: program.NUMBER })
      .option('--size <metres>', "Price at this longest side (default: the model's own size)", { validator: program.NUMBER })
      .action(async ({ args, options, logger }) => {
        const lodFactor = num(options.lodFactor) ?? 2;
        const { report: file } = await reportFile(String(args.input), { lodFactor, size: size(options.size) });
        const report = makeCostReport([file], { lodFactor, ...(options.size !== undefined ? { size: size(options.size) } : {}), animesh: false, linkabilityRule: 'current' }, VERSION);
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      });
  },
};
