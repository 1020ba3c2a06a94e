/**
 * Options merged with their defaults, the one way every slmesh function does it: like
 * glTF-Transform's `assignDefaults`, an option given as `undefined` takes its default (a spread,
 * `{ ...DEFAULTS, ...options }`, would copy the `undefined` over it). `null` is a value and is
 * kept. Only own enumerable keys of `options` are read; neither argument is changed.
 */
export function assignDefaults<Defaults extends object, Options extends object>(
  defaults: Defaults,
  options?: Options | null,
): Defaults & Options {
  const out = { ...defaults } as Record<string, unknown>;
  if (options) {
    for (const key of Object.keys(options)) {
      const value = (options as Record<string, unknown>)[key];
      if (value !== undefined) out[key] = value;
    }
  }
  return out as Defaults & Options;
}
