/**
 * Everything the demo started, undone once at exit: on success, failure, timeout or
 * a signal. A resource still being created when cleanup begins is awaited and then
 * undone, so nothing outlives the demo.
 */
import { DemoError } from './demo-error.js';

export interface Cleanup {
  /** Creates a resource unless cleanup began (then rejects with DemoError('interrupted')). */
  starting<T>(create: () => Promise<T>): Promise<T>;
  /** Registers how to undo something; after cleanup began it is undone at once. */
  register(name: string, run: () => Promise<void>): void;
  /** Undoes everything, newest first; idempotent. */
  run(): Promise<void>;
  readonly began: boolean;
}

export function createCleanup(say: (line: string) => void): Cleanup {
  /** Things to undo, newest first. */
  const steps: { name: string; run: () => Promise<void> }[] = [];
  /** Resources being created right now (a redis-server starting, say). */
  const pending = new Set<Promise<unknown>>();
  /** Undo steps of resources that arrived after cleanup began. */
  const late: Promise<void>[] = [];
  let cleaning: Promise<void> | undefined;

  return {
    get began() {
      return cleaning !== undefined;
    },
    starting(create) {
      if (cleaning) return Promise.reject(new DemoError('interrupted'));
      const work = create();
      pending.add(work);
      work.then(
        () => pending.delete(work),
        () => pending.delete(work),
      );
      return work;
    },
    register(name, run) {
      if (cleaning) {
        late.push(run().catch(() => undefined));
        return;
      }
      steps.push({ name, run });
    },
    run() {
      cleaning ??= (async () => {
        for (const step of steps.reverse()) {
          await step
            .run()
            .catch((error: unknown) => say(`  (cleanup of ${step.name} failed: ${String(error)})`));
        }
        // Whatever was still starting registers (and is undone at once) when it finishes.
        await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 10_000))]);
        await new Promise((r) => setTimeout(r, 0));
        await Promise.allSettled(late);
      })();
      return cleaning;
    },
  };
}

/**
 * Runs a script's `main` until it ends or is interrupted. Ctrl-C, SIGTERM, SIGHUP or a
 * closed stdout stop everything it started (the app and the worker run in process
 * groups of their own, so the terminal's Ctrl-C reaches only the script, which stops
 * them in order) and exit 130, quietly: one line, no failure report, no stack trace.
 * Shared by `npm run demo` and `npm run preview`.
 */
export function runScript(
  name: string,
  main: (interrupted: () => boolean, signal: AbortSignal) => Promise<number>,
  cleanup: Cleanup,
  say: (line: string) => void,
): void {
  let interrupted = false;
  // Aborted first, before anything is stopped: the script's steps check it before they
  // act and its waits end on it, so nothing more happens while cleanup runs.
  const stopping = new AbortController();
  const interrupt = (why: string): void => {
    if (interrupted) return;
    interrupted = true;
    stopping.abort(new DemoError(`interrupted (${why})`));
    try {
      say(`\n${why}: stopping everything the ${name} started…`);
    } catch {
      // stdout is gone (closed pipe): clean up silently
    }
    void cleanup.run().then(
      () => process.exit(130),
      () => process.exit(130),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => interrupt(signal));
  // `npm run demo | head` closes our stdout early: still stop the processes we started.
  process.stdout.on('error', () => interrupt('stdout closed'));
  main(() => interrupted, stopping.signal).then(
    (code) => process.exit(interrupted ? 130 : code),
    (error: unknown) => {
      if (!interrupted) say(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      void cleanup.run().then(() => process.exit(interrupted ? 130 : 1));
    },
  );
}
