/**
 * Production runs compiled JavaScript (`npm run build`, then `node dist/...`; see the
 * Dockerfile), so the benchmarks measure the app, the worker and the bare Bolt app
 * the same way: compiled once per `npm run bench` with the project's build settings
 * (bench/tsconfig.bench.json: tsconfig.build.json plus bench/bare-bolt.ts) and run
 * with plain `node`. The output goes under node_modules/.cache, not dist/: the CLI
 * wrapper (bin/rollout-doctor.js) prefers dist/ when it exists, and a build left
 * there by a benchmark would shadow later source edits.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the compiled tree goes (mirrors the repository: src/, workers/, sim/, bench/). */
export const COMPILED_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/rollout-doctor-bench/', import.meta.url),
);

let building: Promise<string> | undefined;

/** Compiles once per process (incremental) and resolves with the output directory. */
export function buildCompiled(): Promise<string> {
  building ??= (async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [tsc, '-p', 'bench/tsconfig.bench.json'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`tsc failed (${String(code)}):\n${out.slice(-3000)}`)),
      );
    });
    if (output.trim()) console.log(output.trim());
    // The tree sits under node_modules, where Node does not look past the
    // node_modules boundary for a package.json: say that these .js files are ESM.
    await writeFile(`${COMPILED_DIR}package.json`, '{ "type": "module" }\n');
    return COMPILED_DIR;
  })();
  return building;
}
