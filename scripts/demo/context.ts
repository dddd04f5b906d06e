import { setTimeout as sleep } from 'node:timers/promises';
import type { Simulator } from '../../sim/index.js';
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import { DemoError } from './demo-error.js';
import type { SlackUser } from './slack-user.js';

/** Who and where, in the demo's Slack workspace (ids as Slack formats them). */
export const PEOPLE = { oncall: 'U0ONCALL', lead: 'U0LEAD' } as const;
export const CHANNELS = { incidents: 'C0INCIDENTS', alerts: 'C0ALERTS' } as const;
/** How the demo names its Slack people (the audit lines at the end). */
export const SLACK_NAMES: Readonly<Record<string, string>> = {
  [PEOPLE.oncall]: 'On-call',
  [PEOPLE.lead]: 'Lead',
};
export const CHANNEL_NAMES: Record<string, string> = {
  [CHANNELS.incidents]: '#incidents',
  [CHANNELS.alerts]: '#alerts',
};

/** Everything a story needs. */
export interface StoryContext {
  sim: Simulator;
  /** The Slack stand-in; none when the demo plays Teams only. */
  slack: SlackStandin | undefined;
  user: SlackUser;
  appUrl: string;
  alertToken: string;
  /** Narration: one line in the terminal. */
  say(line: string): void;
  /** A milestone the demo test looks for. */
  done(line: string): void;
  /** Per-wait limit, ms. */
  stepTimeoutMs: number;
  /**
   * Aborted on Ctrl-C (or SIGTERM, SIGHUP, a closed stdout): every step checks it
   * before it acts (`act`) and every wait ends on it, so nothing is sent, clicked or
   * printed once the demo is stopping.
   */
  signal: AbortSignal;
}

/**
 * Runs one action of the story (a command, a click, a write to the cluster, an alert)
 * unless the demo is being stopped: then it throws the abort reason and sends nothing.
 */
export async function act<T>(ctx: StoryContext, action: () => Promise<T>): Promise<T> {
  ctx.signal.throwIfAborted();
  return action();
}

/**
 * Waits until `pick` finds something among the Slack stand-in's messages, for at most
 * the step's limit; ends at once when the demo is stopped (the stand-in records every
 * call as it arrives: this looks at that record every 20 ms, as its own waitFor does).
 * @throws DemoError `failure` when the step times out; the abort reason when stopped.
 */
export async function waitForSlack<T>(
  ctx: StoryContext,
  pick: (slack: SlackStandin) => T | undefined,
  failure: string,
): Promise<T> {
  const slack = slackOf(ctx);
  return waitForRecord(ctx, () => pick(slack), failure);
}

/** The Slack stand-in of a story that plays in Slack. */
export function slackOf(ctx: StoryContext): SlackStandin {
  if (!ctx.slack) throw new DemoError('this story plays in Slack, and the demo runs without it');
  return ctx.slack;
}

/** waitForSlack for any stand-in's record (the Teams stand-in's activities too). */
export async function waitForRecord<T>(
  ctx: StoryContext,
  pick: () => T | undefined,
  failure: string,
): Promise<T> {
  const deadline = Date.now() + ctx.stepTimeoutMs;
  for (;;) {
    ctx.signal.throwIfAborted();
    const found = pick();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new DemoError(failure);
    await sleep(20, undefined, { signal: ctx.signal });
  }
}

/** Outcome stages that end a remediation badly (src/chat/use-cases/outcome.ts headlines). */
const BAD_OUTCOME = /^(still failing|refused|failed|rollout not finished in time):/;
/** A rollout that finished, or (after a plan that only deletes pods) its replacements Ready. */
const DONE = /^(?::[a-z_]+: )?(rolled out|replacement pods Ready):/;

/**
 * Waits for the thread reply saying the rollout finished; fails fast on a bad outcome.
 * @throws DemoError with the worker's own words when the remediation did not work.
 */
export async function waitForRolledOut(
  ctx: StoryContext,
  root: StoredMessage,
  what: string,
  done: RegExp = DONE,
): Promise<StoredMessage> {
  const reply = await waitForSlack(
    ctx,
    (s) => {
      for (const m of s.messages.values()) {
        if (m.channel !== root.channel || m.threadTs !== root.ts) continue;
        if (done.test(m.text) || BAD_OUTCOME.test(m.text)) return m;
      }
      return undefined;
    },
    `${what}: no "rolled out" reply in the thread within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (!done.test(reply.text)) throw new DemoError(`${what}: ${reply.text}`);
  return reply;
}

/** Polls the simulator until `check` returns undefined (fine), the step times out with its last complaint, or the demo is stopped. */
export async function waitForCluster(
  ctx: StoryContext,
  what: string,
  check: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + ctx.stepTimeoutMs;
  ctx.signal.throwIfAborted();
  let problem = check();
  while (problem !== undefined) {
    if (Date.now() > deadline) throw new DemoError(`${what}: ${problem}`);
    await sleep(100, undefined, { signal: ctx.signal });
    problem = check();
  }
}

/**
 * The developer's `kubectl set image` (or the revert of `kubectl rollout undo`): one
 * container's image in a workload's pod template, straight to the API server.
 */
export async function setImage(
  simUrl: string,
  workload: { resource: string; namespace: string; name: string },
  container: string,
  image: string,
  signal?: AbortSignal,
): Promise<void> {
  // An Argo Rollout is a CRD, which takes no strategic merge: a JSON patch of the first container.
  const rollout = workload.resource === 'rollouts';
  const path = `/apis/${rollout ? 'argoproj.io/v1alpha1' : 'apps/v1'}/namespaces/${workload.namespace}/${workload.resource}/${workload.name}`;
  const res = await fetch(`${simUrl}${path}`, {
    method: 'PATCH',
    ...(signal ? { signal } : {}),
    headers: {
      'Content-Type': rollout ? 'application/json-patch+json' : 'application/strategic-merge-patch+json',
    },
    body: JSON.stringify(
      rollout
        ? [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }]
        : { spec: { template: { spec: { containers: [{ name: container, image }] } } } },
    ),
  });
  if (!res.ok) throw new DemoError(`could not set ${workload.name}'s image: HTTP ${res.status}`);
}
