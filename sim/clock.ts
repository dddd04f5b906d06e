/**
 * The simulator's "now". Real time by default; a stepped simulation (sim/stepped.ts)
 * installs a virtual clock that only moves when the simulation advances it, so a run
 * of sim-minutes takes milliseconds and every timestamp it writes (creation, events,
 * conditions, deletion deadlines) is on that clock. One stepped simulation per process
 * at a time: the clock is the process's.
 */
let source: () => number = Date.now;

/** Milliseconds since the epoch on the simulator's clock. */
export function simNow(): number {
  return source();
}

/** Installs `now` as the simulator's clock; returns the function that restores the previous one. */
export function installClock(now: () => number): () => void {
  const previous = source;
  source = now;
  return () => {
    source = previous;
  };
}
