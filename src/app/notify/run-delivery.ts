import type { webApi } from '@slack/bolt';
import type { Mrkdwn } from '../blocks/mrkdwn.js';
import type { SlackMessage } from '../blocks/result-message.js';
import { asSlackBlocks } from '../blocks/text.js';
import type { AppServices } from '../services.js';
import type { MessageRef, SubscribeResult } from './subscriptions.js';
import type { RunUpdate } from '../../queue/schemas.js';
import { renderRunUpdate } from './render-run.js';

/**
 * Posts a result's thread report (full evidence, every plan with its dry run and exact
 * patch) as replies in the thread of `threadTs`, in order: one message per part.
 */
export async function postThreadReport(
  client: webApi.WebClient,
  channel: string,
  threadTs: string,
  thread: readonly SlackMessage[],
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
 * report (./result-message.ts `threadReport`) in each message's thread.
 */
export async function deliverRun(
  services: Pick<AppServices, 'plans' | 'subscriptions'>,
  client: webApi.WebClient,
  refs: readonly MessageRef[],
  update: RunUpdate,
  final: boolean,
): Promise<void> {
  if (refs.length === 0) return;
  const rendered = await renderRunUpdate(services.plans, update);
  const notFound =
    update.kind === 'diagnosis-result' && update.outcome.status === 'failed'
      ? update.outcome.notFound
      : undefined;
  for (const ref of refs) {
    // A typo is nobody else's business: the requester is told privately, with the
    // closest names, and the public "diagnosing…" message goes away.
    if (notFound && (await answerPrivately(services, client, ref, rendered.text))) continue;
    // A message one of whose plans was approved keeps its other plans withdrawn.
    const approvedPlan = await services.subscriptions.approvedPlanOf(ref);
    const shown = approvedPlan ? await renderRunUpdate(services.plans, update, { approvedPlan }) : rendered;
    await client.chat.update({
      channel: ref.channel,
      ts: ref.ts,
      text: shown.text,
      blocks: asSlackBlocks(shown.blocks),
    });
    if (final && rendered.thread.length > 0) {
      const owner = await services.subscriptions.ownerOf(ref);
      await postThreadReport(client, ref.channel, owner?.threadTs ?? ref.ts, rendered.thread);
    }
  }
}

/**
 * Tells the requester of the run shown in `ref` privately and deletes the public
 * message; false when nobody asked (then the message itself shows the answer) or the
 * message could not be deleted.
 */
async function answerPrivately(
  services: Pick<AppServices, 'subscriptions'>,
  client: webApi.WebClient,
  ref: MessageRef,
  text: Mrkdwn,
): Promise<boolean> {
  const owner = await services.subscriptions.ownerOf(ref);
  if (!owner) return false;
  await client.chat.postEphemeral({ channel: ref.channel, user: owner.requestedBy, text });
  try {
    await client.chat.delete({ channel: ref.channel, ts: ref.ts });
    return true;
  } catch {
    return false;
  }
}

/** After subscribing a new message: catch it up with the run's current state, if any. */
export async function applySubscribeResult(
  services: Pick<AppServices, 'plans' | 'subscriptions'>,
  client: webApi.WebClient,
  ref: MessageRef,
  result: SubscribeResult,
): Promise<void> {
  if (result.state === 'none') return;
  await deliverRun(services, client, [ref], result.update, result.state === 'final');
}
