/**
 * Runs the controllers: each reacts to store changes by marking work, and a pass
 * (scheduled on the next tick) lets every controller sync until none has work.
 * Delayed work (readiness, crash, back-off, progress deadline) goes through
 * `after`, scaled by timeScale; timers marked `settles` are waited for by settle().
 */
import type { LogStore } from '../logs.js';
import type { ChangeEvent, Store } from '../store.js';

import { createReadinessGate, type ReadinessGate } from './readiness-gate.js';

export interface ControllerContext {
  store: Store;
  logs: LogStore;
  timeScale: number;
  /** Runs `fn` after `simSeconds` of simulated time. */
  after(simSeconds: number, fn: () => void, options?: { settles?: boolean }): void;
  /** Holds containers not-Ready until a test releases them (readiness-gate.ts). */
  readiness: ReadinessGate;
}

export interface Controller {
  name: string;
  /** Marks work for a change; must not write. */
  observe(event: ChangeEvent): void;
  /** Does pending work; returns true when it still has work left. */
  sync(): boolean;
}

export interface ControllerManager {
  context: ControllerContext;
  add(controller: Controller): void;
  /** Resolves when no controller has work and no settling timer is pending (or after the bound). */
  settle(timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** Creates the manager and subscribes it to the store. */
export function createControllerManager(store: Store, logs: LogStore, timeScale: number): ControllerManager {
  const controllers: Controller[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let settlingTimers = 0;
  let scheduled = false;
  let running = false;
  let stopped = false;

  const schedule = (): void => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(runPass);
  };

  const runPass = (): void => {
    scheduled = false;
    if (stopped) return;
    running = true;
    try {
      for (let round = 0; round < 50; round += 1) {
        let more = false;
        for (const c of controllers) more = c.sync() || more;
        if (!more) break;
      }
    } finally {
      running = false;
    }
  };

  const context: ControllerContext = {
    store,
    logs,
    timeScale,
    readiness: createReadinessGate(),
    after(simSeconds, fn, options = {}) {
      if (stopped) return;
      const settles = options.settles ?? false;
      if (settles) settlingTimers += 1;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          if (settles) settlingTimers -= 1;
          if (stopped) return;
          fn();
          schedule();
        },
        Math.max(0, (simSeconds * 1000) / timeScale),
      );
      timers.add(timer);
    },
  };

  const unsubscribe = store.subscribe((event) => {
    for (const c of controllers) c.observe(event);
    if (!running) schedule();
  });

  return {
    context,
    add(controller) {
      controllers.push(controller);
      // Objects loaded before the controller existed are its initial work.
      for (const kind of store.kinds()) {
        for (const object of store.list(kind))
          controller.observe({ rv: store.resourceVersion, type: 'ADDED', kind, object });
      }
      schedule();
    },
    async settle(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let quietSince = 0;
      while (Date.now() < deadline) {
        const busy = scheduled || running || settlingTimers > 0;
        if (!busy) {
          if (quietSince === 0) quietSince = Date.now();
          // Two quiet checks a few ms apart: a timer callback may just have queued a pass.
          if (Date.now() - quietSince >= 5) return;
        } else quietSince = 0;
        await new Promise((r) => setTimeout(r, 2));
      }
    },
    stop() {
      stopped = true;
      unsubscribe();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
