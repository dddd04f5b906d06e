/**
 * What a person does while Redis fails over, for bench/failover.ts: asks again after a
 * "queue unavailable" answer, clicks Approve again after "could not be recorded", and
 * waits for the result or the outcome. Each probe counts the visible refusals it got
 * and anything that went without an answer (lost), with times from the master's death.
 */
import { Redis } from 'ioredis';
import type { Simulator } from '../../sim/index.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import type { SentinelSet } from '../../test/support/redis-sentinel.js';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import { NAME, NS, deadlockTracker, deployment } from '../../test/drills/support/drill-kit.js';
import { buttonsOf, postSigned, slashCommandBody } from '../../test/support/slack-sign.js';
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import { SIGNAL_WAIT_MS } from '../../test/support/timeouts.js';
import { STACK_APPROVER, STACK_SECRET, type Stack } from './stack.js';

/** Pause between a visible refusal and the next try (a person is slower; 250 ms bounds the figure's error). */
export const RETRY_MS = 250;
/** A click or command with no answer within this long counts as lost. */
export const ANSWER_MS = 20_000;
/** A taken command without its result, or an approval without its outcome, within this long counts as lost. */
export const OUTCOME_MS = 60_000;
/** The plan clicked each round: its apply is a real PATCH of the Deployment. */
export const PLAN_KIND = 'set-rolling-update';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A result's verdict (or a visible failure of the run), not a progress line or the announcement. */
export function isFinal(m: StoredMessage): boolean {
  return (
    m.blocks.some((b) => b.block_id === ROOT_BLOCK.verdict) ||
    /^Diagnosis failed|could not finish/.test(m.text)
  );
}

/** Waits until `predicate` gives a value, or resolves undefined after `ms`. */
async function within<T>(
  slack: SlackStandin,
  ms: number,
  predicate: () => T | undefined,
): Promise<T | undefined> {
  return slack.waitFor(() => predicate(), ms).catch(() => undefined);
}

/**
 * A healthy Deployment beside the tracker: the command after the kill asks about it, so
 * its diagnosis does not re-make the plan being approved (a re-made plan supersedes the
 * button, by design, and the approval would then time a second person's click too).
 */
export const BYSTANDER = 'vision-api';

/** Sends `/rollout-doctor <name> -n NS` from `user` in `channel`. */
export function command(
  stack: Stack,
  channel: string,
  user: string,
  name = NAME,
): ReturnType<typeof postSigned> {
  const body = slashCommandBody({ text: `${name} -n ${NS}`, user_id: user, channel_id: channel });
  return postSigned(`${stack.appUrl}/slack/events`, STACK_SECRET, body);
}

/** Starts BYSTANDER (one small replica on any node) and waits until it is available. */
export async function addBystander(sim: Simulator): Promise<void> {
  const tracker = structuredClone(deployment(sim));
  const container = tracker.spec.template.spec.containers[0];
  if (!container) throw new Error('tracker has no container');
  const labels = { app: BYSTANDER };
  const pod = { ...tracker.spec.template.spec, containers: [{ ...container, name: 'api', resources: {} }] };
  delete pod.nodeSelector;
  sim.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: BYSTANDER, namespace: NS, labels },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pod } },
  });
  await sim.waitFor(
    () => (deployment(sim, NS, BYSTANDER).status?.availableReplicas ?? 0) === 1,
    SIGNAL_WAIT_MS,
  );
}

export interface CommandProbe {
  /** Death → the first command the app took (not answered "unavailable"). */
  acceptedMs: number;
  /** Death → that command's result in its message; undefined: none within OUTCOME_MS (lost). */
  answeredMs: number | undefined;
  /** Commands answered "unavailable, nothing was started" before one was taken (visible). */
  refused: number;
  /** Commands with no answer at all (HTTP error or no reply): lost. */
  unanswered: number;
}

/** From `t0` on: asks until a command is taken, then waits for its result in `channel`. */
export async function commandAfterKill(
  stack: Stack,
  channel: string,
  user: string,
  t0: number,
): Promise<CommandProbe> {
  let refused = 0;
  let unanswered = 0;
  for (;;) {
    const ack = await command(stack, channel, user, BYSTANDER).catch(() => undefined);
    if (!ack || ack.status !== 200) unanswered += 1;
    else if (/unavailable|Not started/.test(ack.body)) refused += 1;
    else break;
    await sleep(RETRY_MS);
  }
  const acceptedMs = Date.now() - t0;
  const root = (): StoredMessage | undefined =>
    [...stack.slack.messages.values()].find((m) => m.channel === channel && m.threadTs === undefined);
  const final = await within(stack.slack, OUTCOME_MS, () => {
    const m = root();
    return m && isFinal(m) ? m : undefined;
  });
  return { acceptedMs, answeredMs: final ? Date.now() - t0 : undefined, refused, unanswered };
}

export interface ApprovalProbe {
  /** Death → the message says approved; undefined: never approved. */
  approvedMs: number | undefined;
  /** Death → "applied" in the result's thread; undefined: no outcome within OUTCOME_MS (lost). */
  appliedMs: number | undefined;
  /** Clicks answered "could not be recorded" / "unavailable" before one was taken (visible). */
  refused: number;
  /** Clicks with no answer within ANSWER_MS: lost. */
  unanswered: number;
  /** The refusal a click got instead (visible, with its reason), if one did. */
  refusedWith?: string;
}

type ClickAnswer = 'approved' | 'retry' | { refusedWith: string };

/** The app's answer to a click made at `at`: the message marked approved, or an ephemeral reply. */
function answerTo(slack: SlackStandin, result: StoredMessage, at: number): ClickAnswer | undefined {
  const update = slack
    .callsOf('chat.update')
    .find((c) => c.at >= at && c.args.ts === result.ts && String(c.args.text).endsWith('approved'));
  if (update) return 'approved';
  const reply = slack
    .callsOf('chat.postEphemeral')
    .find((c) => c.at >= at && c.args.user === STACK_APPROVER && c.args.channel === result.channel);
  if (!reply) return undefined;
  const text = String(reply.args.text);
  if (/could not be recorded|unavailable/.test(text)) return 'retry';
  if (/already approved/.test(text)) return 'approved'; // an earlier click was taken
  return { refusedWith: text };
}

/** From `t0` on: clicks Approve on `result` (as shown) until taken, then waits for "applied". */
export async function approveAfterKill(
  stack: Stack,
  result: StoredMessage,
  t0: number,
): Promise<ApprovalProbe> {
  const { slack } = stack;
  const button = buttonsOf(result).find((b) => b.value?.includes(PLAN_KIND));
  if (!button) throw new Error(`no ${PLAN_KIND} button on the result`);
  let refused = 0;
  let unanswered = 0;
  let approvedMs: number | undefined;
  let refusedWith: string | undefined;
  while (approvedMs === undefined && refusedWith === undefined && refused + unanswered < 200) {
    const at = Date.now();
    await stack.click(result, button.action_id).catch(() => undefined);
    const answer = await within(slack, ANSWER_MS, () => answerTo(slack, result, at));
    if (answer === undefined) unanswered += 1;
    else if (answer === 'retry') refused += 1;
    else if (answer === 'approved') approvedMs = Date.now() - t0;
    else refusedWith = answer.refusedWith.slice(0, 300);
    if (approvedMs === undefined) await sleep(RETRY_MS);
  }
  const applied =
    approvedMs === undefined
      ? undefined
      : await within(slack, OUTCOME_MS, () =>
          [...slack.messages.values()].find((m) => m.threadTs === result.ts && m.text.startsWith('applied')),
        );
  return {
    approvedMs,
    appliedMs: applied ? Date.now() - t0 : undefined,
    refused,
    unanswered,
    ...(refusedWith ? { refusedWith } : {}),
  };
}

/**
 * Incident A live again for round `round` (round 0: as seeded): the strategy back to the
 * default surge and a new image, so the surge pod waits for the GPU the old pod holds.
 */
export async function armIncident(sim: Simulator, round: number): Promise<void> {
  if (round === 0) return deadlockTracker(sim);
  const failed = (): number =>
    (sim.list('Event', NS) as { reason?: string }[]).filter((e) => e.reason === 'FailedScheduling').length;
  const before = failed();
  const d = deployment(sim);
  const container = d.spec.template.spec.containers[0];
  if (!container) throw new Error('tracker has no container');
  container.image = `vision/boost-track-app:1.${round + 1}`;
  d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  sim.apply(d);
  await sim.waitFor(() => failed() > before, SIGNAL_WAIT_MS);
}

/** Asks for a diagnosis in `channel` and resolves with its result once it offers PLAN_KIND. */
export async function offeredResult(stack: Stack, channel: string, user: string): Promise<StoredMessage> {
  const ack = await command(stack, channel, user);
  if (ack.status !== 200 || /unavailable|Not started/.test(ack.body))
    throw new Error(`setup command not taken: ${ack.body.slice(0, 200)}`);
  const found = await stack.slack.waitFor(
    () =>
      [...stack.slack.messages.values()].find(
        (m) =>
          m.channel === channel &&
          m.threadTs === undefined &&
          isFinal(m) &&
          buttonsOf(m).some((b) => b.value?.includes(PLAN_KIND)),
      ),
    OUTCOME_MS,
  );
  return { ...found, blocks: structuredClone(found.blocks) }; // the buttons as shown
}

/** The plan id an Approve button of PLAN_KIND names. */
export function offeredPlanId(result: StoredMessage): string {
  const value = buttonsOf(result).find((b) => b.value?.includes(PLAN_KIND))?.value;
  if (!value) throw new Error(`no ${PLAN_KIND} button on the result`);
  return parsePlanButtonValue(value).planId;
}

/** How many running data nodes hold `planId`'s record. */
export async function planHolders(set: SentinelSet, planId: string): Promise<number> {
  let holding = 0;
  for (const node of set.nodes) {
    const c = new Redis(node.port, '127.0.0.1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    c.on('error', () => undefined);
    holding += await c
      .connect()
      .then(() => c.exists(redisKeys.plan(planId).plan))
      .catch(() => 0);
    c.disconnect();
  }
  return holding;
}
