import type { webApi } from '@slack/bolt';
import { fullReportReply } from '../blocks/result-message.js';
import { asSlackBlocks } from '../blocks/text.js';
import type { AppServices } from '../services.js';
import type { MessageRef, SubscribeResult } from './subscriptions.js';
import type { RunUpdate } from '../../queue/schemas.js';
import { renderRunUpdate } from './render-run.js';

/**
 * Shows a run's state in the given messages; for a final result whose evidence had
 * to be cut, posts the full plain-text report as a thread reply under each.
 */
export async function deliverRun(
  services: Pick<AppServices, 'plans'>,
  client: webApi.WebClient,
  refs: readonly MessageRef[],
  update: RunUpdate,
  final: boolean,
): Promise<void> {
  if (refs.length === 0) return;
  const rendered = await renderRunUpdate(services.plans, update);
  for (const ref of refs) {
    await client.chat.update({
      channel: ref.channel,
      ts: ref.ts,
      text: rendered.text,
      blocks: asSlackBlocks(rendered.blocks),
    });
    if (final && rendered.truncated && rendered.fullReport) {
      await client.chat.postMessage({
        channel: ref.channel,
        thread_ts: ref.ts,
        text: fullReportReply(rendered.fullReport),
      });
    }
  }
}

/** After subscribing a new message: catch it up with the run's current state, if any. */
export async function applySubscribeResult(
  services: Pick<AppServices, 'plans'>,
  client: webApi.WebClient,
  ref: MessageRef,
  result: SubscribeResult,
): Promise<void> {
  if (result.state === 'none') return;
  await deliverRun(services, client, [ref], result.update, result.state === 'final');
}
