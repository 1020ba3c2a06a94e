/**
 * A glTF-Transform CLI config that adds slmesh's commands to `gltf-transform`
 * (@gltf-transform/cli, installed separately):
 *
 *   gltf-transform --config node_modules/@slmesh/gltf-plugin/gltf-transform-config.mjs sl-report chair.glb
 *   gltf-transform --config <this file> sl-lods chair.glb chair-sl.glb --max-error-px 1
 *   gltf-transform --config <this file> sl-physics chair-sl.glb chair-sl.glb --mode decompose
 *
 * sl-lods and sl-physics are the slLods() and slPhysics() transforms; sl-report prints the cost
 * report of slReport() (docs/cost-report.schema.json) as JSON on stdout. Dependencies resolve
 * from this package (meshoptimizer, @slmesh/core), not from the folder it is run in.
 */

import { basename } from 'node:path';
import { MeshoptSimplifier } from 'meshoptimizer';
import { slLods, slPhysics, slReport } from './dist/node.js';

const size = (v) => (v === undefined ? undefined : { longestSide: Number(v) });
const num = (v) => (v === undefined ? undefined : Number(v));

export default {
  onProgramReady: async ({ program, io, Session }) => {
    program
      .command('sl-lods', 'Second Life LODs (slmesh slLods): uploader-ready Name, Name_LOD2, _LOD1, _LOD0 nodes')
      .help('Generates the LODs Second Life shows at each distance, each within --max-error-px pixels of high, and writes the nodes the viewer\'s uploader reads.')
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
        const transform = slLods({
          simplifier: MeshoptSimplifier,
          lodFactor: num(options.lodFactor),
          maxErrorPx: num(options.maxErrorPx),
          targetLandImpact: num(options.targetLi),
          minCoverage: num(options.minCoverage),
          size: size(options.size),
          keepAuthoredLods: options.keepAuthoredLods === true ? true : undefined,
        });
        return Session.create(io, logger, args.input, args.output).transform(transform);
      });

    program
      .command('sl-physics', 'Second Life physics shapes (slmesh slPhysics): a Name_PHYS node per object')
      .help('Builds the single hull and, as --mode asks, a convex decomposition or a triangle physics mesh, written as Name_PHYS nodes with a summary in extras.slmesh.physics.')
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .argument('<output>', 'Path to write output')
      .option('--mode <mode>', 'auto, hull, decompose, mesh or none (default auto)', { validator: ['auto', 'hull', 'decompose', 'mesh', 'none'] })
      .option('--tolerance <metres>', 'Decomposition fit tolerance (default 0.05)', { validator: program.NUMBER })
      .option('--size <metres>', "Weigh at this longest side (default: the model's own size)", { validator: program.NUMBER })
      .action(async ({ args, options, logger }) =>
        Session.create(io, logger, args.input, args.output).transform(slPhysics({ mode: options.mode, tolerance: num(options.tolerance), size: size(options.size) })),
      );

    program
      .command('sl-report', 'Second Life cost report (slmesh slReport), JSON on stdout')
      .help('Download, physics and server weight, land impact and linkability of the model, as `slmesh cost --json` reports them (docs/cost-report.schema.json).')
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .option('--lod-factor <factor>', 'RenderVolumeLODFactor for the LOD distances (default 2)', { validator: program.NUMBER })
      .option('--size <metres>', "Price at this longest side (default: the model's own size)", { validator: program.NUMBER })
      .action(async ({ args, options, logger }) => {
        io.setLogger(logger);
        const document = await io.read(args.input);
        const report = slReport(document, { path: basename(String(args.input)), lodFactor: num(options.lodFactor), size: size(options.size) });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      });
  },
};
