/**
 * "Propose in Git" (docs/propose-in-git.md): the button beside Approve on a plan whose workload a
 * GitOps owner applies (src/chat/use-cases/result.ts). A press is decided as an Approve
 * is (src/chat/approvals/approve.ts refusalBeforeRecording): an approver for the plan's
 * cluster and namespace, the plan not expired, the stored plan the one the message showed
 * (the digest the button carries), and under a two-person rule a named requester who is
 * not the presser, and as many approvers besides, each counted once by this app's own
 * mark (src/chat/approvals/proposal-approvals.ts). Then the app signs an approval for
 * proposalOf(plan id), which stands for no live write, and queues a propose job for the
 * cluster's workers: only they hold the Git token (src/worker/propose-processor.ts). The
 * pull request's link comes back as a notification posted in the thread
 * (src/chat/notify/proposal-delivery.ts). Every refusal and approval is audited.
 */
import { createPublicKey } from 'node:crypto';
import { wordsIn } from '../../i18n/catalogue.js';
import { chatPlatform, DEFAULT_PLATFORM, platformTag, type ChatPlatform } from '../../platforms/chat-refs.js';
import { QueueUnavailableError } from '../../queue/producers.js';
import { deadlineIn, type Deadline } from '../../queue/deadline.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import { findKind } from '../../remediation/kinds/index.js';
import {
  approvalClaims,
  approvalMark,
  markedApprover,
  proposalOf,
  signApproval,
} from '../../trust/approval-signature.js';
import { planDigest } from '../../trust/plan-seal.js';
import type { ChatAction } from '../actions.js';
import type { PressReply, PressRequest } from '../adapter.js';
import type { Rich } from '../model.js';
import { namedForPlatform, refusalBeforeRecording } from '../approvals/approve.js';
import type { ApprovalClick } from '../approvals/approval-click.js';
import { auditRefusal } from '../approvals/refusal-text.js';
import type { ProposalApprovals } from '../approvals/proposal-approvals.js';
import { PROPOSE_CHAT_WORDS } from '../words/propose.js';
import { LOOKUP_MS, pressRecord } from './propose-record.js';
import { textMessage } from './command.js';
import { spendApproverBudget } from './command-budget.js';
import { subscribed, type PressServices } from './press.js';
import { ANSWER_DEADLINE_MS, redisTroubleWords } from './redis-words.js';

export type ProposeServices = PressServices & {
  /** Two-person approvals of proposals; absent: a two-person rule refuses the press. */
  proposals?: ProposalApprovals | undefined;
  now?: (() => number) | undefined;
};

type ProposeAction = Extract<ChatAction, { kind: 'propose' }>;
type Words = ReturnType<typeof wordsIn<typeof PROPOSE_CHAT_WORDS>>;

/** What the presser reads, privately. */
const told = (text: Rich): PressReply => ({ tell: textMessage(text) });

/** One press as it is decided: who, where, the plan as stored, the words of the thread. */
interface Press {
  services: ProposeServices;
  w: Words;
  click: ApprovalClick & { platform: ChatPlatform };
  stored: StoredPlan;
  where: { planId: string; cluster: string; namespace: string; deployment: string };
  deadline: Deadline;
  lookups?: PressRequest['lookups'];
}

export async function proposePress(
  services: ProposeServices,
  request: PressRequest,
  action: ProposeAction,
): Promise<PressReply> {
  // In the thread's language (whoever started it), as its other replies.
  const owner = await services.subscriptions.ownerOf(subscribed(request.message)).catch(() => null);
  const w = wordsIn(PROPOSE_CHAT_WORDS, owner?.lang ?? 'en');
  const enqueue = services.producers.enqueuePropose?.bind(services.producers);
  if (services.config.proposeInGit !== true || !enqueue)
    return told(w.off({ setting: 'ROLLOUT_DOCTOR_PROPOSE_IN_GIT', command: 'rollout-doctor propose' }));
  const user = request.person.id;
  const channel = request.message.conversation.id;
  const deadline = deadlineIn(ANSWER_DEADLINE_MS);
  const overBudget = await spendApproverBudget(services, { user, channel, entry: 'approve' }, deadline);
  if (overBudget) return told(overBudget);
  const planId = proposalOf(action.planId);
  const stored = await deadline.bound(services.plans.get(action.planId), 'read the plan');
  if (!stored) {
    services.audit.record({ action: 'refusal', planId, user, reason: 'unknown-plan' });
    return told(w.refused({ why: 'this plan is no longer known (press Re-run)' }));
  }
  const { namespace, name } = stored.plan.target;
  const press: Press = {
    services,
    w,
    click: {
      user,
      platform: chatPlatform(request.person.platform) ?? DEFAULT_PLATFORM,
      channel,
      messageTs: request.message.id,
      rootTs: request.root.id,
      planId: action.planId,
      shown: action.shown,
      requester: action.requester,
    },
    stored,
    where: { planId, cluster: stored.cluster, namespace, deployment: name },
    deadline,
    lookups: request.lookups,
  };
  const decided = await decide(press);
  if (!('approvers' in decided)) return decided;
  return queueProposal(press, enqueue, decided.approvers);
}

/**
 * The approval policy's word on the press, as on an Approve (refusalBeforeRecording), then
 * under a two-person rule this approver's mark counted with the others': the approvers,
 * or what the presser reads (refused, or recorded and waiting).
 */
async function decide(press: Press): Promise<PressReply | { approvers: string[] }> {
  const { services, w, click, stored, where } = press;
  const { user } = click;
  const scope = {
    cluster: stored.cluster,
    namespace: stored.plan.target.namespace,
    clusterWide: findKind(stored.plan.kind)?.clusterScoped === true,
  };
  const decision = await services.policy.check(user, scope);
  const now = services.now?.() ?? Date.now();
  const personOf = (id: string) => services.policy.personOf?.(id) ?? id;
  const early = refusalBeforeRecording(click, stored, decision, now, personOf);
  if (early === 'expired') {
    services.audit.record({ action: 'refusal', ...where, user, reason: 'expired' });
    return told(w.expired({}));
  }
  if (early !== null) {
    const refusal =
      early === 'changed'
        ? { reason: 'tampered' as const, detail: 'the stored plan is not what the message showed' }
        : early;
    auditRefusal(services, where, user, refusal);
    return told(w.refused({ why: refusalWhy(refusal, decision.allowed ? decision.required : 1) }));
  }
  if (!decision.allowed) throw new Error('unreachable: a refusal was returned above');
  const approval = { action: 'approval' as const, ...where, kind: stored.plan.kind, user };
  if (decision.required <= 1) {
    services.audit.record({ ...approval, result: 'claimed' });
    return { approvers: [user] };
  }
  if (!services.proposals)
    return told(w.refused({ why: 'this app keeps no approvals of proposals for a two-person rule' }));
  const key = services.config.approvalSigningKey;
  const marked = { planId: where.planId, shown: click.shown ?? '' };
  let marks: string[];
  try {
    const mark = approvalMark({ ...marked, user }, key);
    marks = await press.deadline.bound(
      services.proposals.record(click.planId, mark, stored.expiresAt),
      'record the approval of the proposal',
    );
  } catch (error) {
    return told(w.notQueued({ why: redisTroubleWords(error) }));
  }
  // Only this app's marks count: a user id written into Redis is no approval.
  const publicKey = createPublicKey(key.privateKey);
  const users = marks.map((m) => markedApprover(m, marked, publicKey)).filter((u): u is string => u !== null);
  const approvers = namedForPlatform(services.policy, users, click.platform);
  const enough = approvers.length >= decision.required;
  services.audit.record({ ...approval, result: enough ? 'claimed' : 'recorded' });
  if (!enough) return told(w.recorded({ approvals: approvers.length, required: decision.required }));
  return { approvers };
}

/** Signs the approval of the proposal of exactly the plan as stored, and queues it for the workers. */
async function queueProposal(
  press: Press,
  enqueue: NonNullable<ProposeServices['producers']['enqueuePropose']>,
  approvers: string[],
): Promise<PressReply> {
  const { services, w, click, stored } = press;
  const key = services.config.approvalSigningKey;
  const thread = { ...platformTag(click.platform), channel: click.channel, messageTs: click.rootTs };
  // The worker checks it (src/worker/plan-trust.ts, `proposal`): no approval to apply stands for it.
  const approval = signApproval(
    approvalClaims({
      planId: press.where.planId,
      digest: planDigest(stored),
      cluster: stored.cluster,
      planExpiresAt: stored.expiresAt,
      approvers,
      requester: click.requester ?? undefined,
      ...thread,
      now: services.now?.() ?? Date.now(),
      keyId: key.keyId,
    }),
    key.privateKey,
  );
  // Names and the thread's link for the pull request's body: never blocking it, nor eating
  // the second the queue's add is left (./propose-record.ts).
  const ms = Math.min(LOOKUP_MS, Math.max(0, press.deadline.left() - 1_000));
  const said = await pressRecord(press.lookups, approvers, { ms, known: services.policy.names });
  try {
    const job = {
      planId: click.planId,
      cluster: stored.cluster,
      approvedBy: approvers,
      ...thread,
      approval,
      ...said,
    };
    await enqueue(job, { deadline: press.deadline });
  } catch (error) {
    if (!(error instanceof QueueUnavailableError)) throw error;
    return told(w.notQueued({ why: redisTroubleWords(error) }));
  }
  // The next proposal of this plan needs its approvers again.
  await services.proposals?.clear(click.planId).catch(() => undefined);
  return told(w.queued({ kind: stored.plan.kind }));
}

/** One line of why a press was refused, from the decision approve.ts made. */
function refusalWhy(refusal: { reason: string; detail?: string }, required: number): string {
  if (refusal.reason === 'self-approval')
    return `you asked for this diagnosis, and this plan needs ${String(required)} approvers other than the requester`;
  if (refusal.reason === 'tampered') return `${refusal.detail ?? 'the plan changed'} (press Re-run)`;
  return refusal.detail ?? refusal.reason;
}
