/**
 * Everything the demo started, undone once at exit: on success, failure, timeout or
 * a signal. A resource still being created when cleanup begins is awaited and then
 * undone, so nothing outlives the demo.
 */
import { DemoError } from './redis.js';

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
