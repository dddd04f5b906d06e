/**
 * Errors nothing awaited (a dependency throwing at import from a second, unawaited load;
 * a stray rejected promise) would end the process with Node's stack trace and status 1,
 * which scripts read as "problems found" (DESIGN.md §3). They are bugs: one line, exit 4.
 */
import { EXIT } from './io.js';
import { internalErrorLine } from './run-cli.js';

/** The part of `process` this needs, so a test can hand in its own. */
export interface ProcessLike {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
  exit(code: number): never;
  exitCode?: number | string | null | undefined;
  stderr: { write(text: string): unknown };
}

/** Installs the handlers; the line is printed once even if runCli already reported the same bug. */
export function exitFourOnStrayErrors(proc: ProcessLike, command: string | undefined): void {
  const onStray = (error: unknown): void => {
    if (proc.exitCode !== EXIT.internal) proc.stderr.write(internalErrorLine(command, error));
    proc.exit(EXIT.internal);
  };
  proc.on('uncaughtException', onStray);
  proc.on('unhandledRejection', onStray);
}

/** An output stream of the process (stdout, stderr), as far as its errors go. */
export interface OutputLike {
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * A reader that went away (`rollout-doctor scan -A | head -1`, a closed terminal) is not
 * a bug: what was left to print is dropped, and the command ends with its own status (an
 * EPIPE left unhandled ended `apply … | head -1` with exit 4, "internal error"). Any
 * other error of the stream (a full disk) stays one: thrown, so exit 4 with one line.
 */
export function dropOutputToClosedReaders(...streams: OutputLike[]): void {
  for (const stream of streams)
    stream.on('error', (error) => {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
}
