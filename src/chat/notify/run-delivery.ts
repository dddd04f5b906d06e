/**
 * A run's updates in the messages subscribed to it, on every chat platform alike: the
 * run's messages are built once, platform-free (src/chat/use-cases/result.ts), and each
 * message's own adapter (services.chats) replaces what it shows (the announcement gives
 * way to progress, then the result) and posts the thread report in its thread. Who asked
 * for the run in a message (its Apply buttons say so) and its thread root come from the
 * app's mark on the subscription, never from a record a Redis writer could delete.
 */
import { DEFAULT_LANG, type Lang } from '../../i18n/lang.js';
import type { ChatAdapter } from '../adapter.js';
import type { ChatMessage, MessageRef as PortMessageRef } from '../model.js';
import { NO_REQUESTER } from '../actions.js';
import { runMessages } from '../use-cases/run-messages.js';
import { platformOf } from '../../platforms/chat-refs.js';
import type { RunUpdate } from '../../queue/schemas.js';
import type { ChatPlatform } from '../../platforms/chat-refs.js';
import type { PlanStore } from '../../queue/plan-store.js';
import type { Logger } from '../../logger.js';
import type { ApprovalPolicy } from '../../policy/approval-policy.js';
import { planViews } from './plan-views.js';
import { postReport } from '../report.js';
import {
  resultOvertaking,
  type MessageOwner,
  type MessageRef,
  type SubscriberRef,
  type Subscriptions,
} from './subscriptions.js';

/** What run delivery needs of the app's services (ChatServices has it all; named apart, no import cycle). */
export interface RunDeliveryServices {
  plans: PlanStore;
  subscriptions: Subscriptions;
  logger?: Pick<Logger, 'info' | 'warn'>;
  chats?: Partial<Record<ChatPlatform, ChatAdapter>>;
  policy?: Pick<ApprovalPolicy, 'names'>;
  /** The workspace's language (ROLLOUT_DOCTOR_LANG), for threads whose record names none. */
  config?: { readonly lang?: Lang; readonly proposeInGit?: boolean };
}

/** The language a subscribed message is written in: its thread starter's, else the workspace's. */
async function langOf(services: RunDeliveryServices, ref: SubscriberRef): Promise<Lang> {
  let owner: MessageOwner | null = null;
  try {
    owner = await services.subscriptions.ownerOf(ref);
  } catch {
    // An owner record that cannot be read (Redis trouble, a stand-in without it) costs only the language.
  }
  return owner?.lang ?? services.config?.lang ?? DEFAULT_LANG;
}

/** The port's ref of a subscribed message: its conversation, its thread (the root) and its id. */
export function portRef(ref: MessageRef & { threadTs?: string | undefined }): PortMessageRef {
  return {
    conversation: { platform: platformOf(ref), id: ref.channel, thread: ref.threadTs ?? ref.ts },
    id: ref.ts,
  };
}

/**
 * Shows a run's state in the given messages; under a final result, posts its thread
 * report in each message's thread. `options.via`: the adapter to speak through instead
 * of the platform's in services.chats (an announcement catching up speaks through the
 * adapter that posted it: on Slack the listener's client, which waits out a rate
 * limit). `options.catchUp`: a message catching up with its run (just subscribed, or
 * subscribed again after a failover): one that already got this final result is shown
 * it again without a second thread report.
 */
export async function deliverRun(
  services: RunDeliveryServices,
  refs: readonly SubscriberRef[],
  update: RunUpdate,
  final: boolean,
  options: { via?: ChatAdapter; catchUp?: boolean } = {},
): Promise<void> {
  if (refs.length === 0) return;
  const views = await planViews(services.plans, update);
  // One rendering per platform, requester, approved plan and language: messages differ only in those.
  const renderings = new Map<string, ReturnType<typeof runMessages>>();
  const render = (adapter: ChatAdapter, requester: string, approvedPlan: string | null, lang: Lang) => {
    const key = `${adapter.platform}\n${requester}\n${approvedPlan ?? ''}\n${lang}`;
    let rendering = renderings.get(key);
    if (!rendering) {
      rendering = runMessages(update, views, {
        requester,
        approvedPlan,
        platform: adapter.platform,
        names: services.policy?.names ?? {},
        lang,
        ...(services.config?.proposeInGit ? { proposeInGit: true } : {}),
      });
      renderings.set(key, rendering);
    }
    return rendering;
  };
  for (const ref of refs) {
    const adapter =
      options.via?.platform === platformOf(ref) ? options.via : services.chats?.[platformOf(ref)];
    if (!adapter) {
      services.logger?.warn(
        { platform: platformOf(ref) },
        'run update for a chat platform this app does not serve',
      );
      continue;
    }
    // A message one of whose plans was approved keeps its other plans withdrawn.
    const approvedPlan = await services.subscriptions.approvedPlanOf(ref);
    const { message, thread } = render(adapter, ref.requester, approvedPlan, await langOf(services, ref));
    const at = portRef(ref);
    // A typo is nobody else's business: the requester is told privately, with the
    // closest names, and the public "diagnosing…" message goes away.
    if (final && (await answeredPrivately(adapter, ref, update, message))) {
      await services.subscriptions.markAnswered(ref);
      continue;
    }
    await adapter.update(at, message);
    if (!final) {
      await showResultAgainIfOvertaken(services, adapter, ref, update);
      continue;
    }
    // Caught up again with a result it already showed (a failover's rewrite): its
    // report is in the thread already.
    if (options.catchUp && (await services.subscriptions.answered(ref))) continue;
    // The run's deadline watch (../run-deadline.ts) leaves an answered message alone.
    await services.subscriptions.markAnswered(ref);
    await postReport(adapter, at.conversation, thread);
  }
}

/** A progress line shown after its run's result: the result again (see resultOvertaking). */
async function showResultAgainIfOvertaken(
  services: RunDeliveryServices,
  adapter: ChatAdapter,
  ref: SubscriberRef,
  update: RunUpdate,
): Promise<void> {
  const result = await resultOvertaking(services.subscriptions, ref, update);
  if (!result) return;
  services.logger?.info(
    { jobId: update.jobId, channel: ref.channel, ts: ref.ts },
    'the run has its result since this progress line: the message shows the result again',
  );
  const again = runMessages(result, await planViews(services.plans, result), {
    requester: ref.requester,
    approvedPlan: await services.subscriptions.approvedPlanOf(ref),
    platform: adapter.platform,
    names: services.policy?.names ?? {},
    lang: await langOf(services, ref),
  });
  await adapter.update(portRef(ref), again.message);
}

/**
 * A not-found answer goes to the requester privately (Slack: ephemeral; Teams: their
 * personal chat) and the public announcement is deleted. False when nobody asked, the
 * platform has no private answer or cannot reach them so, or the public message could
 * not be deleted: then the message itself shows the answer.
 */
async function answeredPrivately(
  adapter: ChatAdapter,
  ref: SubscriberRef,
  update: RunUpdate,
  message: ChatMessage,
): Promise<boolean> {
  const notFound =
    update.kind === 'diagnosis-result' && update.outcome.status === 'failed' && update.outcome.notFound;
  if (!notFound || ref.requester === NO_REQUESTER || !adapter.tellPrivately || !adapter.remove) return false;
  // Beside the message: its conversation, in its thread when it is a reply (a Re-run).
  const near = {
    platform: adapter.platform,
    id: ref.channel,
    ...(ref.threadTs ? { thread: ref.threadTs } : {}),
  };
  if (!(await adapter.tellPrivately({ platform: adapter.platform, id: ref.requester }, message, near)))
    return false;
  try {
    await adapter.remove(portRef(ref));
    return true;
  } catch {
    return false;
  }
}
