/**
 * The four glTF-Transform helpers slmesh uses, without @gltf-transform/functions: that package
 * depends on ndarray-pixels, which depends on sharp (a native image library, about 20 MB of
 * prebuilt binaries) for texture functions slmesh never calls. Each follows the function of the
 * same name in @gltf-transform/functions 4.x (MIT, Copyright (c) 2017 Don McCurdy), reduced to
 * what slmesh needs:
 *
 * - `createTransform(name, fn)`: names a transform function, as glTF-Transform's does.
 * - `cloneDocument(doc)`: an independent copy of every property and extension.
 * - `unpartition()`: at most one buffer.
 * - `prune()`: removes what nothing references, top-down (empty leaf nodes, meshes, primitives,
 *   materials, textures, accessors, buffers). Vertex attributes and solid textures are always
 *   kept (glTF-Transform's `keepAttributes: true, keepSolidTextures: true`, which is how slmesh
 *   called it), and so are properties with extras only when `keepExtras` is set.
 */

import {
  AnimationChannel,
  Document,
  PropertyType,
  Root,
  Scene,
  type Extension,
  type Graph,
  type Node,
  type Property,
  type Transform,
} from '@gltf-transform/core';

/** Names a transform function (shown in glTF-Transform's logs and the transform stack). */
export function createTransform(name: string, fn: Transform): Transform {
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

/** A copy of `source` (properties, extensions and root properties) that can be changed independently. */
export function cloneDocument(source: Document): Document {
  const target = new Document().setLogger(source.getLogger());
  const map = new Map<Property, Property>([[source.getRoot(), target.getRoot()]]);
  const resolve = (p: Property): Property => {
    // TextureInfo belongs to its material or extension property, which copies it.
    if (p.propertyType === PropertyType.TEXTURE_INFO) return p;
    let t = map.get(p);
    if (!t) {
      t = new (p.constructor as new (g: Graph<Property>) => Property)(target.getGraph());
      map.set(p, t);
    }
    return t;
  };
  // 1. Extensions, with their required flag.
  for (const ext of source.getRoot().listExtensionsUsed()) {
    const copy = target.createExtension(ext.constructor as new (doc: Document) => Extension);
    if (ext.isRequired()) copy.setRequired(true);
  }
  // 2. A stub per property on the graph, then their contents and relationships.
  const props = new Set<Property>();
  for (const edge of source.getGraph().listEdges()) props.add(edge.getChild());
  const pairs: [Property, Property][] = [];
  for (const p of props)
    if (p.propertyType !== PropertyType.TEXTURE_INFO && p.propertyType !== PropertyType.ROOT)
      pairs.push([p, resolve(p)]);
  for (const [from, to] of pairs) to.copy(from, resolve);
  // 3. Root properties (name, asset, default scene, extras).
  target.getRoot().copy(source.getRoot(), resolve as never);
  return target;
}

/** Moves every accessor to the first buffer and removes the others. */
export function unpartition(): Transform {
  return createTransform('unpartition', (document: Document): void => {
    const root = document.getRoot();
    const buffer = root.listBuffers()[0];
    for (const a of root.listAccessors()) a.setBuffer(buffer);
    root.listBuffers().forEach((b, i) => i > 0 && b.dispose());
  });
}

export interface PruneOptions {
  /** Keep leaf nodes without a mesh, camera or children. Default false. */
  keepLeaves?: boolean;
  /** Keep unreferenced properties that carry extras. Default false. */
  keepExtras?: boolean;
  /** Accepted for glTF-Transform compatibility: vertex attributes are always kept. */
  keepAttributes?: true;
  /** Accepted for glTF-Transform compatibility: solid-colour textures are always kept. */
  keepSolidTextures?: true;
}

/** Removes properties nothing references (see the file comment). */
export function prune(options: PruneOptions = {}): Transform {
  const keepLeaves = options.keepLeaves ?? false;
  const keepExtras = options.keepExtras ?? false;
  return createTransform('prune', (document: Document): void => {
    const root = document.getRoot();
    const graph = document.getGraph();
    const hasExtras = (p: Property) => keepExtras && Object.keys(p.getExtras()).length > 0;
    // A property is unused when nothing but the root (or an animation channel) points to it.
    const shake = (p: Property) => {
      const parents = p.listParents().filter((q) => !(q instanceof Root || q instanceof AnimationChannel));
      if (parents.length === 0 && !hasExtras(p)) p.dispose();
    };
    const shakeLeaves = (p: Node | Scene) => {
      for (const child of p.listChildren()) shakeLeaves(child);
      if (p instanceof Scene) return;
      const used = graph
        .listParentEdges(p)
        .some(
          (e) =>
            ![PropertyType.ROOT, PropertyType.SCENE, PropertyType.NODE].includes(e.getParent().propertyType as never),
        );
      if (!used && graph.listChildren(p).length === 0 && !hasExtras(p)) p.dispose();
    };
    // Top-down, so that what a removed property referenced can go too.
    for (const mesh of root.listMeshes()) if (mesh.listPrimitives().length === 0) mesh.dispose();
    if (!keepLeaves) for (const scene of root.listScenes()) shakeLeaves(scene);
    for (const node of root.listNodes()) shake(node);
    for (const skin of root.listSkins()) shake(skin);
    for (const mesh of root.listMeshes()) shake(mesh);
    for (const camera of root.listCameras()) shake(camera);
    for (const edge of graph.listEdges()) {
      const parent = edge.getParent();
      if (parent.propertyType === PropertyType.PRIMITIVE || parent.propertyType === PropertyType.PRIMITIVE_TARGET)
        shake(parent);
    }
    for (const anim of root.listAnimations()) {
      for (const channel of anim.listChannels()) if (!channel.getTargetNode()) channel.dispose();
      const samplers = anim.listSamplers();
      if (anim.listChannels().length === 0) shake(anim);
      for (const s of samplers) shake(s);
    }
    for (const material of root.listMaterials()) shake(material);
    for (const texture of root.listTextures()) shake(texture);
    for (const accessor of root.listAccessors()) shake(accessor);
    for (const buffer of root.listBuffers()) shake(buffer);
  });
}
