import type { Simulator } from '../../sim/index.js';
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import { DemoError } from './redis.js';
import type { SlackUser } from './slack-user.js';

/** Who and where, in the demo's Slack workspace (ids as Slack formats them). */
export const PEOPLE = { oncall: 'U0ONCALL', lead: 'U0LEAD' } as const;
export const CHANNELS = { incidents: 'C0INCIDENTS', alerts: 'C0ALERTS' } as const;
export const CHANNEL_NAMES: Record<string, string> = {
  [CHANNELS.incidents]: '#incidents',
  [CHANNELS.alerts]: '#alerts',
};

/** Everything a story needs. */
export interface StoryContext {
  sim: Simulator;
  slack: SlackStandin;
  user: SlackUser;
  appUrl: string;
  alertToken: string;
  /** Narration: one line in the terminal. */
  say(line: string): void;
  /** A milestone the demo test looks for. */
  done(line: string): void;
  /** Per-wait limit, ms. */
  stepTimeoutMs: number;
}

/** Outcome stages that end a remediation badly (src/app/notify/outcome-message.ts headlines). */
const BAD_OUTCOME = /^(still failing|refused|failed|rollout not finished in time):/;

/**
 * Waits for the thread reply saying the rollout finished; fails fast on a bad outcome.
 * @throws DemoError with the worker's own words when the remediation did not work.
 */
export async function waitForRolledOut(
  ctx: StoryContext,
  root: StoredMessage,
  what: string,
): Promise<StoredMessage> {
  const reply = await ctx.slack
    .waitFor((s) => {
      for (const m of s.messages.values()) {
        if (m.channel !== root.channel || m.threadTs !== root.ts) continue;
        if (m.text.startsWith('rolled out:') || BAD_OUTCOME.test(m.text)) return m;
      }
      return undefined;
    }, ctx.stepTimeoutMs)
    .catch(() => {
      throw new DemoError(
        `${what}: no "rolled out" reply in the thread within ${ctx.stepTimeoutMs / 1000} s`,
      );
    });
  if (!reply.text.startsWith('rolled out:')) throw new DemoError(`${what}: ${reply.text}`);
  return reply;
}

/** Polls the simulator until `check` returns undefined (fine) or the step times out with its last complaint. */
export async function waitForCluster(
  ctx: StoryContext,
  what: string,
  check: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + ctx.stepTimeoutMs;
  let problem = check();
  while (problem !== undefined) {
    if (Date.now() > deadline) throw new DemoError(`${what}: ${problem}`);
    await new Promise((r) => setTimeout(r, 100));
    problem = check();
  }
}
