/**
 * The one way a test waits for a signal (a record, an event, a log line, a request the
 * stand-in saw): poll until it holds, for at most SIGNAL_WAIT_MS (test/support/timeouts.ts),
 * then fail naming what never came. No test sleeps a fixed time where a signal exists.
 */
import { SIGNAL_WAIT_MS } from './timeouts.js';

/** Polls `predicate` every 20 ms until it returns a value, or throws naming `what`. */
export async function waitUntil<T>(
  what: string,
  predicate: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = SIGNAL_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
