/**
 * Run delivery through the chat port (src/chat/adapter.ts) for the platforms whose
 * adapter is a `ChatAdapter` (Teams): a run's messages are built once, platform-free
 * (src/chat/use-cases/result.ts), and the message's own adapter replaces what it shows
 * (the announcement gives way to progress, then the result) and posts the thread
 * report in its thread; remediation outcomes reply in the approved message's thread
 * and re-render its state line. Slack messages still go through ./run-delivery.ts,
 * its Block Kit builders and Web API client.
 */
import type { ChatAdapter, StartedRun } from '../../chat/adapter.js';
import type { ChatMessage, ConversationRef, MessageRef as PortMessageRef } from '../../chat/model.js';
import { NO_REQUESTER } from '../../chat/actions.js';
import { runMessages, type PlanView } from '../../chat/use-cases/result.js';
import { chatPlatform, messageKeyPart, platformOf, platformTag } from '../../queue/chat-refs.js';
import type { NotifyJob, RunUpdate } from '../../queue/schemas.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import {
  fixStageOf,
  outcomeMessage,
  stateLine,
  withStateLine,
  type FixStage,
} from '../../chat/use-cases/outcome.js';
import { z } from 'zod';
import type { AppServices } from '../services.js';
import { planView } from './render-run.js';
import { resultOvertaking, subscriberOf, type MessageRef, type SubscriberRef } from './subscriptions.js';
import { watchRunDeadline } from '../run-deadline.js';
import { rootRef, type RootRecord } from './root-store.js';
import { showLatestStage } from './root-stage.js';

type Services = Pick<AppServices, 'plans' | 'subscriptions'> &
  Partial<Pick<AppServices, 'logger' | 'chats' | 'policy'>>;

/** The port's ref of a subscribed message: its conversation, its thread (the root) and its id. */
export function portRef(ref: MessageRef & { threadTs?: string }): PortMessageRef {
  return {
    conversation: { platform: platformOf(ref), id: ref.channel, thread: ref.threadTs ?? ref.ts },
    id: ref.ts,
  };
}

async function planViews(services: Services, update: RunUpdate): Promise<Record<string, PlanView>> {
  const views: Record<string, PlanView> = {};
  if (update.kind !== 'diagnosis-result' || update.outcome.status !== 'diagnosed') return views;
  for (const plan of update.outcome.diagnosis.remediations)
    views[plan.id] = await planView(services.plans, plan.id);
  return views;
}

/** Shows a run's state in chat-port messages; under a final result, posts the thread report. */
export async function deliverToChats(
  services: Services,
  refs: readonly SubscriberRef[],
  update: RunUpdate,
  final: boolean,
): Promise<void> {
  if (refs.length === 0) return;
  const views = await planViews(services, update);
  for (const ref of refs) {
    const adapter = services.chats?.[platformOf(ref)];
    if (!adapter) {
      services.logger?.warn(
        { platform: platformOf(ref) },
        'run update for a chat platform this app does not serve',
      );
      continue;
    }
    const approvedPlan = await services.subscriptions.approvedPlanOf(ref);
    const { message, thread } = runMessages(update, views, {
      requester: ref.requester,
      approvedPlan,
      platform: adapter.platform,
      names: services.policy?.names ?? {},
    });
    const at = portRef(ref);
    if (final && (await answeredPrivately(adapter, ref, update, message))) {
      await services.subscriptions.markAnswered(ref);
      continue;
    }
    await adapter.update(at, message);
    if (!final) {
      // A progress line that reached the message after its run's result: the result again.
      const result = await resultOvertaking(services.subscriptions, ref, update);
      if (result) {
        const again = runMessages(result, await planViews(services, result), {
          requester: ref.requester,
          approvedPlan: await services.subscriptions.approvedPlanOf(ref),
          platform: adapter.platform,
        });
        await adapter.update(at, again.message);
      }
      continue;
    }
    await services.subscriptions.markAnswered(ref);
    for (const reply of thread) await adapter.post(at.conversation, reply);
  }
}

/**
 * A typo is nobody else's business (as on Slack, run-delivery.ts): a not-found answer
 * goes to the requester's private chat and the public announcement is deleted. False
 * when nobody asked, the platform has no private chat or cannot reach them there (Teams:
 * a person the bot has not seen, or the app not installed for them), or the public
 * message could not be deleted: then the message itself shows the answer.
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
  if (!(await adapter.tellPrivately({ platform: adapter.platform, id: ref.requester }, message)))
    return false;
  try {
    await adapter.remove(portRef(ref));
    return true;
  } catch {
    return false;
  }
}

/**
 * Posts a run's announcement through `adapter` and subscribes the posted message to
 * the run (its result replaces it), catching up when the run already progressed or
 * finished, and watches it until the run deadline (../run-deadline.ts) as announceRun
 * does on Slack. Null when the bot cannot post there.
 */
export async function announceInChat(
  services: Services & Pick<AppServices, 'config' | 'audit' | 'logger'>,
  adapter: ChatAdapter,
  where: ConversationRef,
  run: StartedRun,
): Promise<PortMessageRef | null> {
  const platform = chatPlatform(adapter.platform);
  if (platform === null) return null;
  let posted: PortMessageRef;
  try {
    posted = await adapter.post(where, run.announcement);
  } catch (error) {
    services.logger?.warn({ err: error, platform }, 'announcement not posted');
    return null;
  }
  const message: MessageRef = { ...platformTag(platform), channel: posted.conversation.id, ts: posted.id };
  // A reply in a thread (Re-run, a command in a thread) keeps its thread root.
  const thread = posted.conversation.thread;
  const owner = { ...run.owner, ...(thread && thread !== posted.id ? { threadTs: thread } : {}) };
  const state = await services.subscriptions.subscribe(run.cluster, run.jobId, message, run.addedAt, owner);
  if (state.state !== 'none')
    await deliverToChats(services, [subscriberOf(message, owner)], state.update, state.state === 'final');
  // A person's run ends in an answer: the result, or "could not finish" at the deadline.
  if (state.state !== 'final')
    watchRunDeadline(services, null, {
      message,
      cluster: run.cluster,
      jobId: run.jobId,
      addedAt: run.addedAt,
      requestedBy: run.owner.requestedBy,
      what: run.what,
      ...(run.deployment ? { deployment: run.deployment } : {}),
      ...(run.owner.namespace ? { namespace: run.owner.namespace } : {}),
      ...(owner.threadTs ? { threadTs: owner.threadTs } : {}),
    });
  return posted;
}

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

/** Who approved a fix and when, as approvePress keeps it in the root record's `approval`. */
const approvalSchema = z.object({
  approvers: z.array(z.string().min(1).max(64)).max(10),
  at: z.number().int(),
});

/**
 * A signed remediation outcome on a platform of the port (Teams): the reply in the
 * approved message's thread, then the approved message's state line, when the app kept
 * that message (under its mark) and it is the one the signed outcome names.
 */
export async function outcomeToChat(
  services: Services & Pick<AppServices, 'rootStates'> & Partial<Pick<AppServices, 'policy'>>,
  job: Outcome,
  undo: StoredPlan | undefined,
  now = Date.now(),
): Promise<void> {
  const adapter = services.chats?.[platformOf(job)];
  if (!adapter) {
    services.logger?.warn(
      { platform: platformOf(job) },
      'outcome for a chat platform this app does not serve',
    );
    return;
  }
  const thread = { platform: adapter.platform, id: job.channel, thread: job.messageTs };
  // Approvers by the policy's names: Teams cannot show an Entra object id as a person.
  const names = services.policy?.names ?? {};
  await adapter.post(thread, outcomeMessage(job, adapter.platform, undo, now, names));
  const roots = services.rootStates;
  const record = await roots?.load(job.planId);
  if (!roots || !record) return;
  if (
    platformOf(record) !== platformOf(job) ||
    record.channel !== job.channel ||
    record.threadTs !== job.messageTs
  ) {
    services.logger?.warn(
      { planId: job.planId },
      'approved message state names another message than the outcome',
    );
    return;
  }
  const stage = fixStageOf(job, record.undo);
  if (!stage) return;
  // Another replica may deliver this plan's other outcomes at the same time: the line
  // moves forward only, and ends on the latest stage (./root-stage.ts).
  await showLatestStage(
    roots.stages,
    rootRef(record),
    { planId: job.planId, stage, at: now },
    async (latest) => {
      const kept = latest.planId === job.planId ? record : await roots.load(latest.planId);
      const same = kept && messageKeyPart(rootRef(kept)) === messageKeyPart(rootRef(record));
      if (kept && same) await showStateLine(adapter, kept, latest.stage, latest.at, names);
    },
  );
}

/** The approved card of `record` with its state line at `stage`, when the adapter keeps what the card shows. */
async function showStateLine(
  adapter: ChatAdapter,
  record: RootRecord,
  stage: FixStage,
  at: number,
  names: Readonly<Record<string, string>>,
): Promise<void> {
  const approval = approvalSchema.safeParse(safeJson(record.approval));
  if (!approval.success) return;
  const ref = portRef({ ...record, threadTs: record.threadTs });
  const shown = await adapter.shown?.(ref);
  if (!shown) return;
  const fix = {
    what: record.what,
    approvers: approval.data.approvers,
    approvedAt: approval.data.at,
    platform: adapter.platform,
    names,
  };
  await adapter.update(ref, withStateLine(shown, stateLine(stage, fix, at)));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
