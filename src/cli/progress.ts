/**
 * A progress line for long dump reads: on stderr, only when both stdout and stderr are
 * a terminal (never in `-o json`, never when piped), only for dumps large enough to
 * take a while, rewritten in place at most once per whole percent and erased when done.
 */
import type { CliIo } from './io.js';

/** Dumps smaller than this read in well under a second: no progress line. */
export const PROGRESS_MIN_CHARACTERS = 4 << 20;

interface Progress {
  update(fraction: number): void;
  done(): void;
}

const silent: Progress = { update: () => undefined, done: () => undefined };

/** The progress line for reading `label` (`size` characters), or one that prints nothing. */
export function dumpProgress(io: CliIo, label: string, size: number, output: 'text' | 'json'): Progress {
  const stderr = io.stderr as CliIo['stderr'] & { isTTY?: boolean };
  if (output === 'json' || !stderr.isTTY || !io.stdout.isTTY || size < PROGRESS_MIN_CHARACTERS) return silent;
  const megabytes = (size / (1 << 20)).toFixed(0);
  let shown = -1;
  let drawn = false;
  return {
    update(fraction) {
      const percent = Math.floor(Math.min(1, Math.max(0, fraction)) * 100);
      if (percent === shown) return;
      shown = percent;
      drawn = true;
      stderr.write(`\rreading ${label} (${megabytes} MB): ${percent}%\u001b[K`);
    },
    done() {
      if (drawn) stderr.write('\r\u001b[K');
    },
  };
}
