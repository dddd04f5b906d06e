/**
 * Every time limit of the tests, in one place (issue 55): vitest's per-test and per-hook
 * limits (vitest*.config.ts read them from here), the limit of a test that plays a whole
 * story, and how long a wait for a signal (a record, an event, a log line, a request the
 * stand-in saw) lasts before it fails. A limit only bounds a test that is already
 * failing: a passing test ends at its signal, so the limits are generous, sized for a
 * 2-core machine several other runs share (load 5-10).
 *
 * `ROLLOUT_DOCTOR_TEST_TIME_SCALE` (a positive number, default 1) multiplies them all,
 * for a machine slower still. Time a test asserts as behaviour (Slack's 3-second
 * acknowledgement, a deadline the product keeps) is not a limit and is not scaled.
 */
import { z } from 'zod';

const scaleSchema = z.coerce.number().positive().default(1);

/** The factor from ROLLOUT_DOCTOR_TEST_TIME_SCALE (default 1); a bad value stops the run, naming it. */
export function timeScale(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ROLLOUT_DOCTOR_TEST_TIME_SCALE;
  const parsed = scaleSchema.safeParse(raw === '' ? undefined : raw);
  if (!parsed.success)
    throw new Error(`ROLLOUT_DOCTOR_TEST_TIME_SCALE must be a positive number, got "${raw ?? ''}"`);
  return parsed.data;
}

const SCALE = timeScale();

/** `ms` times the scale, rounded to a whole millisecond. */
export function scaled(ms: number): number {
  return Math.round(ms * SCALE);
}

/** vitest's testTimeout: one test, from its start to its last assertion. */
export const TEST_TIMEOUT_MS = scaled(120_000);
/** vitest's hookTimeout: a beforeAll that starts Redis, a simulator, an app process. */
export const HOOK_TIMEOUT_MS = scaled(180_000);
/** A test that plays a whole story: the demo, a drill, an end-to-end run with processes. */
export const STORY_TIMEOUT_MS = scaled(600_000);
/**
 * The story limit as a describe option, for a file whose every test plays a whole story:
 * `describe(name, STORY, fn)`. An option, not a change of the runner's config, so the file
 * can share its worker's modules (vitest.config.ts).
 */
export const STORY = { timeout: STORY_TIMEOUT_MS } as const;
/** How long a wait for a signal lasts before it fails, naming what it waited for. */
export const SIGNAL_WAIT_MS = scaled(60_000);
/** A child process (a CLI run, kubectl, helm) that should answer in a second or two. */
export const PROCESS_TIMEOUT_MS = scaled(60_000);
