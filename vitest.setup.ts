// Property tests run with a fixed seed so CI is reproducible; FC_SEED=<n> explores another part
// of the input space (fast-check prints the seed of any failure, so it can be replayed).
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261121) });
