/**
 * Typed errors. Each carries a stable `code`; the CLI maps codes to an exit status and prints
 * `message` as one line. Geometry problems that do not stop a report are Diagnostics instead
 * (see types.ts), returned rather than thrown.
 */

export type SlmeshErrorCode =
  | 'INPUT_UNREADABLE' // the file cannot be read or parsed
  | 'INPUT_INVALID' // the file parses but its content is unusable (NaN, no meshes, ...)
  | 'INPUT_LIMIT' // a configured limit was exceeded (size, triangles, ...)
  | 'INPUT_UNSAFE' // a URI escapes the input folder or uses a network scheme
  | 'ASSET_INVALID' // a mesh asset (.llmesh) cannot be decoded
  | 'LLSD_INVALID' // binary LLSD cannot be parsed
  | 'OUTPUT_UNWRITABLE' // an output cannot be written (a folder, read-only, the input itself, ...)
  | 'USAGE'; // bad command-line arguments or options

export class SlmeshError extends Error {
  readonly code: SlmeshErrorCode;
  constructor(code: SlmeshErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SlmeshError';
    this.code = code;
  }
}

export function isSlmeshError(e: unknown): e is SlmeshError {
  return e instanceof SlmeshError;
}
