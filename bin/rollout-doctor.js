#!/usr/bin/env node
// Runs the compiled command line when it is there: the installed package (npm pack
// ships dist/src, built by prepack) and the container image. A checkout has no dist/
// (scripts/pack.mjs removes it after packing, so no build shadows source edits): it
// runs the TypeScript sources through tsx, a dev dependency.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      'rollout-doctor: neither a build (dist/src/cli/main.js) nor tsx (a dev dependency) is here: ' +
        'run `npm ci` in the checkout, or `npm run build`.\n',
    );
    process.exit(4);
  }
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
