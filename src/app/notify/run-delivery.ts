import type { webApi } from '@slack/bolt';
import { NO_REQUESTER } from '../../chat/slack/blocks/action-ids.js';
import type { Mrkdwn } from '../../chat/slack/blocks/mrkdwn.js';
import type { SlackRendering, SlackRun } from '../../chat/slack/render.js';
import { asSlackBlocks } from '../../chat/slack/blocks/text.js';
import type { AppServices } from '../services.js';
import { resultOvertaking, type SubscribeResult, type SubscriberRef } from './subscriptions.js';
import type { RunUpdate } from '../../queue/schemas.js';
import { renderRunUpdate } from './render-run.js';
import { platformOf } from '../../queue/chat-refs.js';
import { deliverToChats } from './chat-delivery.js';

/**
 * Posts a result's thread report (full evidence, every plan with its dry run and exact
 * patch) as replies in the thread of `threadTs`, in order: one message per part.
 */
export async function postThreadReport(
  client: webApi.WebClient,
  channel: string,
  threadTs: string,
  thread: readonly SlackRendering[],
): Promise<void> {
  for (const message of thread) {
    await client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text: message.text,
      blocks: asSlackBlocks(message.blocks),
    });
  }
}

/**
 * Shows a run's state in the given messages; under a final result, posts its thread
 * report (src/chat/use-cases/result.ts) in each message's thread. Who asked for
 * the run in a message (its Apply buttons say so) and its thread root come from the
 * app's mark on the subscription, never from a record a Redis writer could delete.
 */
export async function deliverRun(
  services: Pick<AppServices, 'plans' | 'subscriptions'> & Partial<Pick<AppServices, 'logger' | 'chats'>>,
  client: webApi.WebClient,
  refs: readonly SubscriberRef[],
  update: RunUpdate,
  final: boolean,
): Promise<void> {
  if (refs.length === 0) return;
  // Messages on a platform with a chat-port adapter (Teams) are rendered by the port.
  const elsewhere = refs.filter((r) => platformOf(r) !== 'slack');
  if (elsewhere.length > 0) {
    await deliverToChats(services, elsewhere, update, final);
    refs = refs.filter((r) => platformOf(r) === 'slack');
  }
  // One rendering per requester and approved plan: messages differ only in those.
  const renderings = new Map<string, Promise<SlackRun>>();
  const render = (requester: string, approvedPlan: string | null): Promise<SlackRun> => {
    const key = `${requester}\n${approvedPlan ?? ''}`;
    let rendering = renderings.get(key);
    if (!rendering) {
      rendering = renderRunUpdate(services.plans, update, { requester, approvedPlan });
      renderings.set(key, rendering);
    }
    return rendering;
  };
  const notFound =
    update.kind === 'diagnosis-result' && update.outcome.status === 'failed'
      ? update.outcome.notFound
      : undefined;
  for (const ref of refs) {
    // A typo is nobody else's business: the requester is told privately, with the
    // closest names, and the public "diagnosing…" message goes away.
    if (notFound && (await answerPrivately(client, ref, (await render(ref.requester, null)).text))) {
      await services.subscriptions.markAnswered(ref);
      continue;
    }
    // A message one of whose plans was approved keeps its other plans withdrawn.
    const approvedPlan = await services.subscriptions.approvedPlanOf(ref);
    const shown = await render(ref.requester, approvedPlan);
    await client.chat.update({
      channel: ref.channel,
      ts: ref.ts,
      text: shown.text,
      blocks: asSlackBlocks(shown.blocks),
    });
    if (!final) await showResultAgainIfOvertaken(services, client, ref, update);
    // The run's deadline watch (../run-deadline.ts) leaves an answered message alone.
    if (final) await services.subscriptions.markAnswered(ref);
    const { thread } = await render(ref.requester, null);
    if (final && thread.length > 0)
      await postThreadReport(client, ref.channel, ref.threadTs ?? ref.ts, thread);
  }
}

/** A progress line shown after its run's result: the result again (see resultOvertaking). */
async function showResultAgainIfOvertaken(
  services: Pick<AppServices, 'plans' | 'subscriptions'> & Partial<Pick<AppServices, 'logger'>>,
  client: webApi.WebClient,
  ref: SubscriberRef,
  update: RunUpdate,
): Promise<void> {
  const result = await resultOvertaking(services.subscriptions, ref, update);
  if (!result) return;
  services.logger?.info(
    { jobId: update.jobId, channel: ref.channel, ts: ref.ts },
    'the run has its result since this progress line: the message shows the result again',
  );
  const approvedPlan = await services.subscriptions.approvedPlanOf(ref);
  const shown = await renderRunUpdate(services.plans, result, { requester: ref.requester, approvedPlan });
  await client.chat.update({
    channel: ref.channel,
    ts: ref.ts,
    text: shown.text,
    blocks: asSlackBlocks(shown.blocks),
  });
}

/**
 * Tells the requester of the run shown in `ref` privately and deletes the public
 * message; false when nobody asked (then the message itself shows the answer) or the
 * message could not be deleted.
 */
async function answerPrivately(client: webApi.WebClient, ref: SubscriberRef, text: Mrkdwn): Promise<boolean> {
  if (ref.requester === NO_REQUESTER) return false;
  await client.chat.postEphemeral({ channel: ref.channel, user: ref.requester, text });
  try {
    await client.chat.delete({ channel: ref.channel, ts: ref.ts });
    return true;
  } catch {
    return false;
  }
}

/** After subscribing a new message: catch it up with the run's current state, if any. */
export async function applySubscribeResult(
  services: Pick<AppServices, 'plans' | 'subscriptions'> & Partial<Pick<AppServices, 'logger' | 'chats'>>,
  client: webApi.WebClient,
  ref: SubscriberRef,
  result: SubscribeResult,
): Promise<void> {
  if (result.state === 'none') return;
  await deliverRun(services, client, [ref], result.update, result.state === 'final');
}
