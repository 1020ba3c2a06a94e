// Before any test file runs: build what is stale, so tests that spawn the built `slmesh` (CLI
// end-to-end tests) run the code as it is now, even after an edit without `pnpm build`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('./scripts/build-if-stale.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
