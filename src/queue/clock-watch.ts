/**
 * This process's clock against Redis's: Redis is the one server every app
 * replica and worker talks to, so its TIME is the reference they are compared with.
 * Read at start and every minute; the offset is this clock minus Redis's, less half the
 * round trip's uncertainty. Beyond CLOCK_SKEW_TOLERANCE_MS (src/trust/clock-skew.ts)
 * the process logs it (once, and again when it is back within) and the metric
 * `rollout_doctor_clock_offset_seconds` shows it.
 *
 * `now()` is Redis's time as this process reckons it: this clock less the
 * latest offset, so the expiries and leases a process writes or checks across processes
 * agree even where its own clock is off, and a skewed worker keeps working. A reading
 * counts while it is fresh (younger than three periods); without one Redis's clock is
 * unknown, `now()` is this clock, and a clock last seen beyond the tolerance makes
 * `problem()` the sentence a person is answered with (and health shows) instead of
 * running work whose times would be wrong. A step of this clock between two readings
 * shows in `now()` until the next reading (a minute at most).
 */
import type { Redis } from 'ioredis';
import { CLOCK_SKEW_TOLERANCE_MS, offsetWords } from '../trust/clock-skew.js';

interface ClockReading {
  /** This clock minus Redis's, in ms (positive: ahead). */
  offsetMs: number;
  /** Half the TIME round trip: the offset is known to within this. */
  uncertaintyMs: number;
  /** Redis's time at the reading. */
  redisAt: number;
}

/** One reading of `redis`'s TIME against this clock. */
export async function readClockOffset(
  redis: Pick<Redis, 'time'>,
  now: () => number = Date.now,
): Promise<ClockReading> {
  const before = now();
  const [seconds, micros] = await redis.time();
  const after = now();
  const redisAt = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  return {
    offsetMs: Math.round((before + after) / 2 - redisAt),
    uncertaintyMs: Math.ceil((after - before) / 2),
    redisAt,
  };
}

/** Whether a reading shows a skew beyond the tolerance, whatever its uncertainty. */
export function beyondTolerance(reading: ClockReading): boolean {
  return Math.abs(reading.offsetMs) - reading.uncertaintyMs > CLOCK_SKEW_TOLERANCE_MS;
}

export interface ClockWatch {
  /** The latest reading; undefined until Redis answered TIME once. */
  reading(): ClockReading | undefined;
  /** Now by Redis's clock (ms) while a reading is fresh; this clock otherwise. */
  now(): number;
  /**
   * The clock named for a person (and /readyz) when it is off beyond the tolerance and
   * Redis's clock is unknown (no fresh reading to take times from); undefined otherwise.
   */
  problem(): string | undefined;
  stop(): void;
}

/** How many reading periods a reading stays fresh: a missed TIME or two keeps the offset. */
const FRESH_PERIODS = 3;

/**
 * @param who how the process names itself ("this worker", "the app").
 * @param onReading each reading (the metric).
 */
/** What the watch logs through: pino's call shape, so queue/ needs nothing of src/logger.ts (the areas stay layered). */
interface ClockLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export function startClockWatch(
  redis: Pick<Redis, 'time'>,
  options: {
    who: string;
    logger: ClockLog;
    everyMs?: number;
    onReading?: (reading: ClockReading) => void;
    now?: () => number;
  },
): ClockWatch {
  // Date.now looked up at each call: a clock a test moves (vi.spyOn) moves this one too.
  const local = options.now ?? ((): number => Date.now());
  const everyMs = options.everyMs ?? 60_000;
  let latest: ClockReading | undefined;
  let takenAt = 0;
  let off = false;
  const fresh = (): ClockReading | undefined =>
    latest && Math.abs(local() - takenAt) <= FRESH_PERIODS * everyMs ? latest : undefined;
  const read = async (): Promise<void> => {
    let reading: ClockReading;
    try {
      reading = await readClockOffset(redis, local);
    } catch {
      return; // Redis away: the last reading stands while fresh; health reports Redis itself.
    }
    latest = reading;
    takenAt = local();
    options.onReading?.(reading);
    const beyond = beyondTolerance(reading);
    if (beyond && !off)
      options.logger.warn(
        { offsetMs: reading.offsetMs, toleranceMs: CLOCK_SKEW_TOLERANCE_MS },
        `${options.who}'s clock is ${offsetWords(reading.offsetMs)} Redis's: beyond the ${CLOCK_SKEW_TOLERANCE_MS / 1000} s rollout-doctor tolerates; it takes expiry and lease times from Redis's clock meanwhile; fix time sync (NTP, chrony) on its node`,
      );
    if (!beyond && off)
      options.logger.info(
        { offsetMs: reading.offsetMs },
        `${options.who}'s clock is back in step with Redis's`,
      );
    off = beyond;
  };
  void read();
  const timer = setInterval(() => void read(), everyMs);
  timer.unref();
  return {
    reading: () => latest,
    now() {
      const reading = fresh();
      return reading ? local() - reading.offsetMs : local();
    },
    problem() {
      if (!latest || !beyondTolerance(latest) || fresh()) return undefined;
      return `${options.who}'s clock is ${offsetWords(latest.offsetMs)} Redis's (more than the ${CLOCK_SKEW_TOLERANCE_MS / 1000} s tolerated): fix time sync (NTP, chrony) on its node`;
    },
    stop: () => clearInterval(timer),
  };
}
