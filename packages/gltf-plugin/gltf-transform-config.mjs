/**
 * A glTF-Transform CLI config that adds slmesh's commands to `gltf-transform`
 * (@gltf-transform/cli, installed separately):
 *
 *   gltf-transform --config node_modules/@slmesh/gltf-plugin/gltf-transform-config.mjs sl-report chair.glb
 *   gltf-transform --config <this file> sl-lods chair.glb chair-sl.glb --max-error-px 1
 *   gltf-transform --config <this file> sl-physics chair-sl.glb chair-sl.glb --mode decompose
 *
 * sl-lods and sl-physics are the slLods() and slPhysics() transforms: the output is the high file,
 * and the LODs and physics model go to the sibling files the uploader loads next to it
 * (`out_LOD2.glb`, `out_LOD1.glb`, `out_LOD0.glb`, `out_PHYS.glb`). sl-report prints the cost
 * report of a file with its siblings (docs/cost-report.schema.json), JSON on stdout, exactly as
 * `slmesh cost --json`. Dependencies resolve from this package, not from the folder it is run in.
 */

import { MeshoptSimplifier } from 'meshoptimizer';
import { reportFile, siblingFileName, slLods, slPhysics, makeCostReport, VERSION } from './dist/node.js';

/** Reads `input`, runs `transform(collect)` and writes the high file and every sibling it collected. */
async function transformWithSiblings(io, logger, input, output, makeTransform) {
  io.setLogger(logger);
  const document = await io.read(input);
  const siblings = {};
  await document.transform(makeTransform(siblings));
  await io.write(output, document);
  for (const [slot, doc] of Object.entries(siblings)) await io.write(siblingFileName(output, slot), doc);
  logger.info(
    `${input} -> ${[output, ...Object.keys(siblings).map((slot) => siblingFileName(output, slot))].join(', ')}`,
  );
}

const size = (v) => (v === undefined ? undefined : { longestSide: Number(v) });
const num = (v) => (v === undefined ? undefined : Number(v));

export default {
  onProgramReady: async ({ program, io, Session }) => {
    program
      .command('sl-lods', 'Second Life LODs (slmesh slLods): the high file and its _LOD2, _LOD1, _LOD0 sibling files')
      .help(
        "Generates the LODs Second Life shows at each distance, each within --max-error-px pixels of high, and writes the nodes the viewer's uploader reads.",
      )
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .argument('<output>', 'Path to write output')
      .option('--lod-factor <factor>', 'RenderVolumeLODFactor the LODs are planned for (default 2)', {
        validator: program.NUMBER,
      })
      .option('--max-error-px <px>', 'Screen-space error bound in pixels (default 1)', { validator: program.NUMBER })
      .option('--target-li <li>', 'Land impact budget for the linkset (budget mode)', { validator: program.NUMBER })
      .option('--min-coverage <fraction>', 'Silhouette floor (default 0.9)', { validator: program.NUMBER })
      .option('--size <metres>', "Plan for this longest side (default: the model's own size)", {
        validator: program.NUMBER,
      })
      .option('--keep-authored-lods', 'Keep LODs the file already has', { validator: program.BOOLEAN })
      .action(async ({ args, options, logger }) => {
        await MeshoptSimplifier.ready;
        await transformWithSiblings(io, logger, args.input, args.output, (siblings) =>
          slLods({
            simplifier: MeshoptSimplifier,
            lodFactor: num(options.lodFactor),
            maxErrorPx: num(options.maxErrorPx),
            targetLandImpact: num(options.targetLi),
            minCoverage: num(options.minCoverage),
            size: size(options.size),
            keepAuthoredLods: options.keepAuthoredLods === true ? true : undefined,
            onSiblings: (docs) => Object.assign(siblings, docs),
          }),
        );
      });

    program
      .command('sl-physics', 'Second Life physics shapes (slmesh slPhysics): the _PHYS sibling file')
      .help(
        'Builds the single hull and, as --mode asks, a convex decomposition or a triangle physics mesh, written as the _PHYS sibling file (out_PHYS.glb) with a summary in extras.slmesh.physics.',
      )
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .argument('<output>', 'Path to write output')
      .option('--mode <mode>', 'auto, hull, decompose, mesh or none (default auto)', {
        validator: ['auto', 'hull', 'decompose', 'mesh', 'none'],
      })
      .option('--tolerance <metres>', 'Decomposition fit tolerance (default 0.05)', { validator: program.NUMBER })
      .option('--size <metres>', "Weigh at this longest side (default: the model's own size)", {
        validator: program.NUMBER,
      })
      .action(async ({ args, options, logger }) =>
        transformWithSiblings(io, logger, args.input, args.output, (siblings) =>
          slPhysics({
            mode: options.mode,
            tolerance: num(options.tolerance),
            size: size(options.size),
            onPhysicsDocument: (doc) => (siblings.physics = doc),
          }),
        ),
      );

    program
      .command(
        'sl-report',
        'Second Life cost report of a file and its siblings (as slmesh cost --json), JSON on stdout',
      )
      .help(
        'Download, physics and server weight, land impact and linkability of the model, as `slmesh cost --json` reports them (docs/cost-report.schema.json).',
      )
      .argument('<input>', 'Path to read glTF 2.0 (.glb, .gltf) model')
      .option('--lod-factor <factor>', 'RenderVolumeLODFactor for the LOD distances (default 2)', {
        validator: program.NUMBER,
      })
      .option('--size <metres>', "Price at this longest side (default: the model's own size)", {
        validator: program.NUMBER,
      })
      .action(async ({ args, options }) => {
        const lodFactor = num(options.lodFactor) ?? 2;
        const sizeRequest = size(options.size);
        const { report } = await reportFile(String(args.input), { lodFactor, size: sizeRequest });
        const full = makeCostReport(
          [report],
          { lodFactor, ...(sizeRequest ? { size: sizeRequest } : {}), animesh: false, linkabilityRule: 'current' },
          VERSION,
        );
        process.stdout.write(`${JSON.stringify(full, null, 2)}\n`);
      });
  },
};
