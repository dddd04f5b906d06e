#!/usr/bin/env node
// Runs the compiled command line when it is there: the installed package (npm pack
// ships dist/src, built by prepack) and the container image. A checkout has no dist/
// (scripts/pack.mjs removes it after packing, so no build shadows source edits): it
// runs the TypeScript sources through tsx, a dev dependency.
import { existsSync } from 'node:fs';

// An entry that cannot even load (a broken install, a dependency that throws at import)
// is an internal error: exit 4 with one line (DESIGN.md §3), never Node's stack and 1.
const internal = (error) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // Control characters stripped: the message can quote a path or a dependency's text.
  const first = message.split('\n')[0];
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const line = first.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 300);
  process.stderr.write(`rollout-doctor: internal error (a bug, please report it): ${line}\n`);
  process.exit(4);
};

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href).catch(internal);
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
  await import(new URL('../src/cli/main.ts', import.meta.url).href).catch(internal);
}
