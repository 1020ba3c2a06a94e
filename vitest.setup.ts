// Property tests run with a fixed seed so CI is reproducible; FC_SEED=<n> explores another part
// of the input space (fast-check prints the seed of any failure, so it can be replayed).
import fc from 'fast-check';
import { beforeEach } from 'vitest';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261121) });

// A turn of the event loop before each test. A file of synchronous tests otherwise never gives
// its worker one, so vitest's own messages from the main process wait, and one waiting over 60 s
// fails the run with `Timeout calling "onTaskUpdate"` though every test passed (the LOD planner's
// 37 tests take about 60 s on the CI machine: the run failed at 61.7 s and 60.4 s, not at 59.5 s).
beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
