/**
 * Reading `check -f PATH`: a file, a folder (its *.yaml, *.yml and *.json files, sorted,
 * sub-folders included, as `kubectl apply -R -f` reads them), or "-" for stdin. Every
 * mistake is a ManifestError (exit 2) naming the path; so is stdin or a file named on its
 * own that holds no manifest at all (`helm template … | check -f -` where helm failed).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ManifestError, parseManifests, type ManifestSet } from './manifests.js';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;
/** Manifests past this size are refused: `check` reads them whole. */
const MAX_BYTES = 64 * 1024 * 1024;

export interface ManifestSources {
  readStdin: () => Promise<string>;
}

export async function readManifests(
  paths: readonly string[],
  sources: ManifestSources,
): Promise<ManifestSet> {
  const set: ManifestSet = { workloads: [], others: 0 };
  let stdinRead = false;
  // A file named twice (`-f a.yaml -f .`) is judged once.
  const read = new Set<string>();
  for (const path of paths) {
    if (path === '-') {
      if (stdinRead) throw new ManifestError('"-" (stdin) given twice');
      stdinRead = true;
      const text = await sources.readStdin();
      if (blank(text))
        throw new ManifestError(
          '"-" (stdin) is empty: no manifest came in (did the command that writes them fail?)',
        );
      merge(set, parseManifests(text, '-'));
      continue;
    }
    const files = await filesOf(path);
    for (const file of files) {
      const key = resolve(file);
      if (read.has(key)) continue;
      read.add(key);
      const text = await readText(file);
      // A file named on its own that holds nothing is a mistake (a render that failed);
      // an empty file in a folder is one the folder happens to hold.
      if (files.length === 1 && file === path && blank(text))
        throw new ManifestError(`${file} is empty: no manifest in it`);
      merge(set, parseManifests(text, file));
    }
  }
  return set;
}

/** Nothing but white space, comments and document markers: no manifest, not even an empty object. */
function blank(text: string): boolean {
  return text
    .split(/\r?\n|\r/)
    .every((line) => /^\s*(#.*)?$/.test(line) || /^(---|\.\.\.)\s*(#.*)?$/.test(line));
}

function merge(into: ManifestSet, from: ManifestSet): void {
  into.workloads.push(...from.workloads);
  into.others += from.others;
}

async function filesOf(path: string): Promise<string[]> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new ManifestError(
      `cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file or folder' : (error.code ?? String(error))}`,
    );
  });
  if (!info.isDirectory()) return [path];
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && MANIFEST_FILE.test(entry.name)) found.push(full);
    }
  };
  await walk(path);
  if (found.length === 0) throw new ManifestError(`${path} holds no .yaml, .yml or .json file`);
  return found;
}

async function readText(file: string): Promise<string> {
  const info = await stat(file);
  if (info.size > MAX_BYTES) throw new ManifestError(`${file} is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
  return readFile(file, 'utf8');
}
