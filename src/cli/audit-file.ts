/**
 * Reading an audit log for `postmortem --from-audit FILE`: a regular file (not a
 * directory, a FIFO or a device, which could block or never end), no larger than a
 * bound, checked on the open descriptor so the file read is the file checked. Every
 * problem is a UsageError (exit 2) naming the file.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { cannotRead, usageError } from './usage-words.js';

/** The largest audit log read (a month of a busy installation's audit lines is far less). */
export const MAX_AUDIT_BYTES = 256 * 1024 * 1024;

/** The text of the audit log `file`; anything but a readable regular file within the bound is refused. */
export async function readAuditFile(file: string, maxBytes = MAX_AUDIT_BYTES): Promise<string> {
  let handle;
  try {
    // Non-blocking, so opening a FIFO with no writer does not hang before the check.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw cannotRead(file, code || String(error));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw usageError('notRegularFile', { file });
    if (stat.size > maxBytes)
      throw usageError('auditTooLarge', {
        file,
        size: stat.size,
        bound: maxBytes,
        grep: `grep '"audit":true'`,
      });
    const text = await handle.readFile({ encoding: 'utf8' });
    // A file that grew between the check and the read is held to the bound too.
    if (Buffer.byteLength(text) > maxBytes) throw usageError('auditGrew', { file, bound: maxBytes });
    return text;
  } finally {
    await handle.close();
  }
}
