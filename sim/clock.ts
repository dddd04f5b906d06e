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

/**
 * Where the simulator's names and uids take their randomness. Math.random and
 * crypto's uuids by default; a stepped simulation installs a seeded stream, so the same
 * scenario run twice names every generated object alike (a judge replays a state once
 * per plan it tries: sim/stepped.ts).
 */
let randomSource: (() => number) | undefined;

/** A number in [0, 1) from the installed stream, or Math.random. */
export function simRandom(): number {
  return randomSource ? randomSource() : Math.random();
}

/** A v4-shaped uid from the installed stream, or crypto.randomUUID. */
export function simUid(): string {
  if (!randomSource) return crypto.randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(simRandom() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Installs a seeded stream for names and uids; returns the function that restores the previous one. */
export function installRandom(next: () => number): () => void {
  const previous = randomSource;
  randomSource = next;
  return () => {
    randomSource = previous;
  };
}
