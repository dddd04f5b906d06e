/**
 * Reading `check -f PATH` as `kubectl apply -R -f PATH` reads it: a file (whatever its
 * name), a folder (its .yaml, .yml and .json files, names matched case-sensitively and
 * walked in byte order, sub-folders included, files reached through a symlink read), or
 * "-" for stdin. What kubectl cannot read is refused instead of skipped: a symlink to a
 * folder (kubectl's walk opens it as a file), a broken symlink, and anything that is not
 * a regular file (a FIFO would hang the gate, /dev/zero would never end). All input
 * together is bounded (MAX_INPUT_BYTES). Every mistake is a ManifestError (exit 2) naming
 * the path; so is stdin or a file named on its own that holds no manifest at all
 * (`helm template … | check -f -` where helm failed).
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { emptyManifestSet, ManifestError, parseManifests, type ManifestSet } from './manifests.js';
import { apiShape, decodeProblem, pathText } from './api-decode.js';

/** The file names kubectl reads in a folder (resource.FileExtensions), case-sensitive as it matches them. */
const MANIFEST_FILE = /\.(yaml|yml|json)$/;
/**
 * All manifests of one run together: a rendered chart with its CRDs is a few MiB. What
 * parsing holds is bounded apart from this, per document (yaml-documents.ts: its
 * tokens counted first, one document held at a time), since a few MiB of a hostile
 * flow sequence would otherwise cost gigabytes.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

interface ManifestSources {
  /** Standard input, or undefined once it holds more than `limit` bytes. */
  readStdin: (limit: number) => Promise<string | undefined>;
}

export async function readManifests(
  paths: readonly string[],
  sources: ManifestSources,
): Promise<ManifestSet> {
  const set = emptyManifestSet();
  const budget = { left: MAX_INPUT_BYTES };
  let stdinRead = false;
  // A file named twice (`-f a.yaml -f .`) is judged once.
  const read = new Set<string>();
  for (const path of paths) {
    if (path === '-') {
      if (stdinRead) throw new ManifestError('"-" (stdin) given twice');
      stdinRead = true;
      const text = await sources.readStdin(budget.left);
      if (text === undefined || Buffer.byteLength(text) > budget.left) throw tooLarge('"-" (stdin)');
      budget.left -= Buffer.byteLength(text);
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
      const text = await readText(file, budget);
      // A file named on its own that holds nothing is a mistake (a render that failed);
      // an empty file in a folder is one the folder happens to hold.
      if (files.length === 1 && file === path && blank(text))
        throw new ManifestError(`${file} is empty: no manifest in it`);
      merge(set, parseManifests(text, file));
    }
  }
  await refuseUndecodable(set);
  return set;
}

/** A workload the API server cannot decode is bad input at its line (api-decode.ts). */
async function refuseUndecodable(set: ManifestSet): Promise<void> {
  if (set.workloads.length === 0) return;
  const shape = await apiShape();
  for (const workload of set.workloads) {
    const found = decodeProblem(shape, workload.kind, workload.object);
    if (!found) continue;
    const at = workload.locate(pathText(found.path)) ?? workload.at;
    throw new ManifestError(`${at.file}:${at.line}: ${found.problem}`);
  }
}

function tooLarge(what: string): ManifestError {
  return new ManifestError(
    `${what}: the manifests come to more than ${MAX_INPUT_BYTES / 1024 / 1024} MiB in all, more than check reads`,
  );
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
  into.priorityClasses.push(...from.priorityClasses);
  into.resourceQuotas.push(...from.resourceQuotas);
  into.limitRanges.push(...from.limitRanges);
  into.created.push(...from.created);
}

function cannotRead(path: string, error: NodeJS.ErrnoException): ManifestError {
  const why = error.code === 'ENOENT' ? 'no such file or folder' : (error.code ?? String(error));
  return new ManifestError(`cannot read ${path}: ${why}`);
}

/** What a path is, in the words an error gives it. */
function typeWords(info: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function special(path: string, what: string): ManifestError {
  return new ManifestError(
    `${path} is ${what}, not a file of manifests: check reads regular files and folders (a pipe goes to -f -)`,
  );
}

async function filesOf(path: string): Promise<string[]> {
  // kubectl stats the named path (following a symlink), then walks it without following:
  // a named symlink is read as a file, so one to a folder fails there.
  const [target, link] = await Promise.all([stat(path), lstat(path)]).catch(
    (error: NodeJS.ErrnoException) => {
      throw cannotRead(path, error);
    },
  );
  if (target.isDirectory()) {
    if (link.isSymbolicLink())
      throw new ManifestError(
        `${path} is a symlink to a folder: kubectl apply -f reads it as a file and fails; name the folder itself`,
      );
    return walkFolder(path);
  }
  if (!target.isFile()) throw special(path, typeWords(target));
  return [path];
}

async function walkFolder(path: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    // filepath.Walk: names in byte order.
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      // kubectl skips what does not end in its extensions, symlinks and special files included.
      if (!MANIFEST_FILE.test(entry.name)) continue;
      if (entry.isFile()) {
        found.push(full);
        continue;
      }
      if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => undefined);
        if (!target)
          throw new ManifestError(
            `${full} is a symlink to nothing that can be read: kubectl apply -R fails on it`,
          );
        if (target.isDirectory())
          throw new ManifestError(
            `${full} is a symlink to a folder: kubectl apply -R opens it as a file and fails; name the folder itself`,
          );
        if (!target.isFile()) throw special(full, `a symlink to ${typeWords(target)}`);
        found.push(full);
        continue;
      }
      throw special(full, typeWords(entry));
    }
  };
  await walk(path);
  if (found.length === 0) throw new ManifestError(`${path} holds no .yaml, .yml or .json file`);
  return found;
}

/**
 * A regular file's text within what the budget has left. Opened without blocking and
 * checked on the open descriptor, so a file swapped for a FIFO or a device after the walk
 * is refused rather than waited on or read without end.
 */
async function readText(file: string, budget: { left: number }): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw cannotRead(file, error);
    },
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw special(file, typeWords(info));
    if (info.size > budget.left) throw tooLarge(file);
    const bytes = await handle.readFile();
    if (bytes.length > budget.left) throw tooLarge(file);
    budget.left -= bytes.length;
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
