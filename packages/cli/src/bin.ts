#!/usr/bin/env node
/**
 * The `slmesh` command. `optimize` and `cost` run in a single-threaded child Node (respawn.ts);
 * everything else, and that child, runs main.ts here.
 */

import { respawn, shouldRespawn } from './respawn.js';

if (shouldRespawn(process.argv, process.execArgv, process.env)) respawn();
else await import('./main.js');
