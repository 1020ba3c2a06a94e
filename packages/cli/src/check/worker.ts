/**
 * Worker thread of the `slmesh check` pool (pool.ts): prices the assets it is sent, one at a
 * time, and answers each with its PriceResult. Runs from the built dist (dist/check/worker.js).
 */

import { parentPort } from 'node:worker_threads';
import { priceAsset, type PriceTask } from './price-asset.js';

if (!parentPort) throw new Error('check/worker.js runs as a worker thread of slmesh check');
const port = parentPort;

port.on('message', (msg: { id: number; task: PriceTask }) => {
  priceAsset(msg.task).then(
    (result) => port.postMessage({ id: msg.id, result }),
    (e: unknown) =>
      port.postMessage({
        id: msg.id,
        result: {
          error: {
            code: 'INTERNAL',
            message: `${msg.task.path}: ${String((e as Error)?.message ?? e)}`,
            internal: true,
          },
        },
      }),
  );
});
