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
