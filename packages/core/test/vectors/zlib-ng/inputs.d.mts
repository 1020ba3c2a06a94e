/** Types of inputs.mjs (the generated inputs of the zlib-ng golden vectors). */
export interface GeneratedCase {
  name: string;
  kind: string;
  seed: number;
  length: number;
}
export function generatedCases(): GeneratedCase[];
export function makeInput(c: Pick<GeneratedCase, 'kind' | 'seed' | 'length'>): Uint8Array;
