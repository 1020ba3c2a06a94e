/**
 * Land impact of a mesh linkset: the largest of its download (streaming) weight, physics weight
 * and server weight. Source [wiki]: Mesh/Mesh_Server_Weight, Land impact.
 *
 * Second Life's rounding of the land impact is not public. We report the exact maximum and an
 * integer rounded half up (Math.floor(x + 0.5)), and say which is which; the seed's example
 * (1.628 -> "2 prims after rounding") does not settle round-half-up against ceiling.
 */

export type LandImpactComponent = 'download' | 'physics' | 'server';

export interface LandImpactInput {
  /** Download (streaming) weight. */
  streaming: number;
  /** Physics weight. */
  physics: number;
  /** Server weight. */
  server: number;
}

export interface LandImpact {
  /** max(streaming, physics, server), unrounded. */
  exact: number;
  /** `exact` rounded half up to an integer. SL's own rounding is not public. */
  rounded: number;
  /** Which weight sets the land impact (on a tie: download, then physics, then server). */
  dominant: LandImpactComponent;
}

export function landImpact({ streaming, physics, server }: LandImpactInput): LandImpact {
  let exact = streaming;
  let dominant: LandImpactComponent = 'download';
  if (physics > exact) {
    exact = physics;
    dominant = 'physics';
  }
  if (server > exact) {
    exact = server;
    dominant = 'server';
  }
  return { exact, rounded: Math.floor(exact + 0.5), dominant };
}
