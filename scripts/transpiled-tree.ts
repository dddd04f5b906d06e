/**
 * The repository's TypeScript as plain JavaScript, for the child processes the demo,
 * the drills and the tests start (the app, the worker, the stand-ins): production runs
 * compiled JavaScript with plain node, and so do they. Through tsx, each such process
 * spent seconds of CPU in the loader before its first line ran (measured 2026-11-26 on
 * a 2-core machine: importing the app 3.3 s of CPU through tsx against 1.2 s compiled,
 * the worker 6.1 s against 2.6 s), and the demo and the drills start dozens of them.
 *
 * Transpiled, not type-checked: the same transform tsx applies (esbuild, one file at a
 * time, the repository's tsconfig), so what runs is what tsx would run. esbuild over
 * `tsc` (which the benchmarks use, bench/lib/build.ts): a fresh tree in under a second
 * against tsc's twenty, and already installed with tsx and vite; it is a devDependency
 * of its own so that its version is ours to pin.
 *
 * The tree is named by the sources it was made from (each file's path, size and mtime),
 * so a changed source gives a new tree and concurrent processes (two test workers) that
 * see the same sources share one: each writes to a directory of its own and renames it
 * into place, and the rename that loses leaves the winner's tree standing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildSync, version as esbuildVersion } from 'esbuild';
import { packageRoot } from '../src/cli/version.js';

/** The checkout, also when this module runs from a tree it made (the demo does). */
const ROOT = packageRoot(import.meta.url);
/** Where the trees go, under node_modules: ignored by git, by eslint and by the CLI wrapper (which prefers dist/). */
const cacheOf = (root: string): string => join(root, 'node_modules', '.cache', 'rollout-doctor-js');
/** What the child processes import, test support and stand-ins included. */
const SOURCE_DIRS = ['src', 'workers', 'sim', 'bench', 'scripts', 'test'];
/** A tree neither made nor used for this long is removed when a new one is made. */
const STALE_MS = 60 * 60 * 1000;

function sourceFiles(root: string): string[] {
  return SOURCE_DIRS.filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'))
        .map((file) => join(root, dir, file)),
    )
    .sort();
}

function treeName(root: string, files: readonly string[]): string {
  const hash = createHash('sha256').update(esbuildVersion);
  hash.update(statSync(join(root, 'tsconfig.json')).mtimeMs.toString());
  for (const file of files) {
    const stat = statSync(file);
    hash.update(`${relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The directory of the transpiled tree of the sources as they are now (made when
 * missing): `<tree>/src/app/main.js` is `src/app/main.ts`. Synchronous, so that the
 * caller can build a command line with it; about a second when the sources changed,
 * a few milliseconds of stat calls when they did not. `root`: the checkout (tests
 * give another).
 */
export function transpiledTree(root: string = ROOT): string {
  const files = sourceFiles(root);
  const cache = cacheOf(root);
  const tree = join(cache, treeName(root, files));
  if (existsSync(join(tree, 'package.json'))) {
    // Marked as used, so that pruning (by another checkout state's tree) leaves it alone.
    const now = new Date();
    utimesSync(tree, now, now);
    return tree;
  }
  const staging = `${tree}.${process.pid}.${Date.now()}`;
  buildSync({
    entryPoints: files,
    outdir: staging,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  // The tree sits under node_modules, where Node looks no further up for the
  // package.json that says these .js files are modules: it gets its own, written last
  // (the mark of a finished tree).
  writeFileSync(join(staging, 'package.json'), '{ "type": "module" }\n');
  try {
    renameSync(staging, tree);
  } catch (error) {
    // Another process put the same tree in place first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(tree, 'package.json'))) throw error;
  }
  pruneStale(cache, tree);
  return tree;
}

/** Removes the trees of other sources neither made nor used for STALE_MS. */
function pruneStale(cache: string, keep: string): void {
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already (another process pruned it).
    }
  }
}

/** The transpiled file of `entry` (a .ts path relative to the repository root). */
export function transpiledEntry(entry: string): string {
  return join(transpiledTree(), entry.replace(/\.ts$/, '.js'));
}
