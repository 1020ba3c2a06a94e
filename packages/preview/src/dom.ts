/**
 * DOM building without markup: every string, and every name from the model in particular,
 * goes in as text (textContent), never as HTML, so a node named `<img onerror=...>` is shown
 * as those characters and runs nothing.
 */

type Child = Node | string | number | null | undefined | false;

export interface Attrs {
  [name: string]: string | number | boolean | undefined;
}

/** An element with attributes (set with setAttribute, never `on*`) and text or element children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, ...children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, likewise. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, ...children);
  return node;
}

function setAttrs(node: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (/^on/i.test(name)) throw new Error(`refusing to set event-handler attribute ${name}`);
    node.setAttribute(name, value === true ? '' : String(value));
  }
}

export function append(node: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. */
export function replaceChildren(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, ...children);
}

/** Sets an element's text and, for tests and tools, its exact value as `data-value`. */
export function setValue(node: Element, text: string, value?: number | string | boolean): void {
  node.textContent = text;
  if (value !== undefined) node.setAttribute('data-value', String(value));
}
