/**
 * Server weight of a linkset: what the simulator charges for managing it.
 *
 *     server = min(0.5 * prims + 0.25 * (scripts - (scripts > 0 ? 1 : 0)), prims)
 *
 * i.e. half a unit per prim and a quarter per script after the first, never more than one unit
 * per prim. Source [wiki]: Mesh/Mesh_Server_Weight. Seed 001 gives only the general form
 * simulation_factor * active_cost * (num_objects + linkset_factor / num_objects) without values.
 */

import { SERVER_WEIGHT_PER_EXTRA_SCRIPT, SERVER_WEIGHT_PER_PRIM } from '../constants.js';
import { assignDefaults } from '../options.js';

export interface ServerWeightSettings {
  /** Weight per prim. Default SERVER_WEIGHT_PER_PRIM = 0.5. [wiki] */
  perPrim: number;
  /** Weight per script after the first. Default SERVER_WEIGHT_PER_EXTRA_SCRIPT = 0.25. [wiki] */
  perExtraScript: number;
}

export const SERVER_WEIGHT_DEFAULTS: Readonly<ServerWeightSettings> = Object.freeze({
  perPrim: SERVER_WEIGHT_PER_PRIM,
  perExtraScript: SERVER_WEIGHT_PER_EXTRA_SCRIPT,
});

/** Server weight of a linkset of `prims` prims holding `scripts` scripts in all. */
export function serverWeight(prims: number, scripts = 0, settings: Partial<ServerWeightSettings> = {}): number {
  const s = assignDefaults(SERVER_WEIGHT_DEFAULTS, settings);
  const extraScripts = scripts - (scripts > 0 ? 1 : 0);
  return Math.min(s.perPrim * prims + s.perExtraScript * extraScripts, prims);
}
