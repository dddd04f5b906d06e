import type { webApi } from '@slack/bolt';
import { applySubscribeResult } from './notify/apply-state.js';
import type { AppServices } from './services.js';

/**
 * Posts the visible "diagnosing…" message and subscribes it to the run, catching
 * up with the run's state when it already progressed or finished.
 * @returns the posted message, or null when the bot cannot post in the channel.
 */
export async function announceRun(
  services: AppServices,
  client: webApi.WebClient,
  input: {
    channel: string;
    cluster: string;
    jobId: string;
    text: string;
    addedAt: number;
    threadTs?: string;
  },
): Promise<{ channel: string; ts: string } | null> {
  const posted = await client.chat.postMessage({
    channel: input.channel,
    text: input.text,
    ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
  });
  if (!posted.ts) return null;
  const ref = { channel: input.channel, ts: posted.ts };
  const state = await services.subscriptions.subscribe(input.cluster, input.jobId, ref, input.addedAt);
  await applySubscribeResult(services, client, ref, state);
  return ref;
}
