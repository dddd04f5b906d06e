/**
 * Reading a dump for the command line (`--from-file FILE`, "-" for stdin): the file,
 * then the objects, every mistake a UsageError (exit 2) naming the file.
 */
import { readFile } from 'node:fs/promises';
import { DumpError, loadObjects, type LoadOptions } from '../diagnosis/dump/dump.js';
import type { KubeObject } from '../diagnosis/k8s.js';
import { readAll, UsageError, type CliIo } from './io.js';

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

/** Runs `use` on the dump's objects; a DumpError from either step names the file. */
export async function withDump<T>(
  file: string,
  io: CliIo,
  options: LoadOptions,
  use: (objects: KubeObject[]) => T,
): Promise<T> {
  const text = await readDumpText(file, io);
  try {
    return use(loadObjects(text, options));
  } catch (error) {
    if (error instanceof DumpError)
      throw new UsageError(`${file === '-' ? 'stdin' : file}: ${error.message}`);
    throw error;
  }
}
