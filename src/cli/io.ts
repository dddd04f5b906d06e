import type { Readable, Writable } from 'node:stream';

/** The process's streams, injected so commands can be tested in-process. */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

export const EXIT = { ok: 0, problems: 1, usage: 2, cluster: 3, internal: 4 } as const;

/** Bad arguments or input: exit 2 with the message, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export async function readAll(stream: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The stream's text, or undefined as soon as it holds more than `limit` bytes (reading stops there). */
export async function readAllWithin(stream: CliIo['stdin'], limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}
