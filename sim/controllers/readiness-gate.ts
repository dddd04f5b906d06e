/**
 * A test's hand on the kubelet's readiness: while held, a started container that would
 * turn Ready waits here (not-Ready, Running) until the test releases it, one pod at a
 * time or all at once. Lets a test prove a walker waits for Ready without racing the
 * simulator's clock: release is an explicit signal, never a sleep.
 */
export interface ReadinessGate {
  /** From now on, containers becoming Ready wait for `release`. */
  hold(): void;
  /** Lets the `count` oldest waiting containers turn Ready (all of them, and ends the hold, with no count). */
  release(count?: number): void;
  /** Containers waiting to turn Ready. */
  waiting(): number;
  /** For the kubelet: runs `ready` now, or keeps it until released. */
  pass(ready: () => void): void;
}

export function createReadinessGate(): ReadinessGate {
  let held = false;
  const parked: (() => void)[] = [];
  return {
    hold: () => {
      held = true;
    },
    release: (count) => {
      if (count === undefined) held = false;
      for (const ready of parked.splice(0, count ?? parked.length)) ready();
    },
    waiting: () => parked.length,
    pass: (ready) => {
      if (held) parked.push(ready);
      else ready();
    },
  };
}
