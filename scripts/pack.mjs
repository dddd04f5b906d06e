// npm pack / npm publish lifecycle (package.json "prepack" and "postpack").
//
// prepack: a fresh production build into dist/ (tsc -p tsconfig.build.json, which
// compiles src/ and workers/ only); the package's "files" take dist/src/**/*.js and
// dist/workers/**/*.js from it.
// postpack: removes dist/ again. bin/rollout-doctor.js runs dist/ when it exists, so
// a build left in the working tree would shadow later edits of src/ (CI and the
// benchmarks build under node_modules/.cache for the same reason).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const step = process.argv[2];
const clean = () => rmSync('dist', { recursive: true, force: true });

if (step === 'prepack') {
  clean(); // nothing stale from an older build goes into the package
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    // tsc reports on stdout; npm pack --json prints its result there.
    stdio: [0, 2, 2],
  });
  if (build.status !== 0) {
    clean();
    process.exit(build.status ?? 1);
  }
} else if (step === 'postpack') {
  clean();
} else {
  console.error('usage: node scripts/pack.mjs prepack|postpack');
  process.exit(2);
}
