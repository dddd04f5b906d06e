/**
 * Reading a dump for the command line (`--from-file FILE`, "-" for stdin): the file,
 * then the objects, every mistake a UsageError (exit 2) naming the file.
 */
import { readFile } from 'node:fs/promises';
import { DumpError, loadObjects, type LoadOptions } from '../diagnosis/snapshot/dump/dump.js';
import type { KubeObject } from '../diagnosis/k8s.js';
import { readAll, UsageError, type CliIo } from './io.js';
import { dumpProgress } from './progress.js';
import { cleanText } from '../text/clean.js';

/** The dump's text; a missing file or a directory is a UsageError. */
export async function readDumpText(file: string, io: CliIo): Promise<string> {
  try {
    return file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(error)}`,
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
