/**
 * The repository's files, read only where they are safe to read: a shallow clone into a
 * private temp dir (mode 0700), a --path that stays inside it, no symlink on the way
 * or among the files read (a link could point at the host's files), and files of
 * bounded size and number. Every refusal is a RefusedInput naming what and why.
 */
import { lstat, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { git, type GitOptions } from './git.js';

/** A single manifest file above this is refused (no real manifest is near it). */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Files a --path may hold. */
const MAX_FILES = 2000;

export class RefusedInput extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedInput';
  }
}

/** The path is not in the repository: the change is then made by hand (not an attack). */
export class NotInRepository extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotInRepository';
  }
}

/** The repository's address: http or https, no credentials in it (they come from a Secret). */
export function checkRepoUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RefusedInput(`--repo ${JSON.stringify(url)} is not a URL (https://host/owner/repo.git)`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new RefusedInput(`--repo must be an http or https URL, not ${parsed.protocol}`);
  if (parsed.username || parsed.password)
    throw new RefusedInput(
      '--repo must not carry credentials: the token comes from the environment or a Secret file',
    );
  return parsed;
}

/** A private temp dir for one proposal; `dispose` removes it. */
export async function privateDir(): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rollout-doctor-propose-'));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** A shallow clone of `branch` (or the default branch) into `home`/repo. */
export async function shallowClone(
  url: string,
  branch: string | undefined,
  options: GitOptions,
): Promise<string> {
  const target = join(options.home, 'repo');
  const pick = branch ? ['--branch', branch] : [];
  await git(
    [
      'clone',
      '--quiet',
      '--depth',
      '1',
      '--no-tags',
      '--single-branch',
      '--no-recurse-submodules',
      ...pick,
      '--',
      url,
      target,
    ],
    options.home,
    options,
  );
  return target;
}

/** `path` inside `root`: relative, no step out, no symlink on the way. */
export async function insideCheckout(root: string, path: string): Promise<string> {
  if (isAbsolute(path))
    throw new RefusedInput(`--path ${JSON.stringify(path)} must be relative to the repository`);
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new RefusedInput(`--path ${JSON.stringify(path)} leads out of the repository`);
  let at = root;
  for (const part of rel.split(sep).filter(Boolean)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (!info)
      throw new NotInRepository(
        `--path ${JSON.stringify(path)}: ${JSON.stringify(relative(root, at))} is not in the repository`,
      );
    if (info.isSymbolicLink())
      throw new RefusedInput(
        `--path ${JSON.stringify(path)}: ${JSON.stringify(relative(root, at))} is a symlink (refused: it could point outside the repository)`,
      );
  }
  const real = await realpath(full);
  const realRoot = await realpath(root);
  if (real !== realRoot && !real.startsWith(`${realRoot}${sep}`))
    throw new RefusedInput(`--path ${JSON.stringify(path)} leads out of the repository`);
  return full;
}

const MANIFEST = /\.(ya?ml)$/i;

/** The YAML files at `full` (a file, or a folder walked), each checked: no symlink, none too big. */
export async function manifestFiles(root: string, full: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (at: string): Promise<void> => {
    const info = await lstat(at);
    const shown = JSON.stringify(relative(root, at) || '.');
    if (info.isSymbolicLink())
      throw new RefusedInput(`${shown} is a symlink (refused: it could point outside the repository)`);
    if (info.isDirectory()) {
      if (at.endsWith(`${sep}.git`)) return;
      for (const entry of (await readdir(at)).sort()) await visit(join(at, entry));
      return;
    }
    if (!info.isFile() || (!MANIFEST.test(at) && at !== full)) return;
    if (info.size > MAX_FILE_BYTES)
      throw new RefusedInput(
        `${shown} is ${info.size} bytes, over the ${MAX_FILE_BYTES} a manifest file may be`,
      );
    found.push(at);
    if (found.length > MAX_FILES) throw new RefusedInput(`more than ${MAX_FILES} files under the path`);
  };
  await visit(full);
  return found;
}
