/**
 * Runs the controllers: each reacts to store changes by marking work, and a pass
 * (scheduled on the next tick) lets every controller sync until none has work.
 * Delayed work (readiness, crash, back-off, progress deadline) goes through
 * `after`, scaled by timeScale; timers marked `settles` are waited for by settle().
 */
import type { LogStore } from '../logs.js';
import type { ChangeEvent, Store } from '../store.js';
import { installClock } from '../clock.js';

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
  /**
   * Virtual clock only (createControllerManager's `clock: 'virtual'`): runs passes
   * until no controller has work, then fires timers in time order, moving the clock to
   * each, until `done()` holds or the next timer lies past `horizonSeconds` of sim time
   * (the clock then stands at the horizon). Returns whether `done()` held.
   */
  advance(done: () => boolean, horizonSeconds: number): boolean;
  /**
   * Real clock only: stops time for the controllers. Pending timers (a crash-loop's next
   * restart, a progress deadline) keep what was left of their wait and fire only after
   * `resumeClock`; passes still run on writes. A preview or test that must show one exact
   * moment (a restart count) holds the cluster there whatever the machine's load.
   */
  pauseClock(): void;
  resumeClock(): void;
  stop(): void;
}

export interface ManagerOptions {
  /**
   * 'real' (default): timers are setTimeout scaled by timeScale, passes run on the
   * next tick. 'virtual': nothing runs by itself; `advance` drives passes and timers on
   * the clock it installs (sim/clock.ts), for generated-state runs of sim-hours in
   * milliseconds.
   */
  clock?: 'real' | 'virtual';
  /** Virtual clock: where it starts (ms since the epoch; default now). */
  startMs?: number;
}

interface VirtualTimer {
  at: number;
  seq: number;
  fn: () => void;
  settles: boolean;
}

/** Creates the manager and subscribes it to the store. */
export function createControllerManager(
  store: Store,
  logs: LogStore,
  timeScale: number,
  options: ManagerOptions = {},
): ControllerManager {
  const virtual = options.clock === 'virtual';
  const controllers: Controller[] = [];
  /** Real clock: each pending timer with the wall time it is due at, and those held while paused. */
  const timers = new Map<NodeJS.Timeout, { dueMs: number; fire: () => void }>();
  let held: { waitMs: number; fire: () => void }[] | undefined;
  const queued: VirtualTimer[] = [];
  let clockMs = options.startMs ?? Date.now();
  let seq = 0;
  const restoreClock = virtual ? installClock(() => clockMs) : undefined;
  let settlingTimers = 0;
  let scheduled = false;
  let running = false;
  let stopped = false;

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

  const schedule = (): void => {
    if (scheduled || stopped) return;
    scheduled = true;
    if (!virtual) setImmediate(runPass);
  };

  const context: ControllerContext = {
    store,
    logs,
    timeScale: virtual ? 1 : timeScale,
    readiness: createReadinessGate(),
    after(simSeconds, fn, options = {}) {
      if (stopped) return;
      const settles = options.settles ?? false;
      if (settles) settlingTimers += 1;
      const fire = (): void => {
        if (settles) settlingTimers -= 1;
        if (stopped) return;
        fn();
        schedule();
      };
      if (virtual) {
        queued.push({ at: clockMs + Math.max(0, simSeconds * 1000), seq: (seq += 1), fn: fire, settles });
        return;
      }
      startTimer(Math.max(0, (simSeconds * 1000) / timeScale), fire);
    },
  };

  function startTimer(waitMs: number, fire: () => void): void {
    if (held) {
      held.push({ waitMs, fire });
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      fire();
    }, waitMs);
    timers.set(timer, { dueMs: Date.now() + waitMs, fire });
  }

  const unsubscribe = store.subscribe((event) => {
    for (const c of controllers) c.observe(event);
    if (!running) schedule();
  });

  /** Virtual clock: the earliest timer (time, then the order it was set), taken off the queue. */
  const nextTimer = (horizonMs: number): VirtualTimer | undefined => {
    let best = -1;
    queued.forEach((t, i) => {
      const b = queued[best];
      if (t.at <= horizonMs && (!b || t.at < b.at || (t.at === b.at && t.seq < b.seq))) best = i;
    });
    return best < 0 ? undefined : queued.splice(best, 1)[0];
  };

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
        const busy = scheduled || running || (settlingTimers > 0 && !held);
        if (!busy) {
          if (quietSince === 0) quietSince = Date.now();
          // Two quiet checks a few ms apart: a timer callback may just have queued a pass.
          if (Date.now() - quietSince >= 5) return;
        } else quietSince = 0;
        await new Promise((r) => setTimeout(r, 2));
      }
    },
    advance(done, horizonSeconds) {
      if (!virtual) throw new Error('advance needs the virtual clock');
      const horizonMs = clockMs + horizonSeconds * 1000;
      for (;;) {
        while (scheduled && !stopped) runPass();
        if (done()) return true;
        const timer = nextTimer(horizonMs);
        if (!timer) {
          clockMs = Math.max(clockMs, horizonMs);
          return false;
        }
        clockMs = Math.max(clockMs, timer.at);
        timer.fn();
      }
    },
    pauseClock() {
      if (virtual) throw new Error('pauseClock needs the real clock');
      if (held) return;
      const now = Date.now();
      held = [...timers].map(([t, { dueMs, fire }]) => {
        clearTimeout(t);
        return { waitMs: Math.max(0, dueMs - now), fire };
      });
      timers.clear();
    },
    resumeClock() {
      const waiting = held ?? [];
      held = undefined;
      for (const { waitMs, fire } of waiting) startTimer(waitMs, fire);
    },
    stop() {
      stopped = true;
      unsubscribe();
      for (const t of timers.keys()) clearTimeout(t);
      timers.clear();
      held = undefined;
      queued.length = 0;
      restoreClock?.();
    },
  };
}
