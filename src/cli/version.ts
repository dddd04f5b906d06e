/**
 * The package version, read from package.json at run time. The file sits at a
 * different depth from source (src/cli/) and from a build (dist/src/cli/, or the CI's
 * node_modules/.cache/… build), so it is found by walking up from this module to the
 * first package.json named rollout-doctor: the checkout's, or the installed package's.
 * Scripts find the checkout the same way (packageRoot).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'rollout-doctor';

/** @example packageVersion() // '0.1.0' */
export function packageVersion(from: string = import.meta.url): string {
  return findPackage(from).version;
}

/**
 * The directory of the first package.json named rollout-doctor above `from` (a module's
 * URL): the checkout or the installed package, from source, from a build, or from the
 * transpiled tree the tests and the demo run (scripts/transpiled-tree.ts).
 */
export function packageRoot(from: string = import.meta.url): string {
  return findPackage(from).dir;
}

/** The walk up from `from` both answer from: each package.json read once. */
function findPackage(from: string): { dir: string; version: string } {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const version = versionIn(join(dir, 'package.json'));
    if (version !== undefined) return { dir, version };
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${fileURLToPath(from)}`);
    dir = parent;
  }
}

function versionIn(path: string): string | undefined {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // absent or not JSON: keep looking higher up
  }
  if (typeof pkg !== 'object' || pkg === null) return undefined;
  const { name, version } = pkg as { name?: unknown; version?: unknown };
  return name === PACKAGE_NAME && typeof version === 'string' ? version : undefined;
}
