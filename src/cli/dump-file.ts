/**
 * Reading a dump for the command line (`--from-file FILE`, "-" for stdin): the file,
 * then the objects, every mistake a UsageError (exit 2) naming the file.
 */
import { readFile } from 'node:fs/promises';
import { DumpError, loadObjects, type LoadOptions } from '../diagnosis/snapshot/dump/dump.js';
import type { KubeObject } from '../diagnosis/k8s.js';
import { readAll, UsageError, type CliIo } from './io.js';
import { dumpProgress } from './progress.js';
import { cleanText, quoted } from '../text/clean.js';

/** Why a file could not be read, by its error code (the path is said once, quoted). */
const READ_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  ENAMETOOLONG: 'the name is too long',
  ENOTDIR: 'a part of the path is not a directory',
};

/** The dump's text; a missing file or a directory is a UsageError. */
export async function readDumpText(file: string, io: CliIo): Promise<string> {
  try {
    return file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${quoted(file)}: ${READ_PROBLEMS[code ?? ''] ?? code ?? String(error)}`,
    );
  }
}

/**
 * Runs `use` on the dump's objects; a DumpError from either step names the file. A
 * large dump shows its progress on a terminal unless the output is JSON (progress.ts).
 */
export async function withDump<T>(
  file: string,
  io: CliIo,
  options: LoadOptions,
  use: (objects: KubeObject[]) => T,
  output: 'text' | 'json' = 'text',
): Promise<T> {
  const text = await readDumpText(file, io);
  const label = file === '-' ? 'stdin' : file;
  const progress = dumpProgress(io, cleanText(label), text.length, output);
  try {
    return use(loadObjects(text, { ...options, progress: (fraction) => progress.update(fraction) }));
  } catch (error) {
    if (error instanceof DumpError) throw new UsageError(`${label}: ${error.message}`);
    throw error;
  } finally {
    progress.done();
  }
}
