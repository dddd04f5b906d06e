/**
 * Button presses, platform-free: Re-run, the status of an approved or expired plan,
 * and Dismiss (Approve and Undo: src/chat/approvals/approve.ts, through the Slack
 * listener for now). Each answers with a PressReply the adapter applies; none touches
 * the cluster.
 */
import type { AppConfig } from '../../config/environment.js';
import type { Audit } from '../../audit.js';
import type { Metrics } from '../../metrics.js';
import type { ApprovalPolicy } from '../../policy/approval-policy.js';
import type { ReadPolicy } from '../../policy/read-policy.js';
import type { PlanStore } from '../../queue/plan-store.js';
import { QueueUnavailableError, type Producers } from '../../queue/producers.js';
import type { Logger } from '../../logger.js';
import type { Subscriptions } from '../notify/subscriptions.js';
import { spendBudget, type CommandBudget } from './command-budget.js';
import { deadlineIn } from '../../queue/deadline.js';
import { ANSWER_DEADLINE_MS, redisTroubleWords, tryAgainWords } from './redis-words.js';
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import type { ChatAction } from '../actions.js';
import type { PressReply, PressRequest } from '../adapter.js';
import type { MessageRef } from '../model.js';
import { icon, mention, plain, say } from '../../message/rich.js';
import { textMessage } from './command.js';
import { expiredText } from './plan-expired.js';
import { approversText } from './approvers.js';
import { chatPlatform, platformTag } from '../../platforms/chat-refs.js';
import type { MessageRef as SubscribedRef } from '../notify/subscriptions.js';

/** What the presses need of the app's services (src/chat/services.ts has them all). */
export interface PressServices {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  audit: Audit;
  producers: Producers;
  plans: PlanStore;
  policy: ApprovalPolicy;
  readPolicy: ReadPolicy;
  subscriptions: Subscriptions;
  commandBudget?: CommandBudget | undefined;
}

/** The run subscriptions' key for a message: its conversation and id. */
export function subscribed(message: MessageRef): SubscribedRef {
  const platform = chatPlatform(message.conversation.platform);
  return { ...platformTag(platform ?? undefined), channel: message.conversation.id, ts: message.id };
}

const tell = (text: ReturnType<typeof say>): PressReply => ({ tell: textMessage(text) });

/** Re-run: a fresh diagnosis of the same target, announced in the pressed message's thread. */
export async function rerun(
  services: PressServices,
  request: PressRequest,
  action: Extract<ChatAction, { kind: 'rerun' }>,
): Promise<PressReply> {
  const { cluster, target } = action;
  if (!services.config.clusters.includes(cluster)) return {};
  const user = request.person.id;
  const channel = request.message.conversation.id;
  const read = await services.readPolicy.check({ user, channel, cluster, namespace: target.namespace });
  if (!read.allowed) {
    services.audit.record({
      action: 'refusal',
      planId: 'rerun',
      cluster,
      namespace: target.namespace,
      deployment: target.name,
      user,
      reason: 'not-reader',
      detail: `channel ${channel}`,
    });
    return tell(say`${icon('refused')} Not re-run: ${read.reason}.`);
  }
  // The same budget as the command (src/chat/use-cases/command-budget.ts): a Re-run posts in the
  // thread and queues a person-priority job too. After the read policy, as the command:
  // a non-reader's presses spend nothing of the channel's budget.
  // One deadline for the answer's Redis calls (src/queue/deadline.ts); a job queued after
  // it passed runs nothing (its request is withdrawn by the producer).
  const deadline = deadlineIn(ANSWER_DEADLINE_MS);
  const overBudget = await spendBudget(services, { user, channel, entry: 'rerun' }, deadline);
  if (overBudget) return tell(overBudget);
  const addedAt = Date.now();
  let queued: { jobId: string; joinedRun?: number };
  try {
    queued = await services.producers.enqueueDiagnose(
      {
        mode: 'workload',
        cluster,
        target: { kind: target.kind, namespace: target.namespace, name: target.name },
        requestedBy: user,
      },
      { deadline },
    );
  } catch (error) {
    if (!(error instanceof QueueUnavailableError)) throw error;
    return tell(
      say`${icon('failed')} The diagnosis queue is unavailable right now (${redisTroubleWords(error)}). Nothing was started; please try again ${tryAgainWords(error)}.`,
    );
  }
  services.metrics.commands.inc({ command: 'rerun', outcome: 'queued' });
  const what = say`${typeOfKind(target.kind)}/${target.name} in ${target.namespace}`;
  return {
    started: {
      cluster,
      jobId: queued.jobId,
      addedAt,
      ...(queued.joinedRun === undefined ? {} : { joinedRun: queued.joinedRun }),
      what: 'rerun',
      deployment: target.name,
      announcement: textMessage(
        say`${icon('repeat')} ${mention(request.person)} re-runs the diagnosis of ${what}…`,
      ),
      owner: { requestedBy: user, cluster, namespace: target.namespace },
      cannotPost: textMessage(
        say`I could not post in this thread. The diagnosis of ${what} is running anyway.`,
      ),
    },
  };
}

/**
 * A press on an "Approved: …" or "Expired: …" button: says where the plan stands,
 * privately, and applies nothing. Applying again always goes through a fresh message
 * (Re-run), whose Apply button shows the patch in its confirm step.
 */
export async function planStatus(
  services: PressServices,
  request: PressRequest,
  planId: string,
): Promise<PressReply> {
  const [stored, claim] = await Promise.all([services.plans.get(planId), services.plans.claimOf(planId)]);
  if (claim)
    return tell(
      say`This plan was approved by ${approversText(request.person.platform, claim.approvers, services.policy?.names, services.policy?.personOf)}; it is applied once. Its outcome is in the thread.`,
    );
  return tell(
    stored && stored.expiresAt > Date.now()
      ? plain(
          'This plan is not approved any more (its last attempt failed and was released). Press Re-run for a fresh message, then approve it there.',
        )
      : expiredText(stored),
  );
}

/**
 * Dismiss: the result collapses to one line (buttons gone), keeping who dismissed it.
 * Only the person who asked for the run, or an approver for its cluster and namespace,
 * may dismiss it; anyone else is refused privately, audited.
 */
export async function dismiss(services: PressServices, request: PressRequest): Promise<PressReply> {
  const user = request.person.id;
  const owner = await services.subscriptions.ownerOf(subscribed(request.message));
  if (owner?.requestedBy !== user) {
    // Results nobody asked for (alert threads) or whose record expired: approvers only.
    const scope = {
      cluster: owner?.cluster ?? services.config.defaultCluster,
      namespace: owner?.namespace ?? '',
    };
    const decision = await services.policy.check(user, scope);
    if (!decision.allowed) {
      services.audit.record({
        action: 'refusal',
        planId: 'dismiss',
        cluster: scope.cluster,
        ...(owner?.namespace ? { namespace: owner.namespace } : {}),
        user,
        reason: 'not-requester',
      });
      return tell(
        say`${icon('refused')} Only the person who asked for this diagnosis or an approver can dismiss it. The message stays.`,
      );
    }
  }
  const line = say`Dismissed by ${mention(request.person)}.`;
  return { replace: { summary: line, parts: [{ kind: 'note', text: line }] } };
}
