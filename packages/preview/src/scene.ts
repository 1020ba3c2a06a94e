/**
 * The three.js model: per object one group per LOD slot and one per physics shape, under a
 * root that scales the linkset about its centre to the size asked about.
 *
 * A LOD slot the object does not have shows the next higher LOD, as the viewer does (the same
 * geometry, drawn again). Physics shapes: the single hull (always: the hull the object is priced
 * with, triangulated by core's convexHullMesh), the convex decomposition and the triangle physics
 * mesh when the object has them. Whatever the payload carries is drawn: generated LODs and
 * decompositions need nothing new here.
 */

import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  EdgesGeometry,
  Group,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  WireframeGeometry,
  type Material,
} from 'three';
import { boxCenter, convexHullMesh, LOD_NAMES, type LodName, type Vec3 } from '@slmesh/core';
import type { DecodedFace, DecodedPreview } from './payload.js';

export type PhysicsMode = 'off' | 'hull' | 'decomposition' | 'mesh';

/** Face colours by material, in order of first appearance in the linkset. */
export const MATERIAL_COLOURS = [
  '#c9a074',
  '#6f9bd1',
  '#d7826f',
  '#8fc17a',
  '#d0b85a',
  '#a88bd0',
  '#5fb7b0',
  '#d69ac0',
  '#9aa3ad',
  '#e0c9a6',
];
/** Physics overlay colours: hull orange, physics mesh cyan; decomposition hulls cycle through hues. */
export const HULL_COLOUR = '#ff8a1c';
export const PHYSICS_MESH_COLOUR = '#1ee6c8';

export interface SceneObject {
  /** One group per slot, already resolved: a missing slot holds the next higher LOD's meshes. */
  lods: Record<LodName, Group>;
  /** Which LOD each slot really draws (itself, or the next higher one it stands in for). */
  drawn: Record<LodName, LodName>;
  physics: { hull: Group; decomposition?: Group; mesh?: Group };
  /** Triangles drawn per slot. */
  triangles: Record<LodName, number>;
}

export interface PreviewScene {
  /** Scaled about `centre` by the size factor. */
  root: Group;
  objects: SceneObject[];
  materials: string[];
  materialMeshes: MeshStandardMaterial[];
  centre: Vec3;
  /** Sets the size factor (uniform). */
  setScale(f: number): void;
  /** Shows `slot` for object i (or every object). */
  showLod(i: number, slot: LodName): void;
  /** Shows one physics shape on every object that has it. */
  showPhysics(mode: PhysicsMode): void;
  setWireframe(on: boolean): void;
  /** Which physics modes some object has. */
  available: Record<PhysicsMode, boolean>;
}

function faceGeometry(face: DecodedFace): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(face.positions, 3));
  g.setIndex(new BufferAttribute(face.indices, 1));
  if (face.normals) g.setAttribute('normal', new BufferAttribute(face.normals, 3));
  else g.computeVertexNormals();
  g.computeBoundingSphere();
  return g;
}

function hullGroup(points: Float32Array, colour: string, fillOpacity: number): Group {
  const group = new Group();
  const { positions, indices } = convexHullMesh(points);
  if (indices.length === 0) return group;
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(positions, 3));
  g.setIndex(new BufferAttribute(indices, 1));
  const fill = new Mesh(
    g,
    new MeshBasicMaterial({
      color: colour,
      transparent: true,
      opacity: fillOpacity,
      depthWrite: false,
      side: DoubleSide,
    }),
  );
  fill.renderOrder = 2;
  const edges = new LineSegments(
    new EdgesGeometry(g, 1),
    new LineBasicMaterial({ color: colour, transparent: true, opacity: 0.95, depthTest: false }),
  );
  edges.renderOrder = 3;
  group.add(fill, edges);
  return group;
}

export function buildScene(preview: DecodedPreview): PreviewScene {
  const { data, objects } = preview;
  const centre = boxCenter(data.linksetBox);
  const outer = new Group();
  outer.position.set(centre[0], centre[1], centre[2]);
  const inner = new Group();
  inner.position.set(-centre[0], -centre[1], -centre[2]);
  outer.add(inner);

  // 1. One material per material name across the linkset.
  const materials: string[] = [];
  for (const o of objects)
    for (const faces of Object.values(o.lods))
      for (const f of faces ?? []) if (!materials.includes(f.material)) materials.push(f.material);
  const materialMeshes = materials.map(
    (_, i) =>
      new MeshStandardMaterial({
        color: new Color(MATERIAL_COLOURS[i % MATERIAL_COLOURS.length]),
        roughness: 0.75,
        metalness: 0,
        side: DoubleSide,
      }),
  );
  const materialFor = (name: string): Material => materialMeshes[materials.indexOf(name)];

  const available: Record<PhysicsMode, boolean> = { off: true, hull: true, decomposition: false, mesh: false };
  const sceneObjects: SceneObject[] = objects.map((o, i) => {
    const group = new Group();
    group.name = `object-${i}`;
    inner.add(group);

    // 2. LOD slots: own geometry, or the next higher LOD's (shared buffers, separate meshes).
    const geometries: Partial<Record<LodName, { geometry: BufferGeometry; material: string }[]>> = {};
    for (const name of LOD_NAMES) {
      const faces = o.lods[name];
      if (faces)
        geometries[name] = faces
          .filter((f) => f.indices.length >= 3)
          .map((f) => ({ geometry: faceGeometry(f), material: f.material }));
    }
    const lods = {} as Record<LodName, Group>;
    const drawn = {} as Record<LodName, LodName>;
    const triangles = {} as Record<LodName, number>;
    let above: LodName = 'high';
    for (const name of LOD_NAMES) {
      const source: LodName = geometries[name] ? name : above;
      drawn[name] = source;
      above = source;
      const lodGroup = new Group();
      lodGroup.name = `object-${i}-${name}`;
      let tris = 0;
      for (const { geometry, material } of geometries[source] ?? []) {
        lodGroup.add(new Mesh(geometry, materialFor(material)));
        tris += (geometry.index?.count ?? 0) / 3;
      }
      triangles[name] = tris;
      lodGroup.visible = name === 'high';
      group.add(lodGroup);
      lods[name] = lodGroup;
    }

    // 3. Physics shapes, hidden until asked for.
    const hull = hullGroup(o.hull, HULL_COLOUR, 0.22);
    hull.visible = false;
    group.add(hull);
    const physics: SceneObject['physics'] = { hull };
    if (o.decomposition && o.decomposition.length > 0) {
      const dec = new Group();
      o.decomposition.forEach((h, k) => dec.add(hullGroup(h, `hsl(${(k * 137.5) % 360}, 85%, 60%)`, 0.3)));
      dec.visible = false;
      group.add(dec);
      physics.decomposition = dec;
      available.decomposition = true;
    }
    if (o.physicsMesh && o.physicsMesh.indices.length >= 3) {
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(o.physicsMesh.positions, 3));
      g.setIndex(new BufferAttribute(o.physicsMesh.indices, 1));
      const mesh = new Group();
      const fill = new Mesh(
        g,
        new MeshBasicMaterial({
          color: PHYSICS_MESH_COLOUR,
          transparent: true,
          opacity: 0.25,
          depthWrite: false,
          side: DoubleSide,
        }),
      );
      fill.renderOrder = 2;
      const wire = new LineSegments(
        new WireframeGeometry(g),
        new LineBasicMaterial({ color: PHYSICS_MESH_COLOUR, transparent: true, opacity: 0.95, depthTest: false }),
      );
      wire.renderOrder = 3;
      mesh.add(fill, wire);
      mesh.visible = false;
      group.add(mesh);
      physics.mesh = mesh;
      available.mesh = true;
    }
    return { lods, drawn, physics, triangles };
  });

  return {
    root: outer,
    objects: sceneObjects,
    materials,
    materialMeshes,
    centre,
    available,
    setScale(f) {
      outer.scale.set(f, f, f);
      outer.updateMatrixWorld(true);
    },
    showLod(i, slot) {
      const o = sceneObjects[i];
      for (const name of LOD_NAMES) o.lods[name].visible = name === slot;
    },
    showPhysics(mode) {
      for (const o of sceneObjects) {
        o.physics.hull.visible = mode === 'hull';
        if (o.physics.decomposition) o.physics.decomposition.visible = mode === 'decomposition';
        if (o.physics.mesh) o.physics.mesh.visible = mode === 'mesh';
      }
    },
    setWireframe(on) {
      for (const m of materialMeshes) m.wireframe = on;
    },
  };
}
