/**
 * Reading an audit log for `postmortem --from-audit FILE`: a regular file (not a
 * directory, a FIFO or a device, which could block or never end), no larger than a
 * bound, checked on the open descriptor so the file read is the file checked. Every
 * problem is a UsageError (exit 2) naming the file.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { quoted } from '../text/clean.js';
import { UsageError } from './io.js';

/** The largest audit log read (a month of a busy installation's audit lines is far less). */
export const MAX_AUDIT_BYTES = 256 * 1024 * 1024;

const READ_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  ENAMETOOLONG: 'the name is too long',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

/** The text of the audit log `file`; anything but a readable regular file within the bound is refused. */
export async function readAuditFile(file: string, maxBytes = MAX_AUDIT_BYTES): Promise<string> {
  let handle;
  try {
    // Non-blocking, so opening a FIFO with no writer does not hang before the check.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`cannot read ${quoted(file)}: ${READ_PROBLEMS[code] ?? (code || String(error))}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UsageError(`${quoted(file)} is not a regular file`);
    if (stat.size > maxBytes)
      throw new UsageError(
        `${quoted(file)} is ${stat.size} bytes, over the ${maxBytes}-byte bound: cut it to the incident's days (grep '"audit":true')`,
      );
    const text = await handle.readFile({ encoding: 'utf8' });
    // A file that grew between the check and the read is held to the bound too.
    if (Buffer.byteLength(text) > maxBytes)
      throw new UsageError(`${quoted(file)} grew over the ${maxBytes}-byte bound`);
    return text;
  } finally {
    await handle.close();
  }
}
