/**
 * One approver's click on a plan, decided: who may approve (policy, the two-person
 * rule without the requester), that the stored plan is the one the message showed
 * (its shown digest, from the button), the atomic claim, the app's signature over
 * exactly that plan, the remediation job, and an audit event for every outcome. The
 * click and its outcome are typed in approval-click.ts, what a refusal says and audits in
 * refusal-text.ts. Slack calls stay in the listener
 * (src/chat/slack/listeners/actions/approve-plan.ts).
 */
import { expiredBeyondSkew } from '../../trust/clock-skew.js';
import { findKind } from '../../remediation/kinds/index.js';
import { createPublicKey } from 'node:crypto';
import {
  approvalClaims,
  approvalMark,
  markedApprover,
  markUser,
  signApproval,
} from '../../trust/approval-signature.js';
import { outdatedSealReason, planDigest, SEAL_VERSION, shownDigest } from '../../trust/plan-seal.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import { QueueUnavailableError } from '../../queue/producers.js';
import { deadlineIn, throughFailover, type Deadline } from '../../queue/deadline.js';
import { ANSWER_DEADLINE_MS } from '../use-cases/redis-words.js';

import type { AppConfig } from '../../config/environment.js';
import type { Audit } from '../../audit.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { ApprovalPolicy } from '../../policy/approval-policy.js';
import type { ClaimResult, PlanStore } from '../../queue/plan-store.js';
import type { Producers } from '../../queue/producers.js';
import type { Replay, ReplicationGuard } from '../../queue/replication-guard.js';
import { appReplay, redoApproval } from '../use-cases/replays.js';
import type { Subscriptions } from '../notify/subscriptions.js';
import type { ApprovalDecision } from '../../policy/approval-policy.js';
import { remadeByLaterDiagnosis } from './superseded.js';
import type { ApprovalClick, ApprovalOutcome } from './approval-click.js';
import {
  CHANGED_SINCE_SHOWN,
  REFUSAL_TEXT,
  refuse,
  supersededText,
  type Refusal,
  type Where,
} from './refusal-text.js';
import {
  DEFAULT_PLATFORM,
  chatPlatform,
  isId,
  platformTag,
  type ChatPlatform,
} from '../../platforms/chat-refs.js';
import { distinctPeople } from '../../policy/people.js';
import type { ExclusionTtl } from '../../remediation/exclusion-ttl.js';
import { chosenDuration, DURATION_TEXT } from './chosen-duration.js';
import type { MessageRef } from '../notify/subscriptions.js';

/**
 * What the decision needs of the app's services (ChatServices has them all): named here
 * rather than picked from ChatServices, so the port's press use-case that calls it
 * (src/chat/use-cases/approve-press.ts) reaches no adapter through the services' types.
 */
interface Services {
  plans: PlanStore;
  policy: ApprovalPolicy;
  audit: Audit;
  producers: Producers;
  metrics: Metrics;
  subscriptions: Subscriptions;
  config: AppConfig;
  logger: Logger;
  /** As ChatServices.replication: WAIT for the replicas, and the redo of lost writes. */
  replication?: ReplicationGuard | undefined;
  /** As ChatServices.now: Redis's time, which plan expiries and approvals are in. */
  now?: (() => number) | undefined;
}

/** Now as the expiries this app checks and signs are kept: Redis's time where known. */
const nowOf = (services: Pick<Services, 'now'>): number => services.now?.() ?? Date.now();

/** A claim won: the plan as stored, its approvers, and the claim as recorded (marks, time). */
interface Claimed {
  kind: 'claimed';
  stored: StoredPlan;
  approvers: string[];
  marks: string[];
  at: number;
}

/** The duration a click approves (chosen-duration.ts), resolved against the stored plan. */
type Duration = Exclude<ReturnType<typeof chosenDuration>, 'not-offered'>;

/** The policy's person of an id (each id its own person when the policy says nothing). */
function personOf(policy: ApprovalPolicy): (id: string) => string {
  return (id) => policy.personOf?.(id) ?? id;
}

/**
 * Each approving person once, by their id on `platform` when the policy gives them one
 * (the job, its outcome replies and the state line name them there), else by the id
 * they approved with.
 */
export function namedForPlatform(
  policy: ApprovalPolicy,
  ids: readonly string[],
  platform: ChatPlatform,
): string[] {
  return distinctPeople(ids, { personOf: personOf(policy) }).map(
    (id) => policy.idsOf?.(id).find((other) => isId(platform, 'approver', other)) ?? id,
  );
}

/** The duration a resolved choice comes to (none: the plan writes no exclusion). */
function chosenTtl(duration: ReturnType<typeof chosenDuration>): ExclusionTtl | undefined {
  return duration === 'not-offered' ? undefined : duration.ttl;
}

/** The platform records name for a click (the default platform, Slack, when it names none). */
function recordPlatform(click: ApprovalClick): ChatPlatform {
  return chatPlatform(click.platform ?? DEFAULT_PLATFORM) ?? DEFAULT_PLATFORM;
}

/** The clicked message, as subscriptions and message keys name it (with its platform). */
function messageOf(click: ApprovalClick): MessageRef {
  return { ...platformTag(recordPlatform(click)), channel: click.channel, ts: click.messageTs };
}

/**
 * The checks that need nothing but the click, the stored plan and the policy's word,
 * in order: an approver, not expired, a button and a seal of this version, the plan as
 * shown, and for a two-person rule a named requester who is not the clicker. Pure.
 */
export function refusalBeforeRecording(
  click: ApprovalClick,
  stored: StoredPlan,
  decision: ApprovalDecision,
  now: number,
  personOf: (id: string) => string = (id) => id,
): Refusal | 'expired' | 'changed' | null {
  if (!decision.allowed)
    return {
      reason: 'not-approver',
      detail: decision.reason,
      text: REFUSAL_TEXT.notApprover(decision.reason, decision.approvers, click.platform, decision.names),
    };
  // An expired plan is only ever reported (the claim script refuses it too): said first,
  // whatever the button was, so the button can be marked.
  if (expiredBeyondSkew(now, stored.expiresAt)) return 'expired';
  // What is approved is what was shown: the button names the digest of the plan as
  // rendered, and the stored plan must have that digest (the worker then checks that
  // the stored plan carries its seal, which covers the same fields).
  if (click.shown === null || stored.seal?.v !== SEAL_VERSION) {
    const detail =
      click.shown === null
        ? 'the button was posted by an earlier rollout-doctor version and names no shown digest'
        : outdatedSealReason(stored.seal?.v);
    return { reason: 'outdated', detail, text: REFUSAL_TEXT.outdated(detail) };
  }
  if (shownDigest(stored) !== click.shown) return 'changed';
  if (decision.required <= 1) return null;
  // The two people of a two-person rule are two besides whoever asked for the
  // diagnosis, as the clicked button says: the app wrote it there from its own mark on
  // the message's subscription (or the signed approval an Undo follows), and Slack
  // returns the value as posted. No record a Redis writer can delete or rewrite
  // decides it; a button that names nobody is refused rather than read as "no requester".
  if (click.requester === null) {
    const detail =
      'the button was posted by an earlier rollout-doctor version and does not name who asked for the diagnosis, which a two-person approval needs';
    return { reason: 'outdated', detail, text: REFUSAL_TEXT.outdated(detail) };
  }
  // By person: whoever asked on Slack is the requester with their Teams id too (people:).
  if (personOf(click.requester) === personOf(click.user))
    return { reason: 'self-approval', text: REFUSAL_TEXT.selfApproval(decision.required) };
  return null;
}

/** @example await approve(services, { user: 'U1', channel: 'C1', messageTs, rootTs, planId }) */
export async function approve(
  services: Services,
  click: ApprovalClick,
  deadline: Deadline = deadlineIn(ANSWER_DEADLINE_MS),
): Promise<ApprovalOutcome> {
  const { plans, policy, audit } = services;
  const { planId, user } = click;
  // Reads, held through a failover within the answer's deadline; the claim
  // below is not tried again (a second try of a claim that reached Redis would say
  // "already approved" with no job).
  const stored = await throughFailover(deadline, 'read the plan', () => plans.get(planId));
  if (!stored)
    return refuse(services, { planId }, user, { reason: 'unknown-plan', text: REFUSAL_TEXT.unknown });
  // A cluster-scoped object (a DeviceTaintRule, and its Undo) affects every tenant:
  // cluster-level approvers only (src/policy/approval-policy.ts approversFor).
  const scope = {
    cluster: stored.cluster,
    namespace: stored.plan.target.namespace,
    clusterWide: findKind(stored.plan.kind)?.clusterScoped === true,
  };
  const where: Where = {
    planId,
    cluster: stored.cluster,
    namespace: scope.namespace,
    deployment: stored.plan.target.name,
  };
  const decision = await policy.check(user, scope);
  const early = refusalBeforeRecording(click, stored, decision, nowOf(services), personOf(policy));
  if (early === 'expired') {
    audit.record({ action: 'refusal', ...where, user, reason: 'expired' });
    return { kind: 'expired', stored };
  }
  if (early === 'changed') return changedSinceShown(services, click, where, stored);
  if (early) return refuse(services, where, user, early);
  if (!decision.allowed) throw new Error('unreachable: a refusal was returned above');
  const duration = chosenDuration(click.lasts, stored);
  if (duration === 'not-offered')
    return refuse(services, where, user, {
      reason: 'not-offered',
      detail: `a duration (${click.lasts ?? ''}) for a plan that writes no node exclusion`,
      text: DURATION_TEXT.notOffered,
    });
  // One fix per result message: once a plan of this message is approved, the others
  // are refused here too (the message withdraws their buttons, a stale client may not).
  const message = messageOf(click);
  const held = await throughFailover(deadline, "read the message's plan", () =>
    services.subscriptions.approvedPlanOf(message),
  );
  if (held !== null && held !== planId)
    return refuse(services, where, user, {
      reason: 'other-plan-approved',
      detail: held,
      text: REFUSAL_TEXT.otherPlan,
    });
  // The claim, the message's plan and the job are confirmed on the replicas together:
  // from the connection's socket before the first of them (replication-guard.ts).
  const socket = services.replication?.socket();
  const recorded = await recordApproval(
    services,
    click,
    where,
    stored,
    decision.required,
    duration,
    deadline,
  );
  if (recorded.kind !== 'claimed') return recorded.outcome;
  return queueRemediation(services, click, where, recorded, duration, socket, deadline);
}

/**
 * The stored plan is not what the message showed: re-made by a later diagnosis (the
 * workers' signed result shows it so), or changed some other way.
 */
async function changedSinceShown(
  services: Services,
  click: ApprovalClick,
  where: Where,
  current: StoredPlan,
): Promise<ApprovalOutcome> {
  const remade = await remadeByLaterDiagnosis(services.subscriptions, current, messageOf(click));
  const outcome = refuse(
    services,
    where,
    click.user,
    remade
      ? {
          reason: 'superseded',
          detail:
            'a later diagnosis of the workload re-made the plan with other details: the stored plan is one of its worker-signed result, not what the clicked message displayed',
          text: supersededText(where.deployment, current.plan.target.kind),
        }
      : {
          reason: 'tampered',
          detail:
            'the plan changed since it was shown: the stored plan differs from what the message displayed and from the latest worker-signed diagnosis of the workload',
          text: CHANGED_SINCE_SHOWN,
        },
  );
  return remade && outcome.kind === 'refused' ? { ...outcome, superseded: current.plan.kind } : outcome;
}

/**
 * Records this approver's mark on the plan as shown and, when the approvals suffice,
 * claims it: every recorded approval must be this app's mark (a user id added in Redis
 * does not count), and one plan per message wins a race between two approvers.
 */
async function recordApproval(
  services: Services,
  click: ApprovalClick,
  where: Where,
  stored: StoredPlan,
  required: number,
  duration: Duration,
  deadline: Deadline,
): Promise<Claimed | { kind: 'done'; outcome: ApprovalOutcome }> {
  const { plans } = services;
  const { planId, user } = click;
  const done = (outcome: ApprovalOutcome) => ({ kind: 'done' as const, outcome });
  const key = services.config.approvalSigningKey;
  const shown = click.shown ?? '';
  // The mark names the duration chosen: it stands for that duration only.
  const { lasts, ttl } = duration;
  const mark = approvalMark({ planId, shown, user, lasts }, key);
  // Every id of this person: an approval under another of them is theirs already.
  const ids = services.policy.idsOf?.(user) ?? [user];
  const at = nowOf(services);
  let result: Awaited<ReturnType<PlanStore['approve']>>;
  const approving = plans.approve(planId, mark, required, shown, at, ids, lasts);
  try {
    result = await deadline.bound(approving, 'record the approval');
  } catch (error) {
    // Given up on, the approval may still be made once Redis answers (it reads the plan,
    // then claims): a claim made so is released once known, so no claim stands without
    // a job and says "already approved" for a day.
    approving
      .then((late) => (late.status === 'claimed' ? plans.release(planId, { claimedAt: late.at }) : undefined))
      .catch(() => undefined);
    throw error;
  }
  if (result.status !== 'claimed')
    return done(await unclaimed(services, { click, where, stored, ttl }, result));
  const publicKey = createPublicKey(key.privateKey);
  const verified = result.marks.map((m) => markedApprover(m, { planId, shown, lasts }, publicKey));
  const marked = verified.filter((u): u is string => u !== null);
  if (marked.length !== verified.length) {
    await plans.release(planId);
    const unmarked = result.marks.filter((_, i) => verified[i] === null);
    return done(
      refuse(services, where, user, {
        reason: 'tampered',
        detail: `approvals recorded without this app's mark (written into Redis, or given before its approval key changed): ${unmarked.map((m) => markUser(m) ?? '(not a user id)').join(',')}`,
        text: REFUSAL_TEXT.unmarked,
      }),
    );
  }
  // The two-person rule counts people: two ids of one person are one approval. The
  // store records a person once; this holds it whatever Redis says (a policy that
  // joined two ids since, a set rewritten).
  const approvers = namedForPlatform(services.policy, marked, recordPlatform(click));
  if (approvers.length < required) {
    await plans.release(planId);
    return done(
      refuse(services, where, user, {
        reason: 'same-approver',
        detail: `approvals recorded under ids of one person: ${marked.join(',')}`,
        text: REFUSAL_TEXT.samePerson,
      }),
    );
  }
  // Two approvers clicking two plans of one message at once: one wins in Redis.
  const message = messageOf(click);
  let held: string | null;
  try {
    held = await deadline.bound(
      services.subscriptions.claimMessagePlan(message, planId),
      "claim the message's plan",
    );
  } catch (error) {
    // Redis refused the write (gone, or a replica during a failover) or did not answer in
    // time: the claim is let go so a later click can take it, and the clicker is told
    // (approve-plan.ts). Not waited for (Redis may be stalled); sent after the message's
    // claim on the same connection, so a claim Redis makes late is undone right after.
    plans.release(planId, { claimedAt: result.at }).catch(() => undefined);
    services.subscriptions.releaseMessagePlan(message, planId).catch(() => undefined);
    throw error;
  }
  if (held !== null && held !== planId) {
    await plans.release(planId);
    return done(
      refuse(services, where, user, {
        reason: 'other-plan-approved',
        detail: held,
        text: REFUSAL_TEXT.otherPlan,
      }),
    );
  }
  return { kind: 'claimed', stored: result.stored, approvers, marks: result.marks, at: result.at };
}

/** The answer to an approval the store recorded without a claim, or refused (recordApproval). */
async function unclaimed(
  services: Services,
  at: { click: ApprovalClick; where: Where; stored: StoredPlan; ttl: ExclusionTtl | undefined },
  result: Exclude<ClaimResult, { status: 'claimed' }>,
): Promise<ApprovalOutcome> {
  const { click, where, stored, ttl } = at;
  const { audit } = services;
  const { user } = click;
  switch (result.status) {
    case 'changed':
      return changedSinceShown(services, click, where, result.stored);
    case 'unknown':
      return refuse(services, where, user, { reason: 'unknown-plan', text: REFUSAL_TEXT.gone });
    case 'expired':
      audit.record({ action: 'refusal', ...where, user, reason: 'expired' });
      return { kind: 'expired', stored };
    case 'already-claimed':
      return refuse(services, where, user, {
        reason: 'already-claimed',
        detail: result.approvers.join(','),
        text: REFUSAL_TEXT.alreadyClaimed(
          result.approvers,
          click.platform,
          services.policy.names,
          services.policy.personOf,
        ),
      });
    case 'same-approver':
      return refuse(services, where, user, { reason: 'same-approver', text: REFUSAL_TEXT.sameApprover });
    case 'other-duration': {
      // The first duration approved is binding: this one is refused, theirs stand.
      const theirs = result.lasts ?? chosenTtl(chosenDuration(undefined, stored)) ?? '';
      return refuse(services, where, user, {
        reason: 'other-duration',
        detail: `approvals recorded for ${theirs}, this one for ${ttl ?? ''}`,
        text: DURATION_TEXT.otherDuration(theirs, ttl ?? ''),
      });
    }
    case 'recorded':
      audit.record({
        action: 'approval',
        ...where,
        kind: stored.plan.kind,
        user,
        result: 'recorded',
        ...(ttl ? { lasts: ttl } : {}),
      });
      return {
        kind: 'recorded',
        approvals: result.approvals,
        required: result.required,
        ...(ttl ? { ttl } : {}),
      };
  }
}

/**
 * Signs the approval over exactly the plan as stored when it completed and queues the
 * remediation; a queue that is away releases the claim and says so.
 */
async function queueRemediation(
  services: Services,
  click: ApprovalClick,
  where: Where,
  claimed: Claimed,
  duration: Duration,
  socket: number | undefined,
  deadline: Deadline,
): Promise<ApprovalOutcome> {
  const { stored, approvers } = claimed;
  const { plans, audit, producers, metrics } = services;
  const { planId, user } = click;
  const key = services.config.approvalSigningKey;
  const { ttl } = duration;
  audit.record({
    action: 'approval',
    ...where,
    kind: stored.plan.kind,
    user,
    result: 'claimed',
    ...(ttl ? { lasts: ttl } : {}),
  });
  let job: Parameters<Producers['enqueueRemediate']>[0];
  try {
    job = remediateJob(click, claimed, duration, key, nowOf(services));
    await producers.enqueueRemediate(job, { deadline });
  } catch (error) {
    // Whatever refused it (the queue away, a job the schema refuses), the claim made for
    // it goes at once, so the plan can be approved again: nothing applies a claim without
    // a job, and a claim left standing would say "already approved" for a day.
    const away = error instanceof QueueUnavailableError;
    if (away) services.logger.warn(`remediation not queued: ${error.message}`);
    else services.logger.error({ err: error, planId }, 'remediation job not made; the claim is released');
    // Best effort: the Redis that refused the job may refuse this too (read-only).
    await plans.release(planId, { claimedAt: claimed.at }).catch(() => undefined);
    await services.subscriptions.releaseMessagePlan(messageOf(click), planId).catch(() => undefined);
    audit.record({
      action: 'outcome',
      ...where,
      kind: stored.plan.kind,
      approvedBy: approvers,
      outcome: 'not-queued',
      detail: error instanceof Error ? error.message.slice(0, 300) : 'not queued',
    });
    return { kind: 'refused', text: away ? REFUSAL_TEXT.notQueued(error) : REFUSAL_TEXT.notApplied };
  }
  const redo = { stored, marks: claimed.marks, at: claimed.at, message: messageOf(click), job };
  await replicated(
    services,
    planId,
    socket,
    async () => {
      // Lost in a failover: the message's plan, the claim (unless a later click claimed
      // the plan) and the job, each as it was; a job id that exists is not added. Unless
      // another fix of the message was approved since: the newest claim stands.
      await redoApproval(services, redo);
    },
    // The same as data, for the journal (src/chat/use-cases/replays.ts).
    appReplay.approval(redo),
  );
  metrics.remediations.inc({ kind: stored.plan.kind, outcome: 'approved' });
  return { kind: 'approved', stored, approvers, ...(ttl ? { ttl } : {}) };
}

/** The remediation job of a claimed approval, with the app's signature over exactly that plan. */
function remediateJob(
  click: ApprovalClick,
  claimed: Claimed,
  duration: Duration,
  key: AppConfig['approvalSigningKey'],
  now: number,
): Parameters<Producers['enqueueRemediate']>[0] {
  const { stored, approvers } = claimed;
  const { planId } = click;
  // The worker applies only what this signature names: the plan exactly as stored when
  // the approval completed (its digest, which covers the shown digest the store just
  // matched against the button), on this cluster, by these approvers.
  const approval = signApproval(
    approvalClaims({
      planId,
      digest: planDigest(stored),
      cluster: stored.cluster,
      planExpiresAt: stored.expiresAt,
      approvers,
      // Signed, so the worker can hand it back with the outcome: the Undo it offers
      // names the same requester (or none, or, for a button that named nobody, nothing).
      requester: click.requester ?? undefined,
      // The duration chosen for the exclusion: the worker writes this one (absent: the plan's).
      ...(duration.lasts ? { lasts: duration.lasts } : {}),
      ...platformTag(recordPlatform(click)),
      channel: click.channel,
      messageTs: click.rootTs,
      now,
      keyId: key.keyId,
    }),
    key.privateKey,
  );
  return {
    planId,
    cluster: stored.cluster,
    approvedBy: approvers,
    ...platformTag(recordPlatform(click)),
    channel: click.channel,
    messageTs: click.rootTs,
    approval,
  };
}

/**
 * Replication is asynchronous: a claim and its job acked by a master that dies before
 * its replica has them are gone after a failover. WAIT (src/queue/replication-guard.ts)
 * holds the answer until the replicas have them, up to the WAIT timeout; past it the
 * approval stands (the job is queued on the master) and the guard watches the writes:
 * when a failover lost them, `redo` writes the claim and the job again, so the
 * approval the clicker was told about is applied. Should the job have run on the old
 * master before it died, the worker's preconditions (uid, resourceVersion, the fields
 * the plan assumed) refuse the replay: never applied twice (docs/operations.md).
 */
async function replicated(
  services: Services,
  planId: string,
  socket: number | undefined,
  redo: () => Promise<void>,
  replay: Replay,
): Promise<void> {
  await services.replication?.confirm({
    label: 'approval',
    fields: { planId },
    redo,
    replay,
    ...(socket === undefined ? {} : { socket }),
  });
}
