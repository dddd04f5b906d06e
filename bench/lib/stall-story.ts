/**
 * A Redis that stalls under the app: the app's link to Redis holds
 * every byte for `stallMs` (connection open, nothing answered) while people keep sending
 * commands, each about a Deployment of its own that does not exist. Every one must get
 * a visible "try again" within Slack's ack window, and none may run unseen once the
 * stall ends: a run of one would read its name from the cluster and post its "not
 * found" in the channel. After the stall, the next command (about BYSTANDER) must be
 * answered. Played by test/drills/redis-stall.test.ts (asserted) and bench/redis-stall.ts
 * (measured).
 */
import { NS } from '../../test/drills/support/drill-kit.js';
import { queuesSettled } from '../../test/drills/support/drill-kit.js';
import { postSigned, slashCommandBody } from '../../test/support/slack-sign.js';
import { commandAfterKill, type CommandProbe } from './failover-probes.js';
import { STACK_SECRET, type Stack } from './stack.js';

/** Slack's window for an ack: an answer later than this is an HTTP failure in Slack. */
export const ACK_WINDOW_MS = 3_000;
/** A command sent during the stall, and what it got. */
export interface StalledCommand {
  name: string;
  /** Milliseconds to the HTTP answer; undefined: none (an error). */
  ms: number | undefined;
  status: number | undefined;
  body: string;
}

export interface StallRound {
  stallMs: number;
  during: StalledCommand[];
  /** Answered within the ack window with a visible "try again" (nothing started). */
  visible: number;
  /** Answered late, not at all, or not saying "try again". */
  failed: StalledCommand[];
  /** Stalled commands whose target the cluster was asked about, or that got a post, after all: ran unseen. */
  unseen: string[];
  /** From the end of the stall: the next command taken, and its result posted. */
  after: CommandProbe;
}

const PREFIX = 'stalled-';

/** A "try again" the person sees: the private answer of a command that started nothing. */
export function isVisibleRetry(answer: { status?: number | undefined; body: string }): boolean {
  return (
    answer.status === 200 &&
    /try again/i.test(answer.body) &&
    /Nothing was (started|queued)/.test(answer.body)
  );
}

/**
 * Stalls the app's Redis link (`stack.appLink`) for `stallMs`, sending one command every
 * `everyMs` meanwhile, heals it, and asks (every 250 ms after a "try again") until a
 * command is taken and its result is posted. Then waits for the queues to settle (every
 * job the stall let through has been run or dropped) and looks for what ran unseen.
 */
export async function playStall(
  stack: Stack,
  options: { stallMs: number; everyMs: number; channel: string; user: string },
): Promise<StallRound> {
  const link = stack.appLink;
  if (!link) throw new Error('the stack was started without appRedisLink');
  const { stallMs, everyMs, channel, user } = options;
  const sent: Promise<StalledCommand>[] = [];
  link.stall();
  const stalledAt = Date.now();
  for (let i = 0; Date.now() - stalledAt < stallMs - everyMs; i += 1) {
    const name = `${PREFIX}${i}`;
    const body = slashCommandBody({ text: `${name} -n ${NS}`, user_id: user, channel_id: channel });
    const started = Date.now();
    sent.push(
      postSigned(`${stack.appUrl}/slack/events`, STACK_SECRET, body).then(
        (r) => ({ name, ms: Date.now() - started, status: r.status, body: r.body }),
        () => ({ name, ms: undefined, status: undefined, body: '' }),
      ),
    );
    // The pace of the commands (a duration, not a stand-in for a signal).
    await new Promise((r) => setTimeout(r, everyMs));
  }
  // The stall lasts its time.
  await new Promise((r) => setTimeout(r, Math.max(0, stalledAt + stallMs - Date.now())));
  link.heal();
  const healedAt = Date.now();
  const after = await commandAfterKill(stack, channel, user, healedAt);
  const during = await Promise.all(sent);
  await queuesSettled(stack.redisUrl);
  const visible = during.filter((c) => isVisibleRetry(c) && (c.ms ?? Infinity) < ACK_WINDOW_MS);
  const unseen = during
    .map((c) => c.name)
    .filter(
      (name) =>
        stack.sim.requests.some((r) => r.name === name || r.path.includes(name)) ||
        [...stack.slack.messages.values()].some((m) => m.text.includes(name)),
    );
  return {
    stallMs,
    during,
    visible: visible.length,
    failed: during.filter((c) => !visible.includes(c)),
    unseen,
    after,
  };
}
