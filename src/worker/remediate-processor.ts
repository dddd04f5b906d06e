import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { createHash } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Audit, AuditEvent } from '../audit.js';
import type { Logger } from '../logger.js';
import type { FieldChange, PlanStore, StoredPlan } from '../queue/plan-store.js';
import { readablePath } from '../remediation/json-pointer.js';
import type { RemediationPlan } from '../remediation/plan.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import type { ApplyResult } from '../kube/write/executor.js';
import type { StepEvent } from '../kube/write/stepped-walk.js';
import type { EnqueueOptions } from '../queue/producers.js';
import { remediateJobSchema, type NotifyJobInput, type RemediateJob } from '../queue/schemas.js';
import { watchScopeOf, watchingWords, type WatchScope } from '../remediation/watch-scope.js';
import type { PlanTrust } from './plan-trust.js';
import { errorMessage, isLastAttempt } from './progress.js';
import { detailInEvery, remediateWords as words, type Detail } from './remediate-words.js';
import { platformTag } from '../platforms/chat-refs.js';
import { JobLostError, remediationFence, type FenceRef } from './job-fence.js';
import type { AttemptWrites } from './outbox.js';
import { expiredBeyondSkew } from '../trust/clock-skew.js';
import { plannedTtl, withPlanTtl } from '../remediation/exclusion-times.js';
import { lastsClause } from '../remediation/exclusion-words.js';

/** Cluster writes and reads the remediate processor needs; injected so tests can fake them. */
export interface RemediateDeps {
  /** `onStep`: each step of a stepped scale-old-replicaset, as data (src/kube/write/stepped-walk.ts). */
  apply(
    plan: RemediationPlan,
    hooks?: { onStep?: (event: StepEvent) => void; now?: () => number },
  ): Promise<ApplyResult>;
  /**
   * Follows the rollout; with `replaced` (a plan that deleted pods and changed no pod
   * template), the replacements of those pods becoming Ready instead.
   */
  watch(
    ref: WorkloadRef,
    sinceGeneration: number,
    replaced?: { name: string; uid: string }[],
  ): Promise<{ outcome: 'complete' | 'failed' | 'timeout' | 'paused'; summary: string; reason?: string }>;
  /** The top finding of a fresh diagnosis, for "still failing: <finding>". */
  currentFinding(ref: WorkloadRef): Promise<string | undefined>;
  inverse(
    plan: RemediationPlan,
    applied: { generation: number; changes: FieldChange[] },
  ): RemediationPlan | null;
  plans: PlanStore;
  /** Seal, approval signature and replay checks (src/worker/plan-trust.ts). */
  trust: PlanTrust;
  planTtlMs: number;
  notify(job: NotifyJobInput, options?: EnqueueOptions): Promise<void>;
  audit: Audit;
  onOutcome?: (kind: string, outcome: string) => void;
  logger: Logger;
  now?: () => number;
  /**
   * The writes of one attempt kept until Redis takes them (src/worker/outbox.ts);
   * absent: `notify` and `plans` as they are.
   */
  keep?: (fence: FenceRef) => AttemptWrites;
  /**
   * Resolves while this worker holds the job (its lock holds `token`), rejects with
   * JobLostError when another took it over (src/worker/job-fence.ts), or with Redis's
   * error when it cannot tell. Checked before the cluster is written; absent: not checked.
   */
  holds?: (job: Job<RemediateJob>, token: string) => Promise<void>;
  /** This worker's clock named for a person when it is off beyond the tolerated skew and Redis's clock is unknown; absent: not watched. */
  clock?: () => string | undefined;
}

type Stage = Extract<NotifyJobInput, { kind: 'remediation-outcome' }>['stage'];
type AuditOutcome = Extract<AuditEvent, { action: 'outcome' }>['outcome'];
interface SayExtra {
  undoPlanId?: string;
  rerun?: { namespace: string; name: string; kind?: WorkloadKind };
  approvedBy?: string[];
  requester?: string;
}

/** One job as it runs: its plan, where it replies, who approved it, and how it says and records. */
interface Run {
  deps: RemediateDeps;
  job: Job<RemediateJob>;
  data: RemediateJob;
  stored: StoredPlan;
  plan: RemediationPlan;
  ref: WorkloadRef;
  /** Known once the approval verifies. */
  approvers: string[];
  /** The claim's time (a release drops only that claim). */
  claimedAt: number;
  /** Where this attempt's replies, Undo and release go (kept through a refusing Redis). */
  writes: AttemptWrites;
  requester?: string;
  now: () => number;
  say(stage: Stage, detail: Detail, extra?: SayExtra): Promise<void>;
  audit(outcome: AuditOutcome, detail?: string): void;
}

/** The job as the app wrote it, or (audited as tampered) a job nothing of which is trusted. */
function parseJob(deps: RemediateDeps, job: Job<RemediateJob>): RemediateJob {
  const parsed = remediateJobSchema.safeParse(job.data);
  if (parsed.success) return parsed.data;
  // Not a job the app wrote (or one from an incompatible version): nothing to trust.
  const planId = String((job.data as { planId?: unknown } | undefined)?.planId ?? '').slice(0, 200);
  deps.audit.record({
    action: 'outcome',
    planId,
    cluster: '',
    namespace: '',
    deployment: '',
    kind: '',
    approvedBy: [],
    outcome: 'tampered',
    detail: 'the remediate job is malformed or carries no approval',
  });
  deps.onOutcome?.('unknown', 'tampered');
  throw new UnrecoverableError('malformed remediate job');
}

/**
 * Replies in the plan's thread, each stage once per approval: a run of the same
 * approval again (a retry that finds its own change in place after a worker died
 * between the write and the watch, a job taken again because a failover lost its
 * completion, a job the app wrote again after a failover) queues its replies under the
 * same deduplication ids, which BullMQ ignores while the first ones are kept. Another
 * approval of the plan (after a failure released it) has ids of its own.
 */
function replier(
  writes: AttemptWrites,
  deps: RemediateDeps,
  data: RemediateJob,
  attempt: number,
): Run['say'] {
  const where = {
    planId: data.planId,
    cluster: data.cluster,
    ...platformTag(data.platform),
    channel: data.channel,
    messageTs: data.messageTs,
  };
  const approval = createHash('sha256').update(data.approval.claims.nonce).digest('hex').slice(0, 16);
  // "applied" and "already applied" are one report of the write per approval: a run whose
  // start count a failover lost finds this approval's own change in place as a first attempt
  // would, and must not tell a thread that heard "applied" that it was "already applied".
  const slot = (stage: Stage): Stage => (stage === 'already-applied' ? 'applied' : stage);
  return (stage, detail, extra = {}) =>
    writes.notify(
      { kind: 'remediation-outcome', ...where, attempt, stage, ...detailInEvery(detail), ...extra },
      { deduplication: { id: `outcome-${data.planId}-${approval}-${slot(stage)}`, ttl: deps.planTtlMs } },
    );
}

/** The stored, claimed plan of this cluster, or (said in the thread) a job that cannot run. */
async function openRun(
  deps: RemediateDeps,
  job: Job<RemediateJob>,
  data: RemediateJob,
  now: () => number,
): Promise<Run> {
  const stored = await deps.plans.get(data.planId);
  const claim = await deps.plans.claimOf(data.planId);
  // The job's start count: each later start (another worker after a stall) counts one more.
  const attempt = Math.max(1, job.attemptsStarted);
  const writes = deps.keep?.(remediationFence(data.cluster, data.planId, attempt)) ?? deps;
  const say = replier(writes, deps, data, attempt);
  if (!stored || !claim) {
    await say('failed', words.notApproved(Boolean(stored)));
    throw new UnrecoverableError('plan missing or not approved');
  }
  if (stored.cluster !== data.cluster) {
    // Plan ids hash the object's uid, not the cluster: clusters restored from one
    // etcd snapshot share uids. Never apply a plan diagnosed on another cluster.
    await say('refused', words.otherCluster(stored.cluster, data.cluster));
    throw new UnrecoverableError('plan belongs to another cluster');
  }
  const { plan } = stored;
  const run: Run = {
    deps,
    job,
    data,
    stored,
    plan,
    ref: plan.target,
    approvers: [],
    claimedAt: claim.at,
    writes,
    now,
    say,
    audit: (outcome, detail) => {
      deps.audit.record({
        action: 'outcome',
        planId: plan.id,
        cluster: data.cluster,
        namespace: plan.target.namespace,
        deployment: plan.target.name,
        kind: plan.kind,
        approvedBy: run.approvers,
        outcome,
        ...(detail ? { detail } : {}),
      });
      deps.onOutcome?.(plan.kind, outcome);
    },
  };
  return run;
}

/**
 * Nothing in Redis is taken at its word: the plan must carry a worker's seal and the
 * job the app's signed approval of exactly this plan (DESIGN.md §2). Approved in time,
 * but no worker started it before the plan expired (every worker was down): the
 * approval was for a cluster state this old, so refuse; only on the first start, since
 * a job handed back by a dying worker may already have patched. 'refused', or
 * undefined when the run may go on (its approvers then known).
 */
async function refuseUntrusted(run: Run): Promise<'refused' | undefined> {
  const { deps, stored, ref } = run;
  // A clock off beyond the tolerated skew would misjudge every time below: say so instead.
  const clock = deps.clock?.();
  if (clock) {
    run.audit('refused', clock);
    await run.say('refused', words.clock(clock));
    return 'refused';
  }
  const trusted = await deps.trust.check(stored, { id: String(run.job.id), data: run.data });
  if (!trusted.ok && trusted.expired) {
    run.audit('refused', trusted.reason);
    await run.say('refused', words.approvalExpired());
    return 'refused';
  }
  if (!trusted.ok) {
    run.audit('tampered', trusted.reason);
    await run.say('refused', words.untrusted(trusted.reason));
    return 'refused';
  }
  run.approvers = [...trusted.claims.approvers];
  // Handed back with the Undo: the app's Undo button names who asked for the diagnosis.
  run.requester = trusted.claims.requester;
  if (chosenDuration(run, trusted.claims.lasts) === 'refused') {
    const reason = 'the approval names how long a node exclusion lasts, and the plan writes no exclusion';
    run.audit('tampered', reason);
    await run.say('refused', words.untrusted(reason));
    return 'refused';
  }
  if (expiredBeyondSkew(run.now(), stored.expiresAt) && !(run.job.attemptsStarted > 1)) {
    run.audit('refused', 'plan expired before a worker could apply it');
    await run.say('refused', words.expired(ref, stored.expiresAt), {
      rerun: { namespace: ref.namespace, name: ref.name, kind: ref.kind },
    });
    await letGo(run);
    return 'refused';
  }
  return undefined;
}

/**
 * The exclusion's duration its approvers chose, signed in the approval:
 * written in place of the plan's own (only the expires-at marker changes; the seal
 * covered the rest). 'refused' for a duration on a plan that writes no exclusion.
 */
function chosenDuration(run: Run, lasts: string | undefined): 'refused' | undefined {
  if (lasts === undefined) return undefined;
  const lasting = withPlanTtl(run.plan, lasts);
  if (!lasting) return 'refused';
  // The same plan but for the expires-at marker, which the allowlist checks again.
  run.plan = lasting;
  return undefined;
}

/** How long the exclusion a plan writes lasts, for its applied reply; undefined for any other plan. */
function lastsNote(plan: RemediationPlan): Detail | undefined {
  const ttl = plan.patch ? plannedTtl(plan.patch) : undefined;
  return ttl === undefined ? undefined : (lang) => lastsClause(ttl, lang);
}

/**
 * A stepped walk posts that it started (step 1 under way: the approver sees the write
 * at once, not only when the first new pod is Ready), one reply per finished step and
 * one if it stops early; later waits and the final 'done' are left to the applied /
 * rolled-out replies. Job ids are deterministic, so a retried walk that renumbers the
 * same steps posts none twice. `posted`: every reply queued, awaited before the outcome.
 */
function stepReplies(run: Run): { onStep: (event: StepEvent) => void; posted: Promise<void>[] } {
  const { deps, data, writes } = run;
  const attempt = Math.max(1, run.job.attemptsStarted);
  const posted: Promise<void>[] = [];
  const where = {
    planId: data.planId,
    cluster: data.cluster,
    ...platformTag(data.platform),
    channel: data.channel,
    messageTs: data.messageTs,
  };
  const onStep = (event: StepEvent): void => {
    if (event.phase === 'done' || (event.phase === 'waiting-ready' && event.step !== 1)) return;
    const step = event.phase === 'waiting-ready' ? { ...event, step: 1 as const } : event;
    posted.push(
      writes
        .notify(
          {
            kind: 'remediation-outcome',
            ...where,
            attempt,
            stage: 'progress',
            ...detailInEvery(words.step(event)),
            step,
          },
          { deduplication: { id: `step-${data.planId}-${event.step}-${event.phase}`, ttl: deps.planTtlMs } },
        )
        .catch((error: unknown) => {
          deps.logger.warn({ planId: data.planId, err: errorMessage(error) }, 'step progress not queued');
        }),
    );
  };
  return { onStep, posted };
}

/** The Undo of what was applied, stored like any plan, or null (none makes sense, or the walk says why not). */
async function storeUndo(
  run: Run,
  change: { generation: number; changes: FieldChange[]; noUndo?: string },
): Promise<RemediationPlan | null> {
  const { deps } = run;
  const undo = change.noUndo ? null : deps.inverse(run.plan, change);
  if (undo)
    await run.writes.plans.save({
      plan: undo,
      cluster: run.data.cluster,
      createdAt: run.now(),
      expiresAt: run.now() + deps.planTtlMs,
      undoOf: run.plan.id,
    });
  return undo;
}

/** Follows what the change moves (the rollout or the replacement pods) and says how it ended. */
async function watchAfter(
  run: Run,
  scope: Exclude<WatchScope, { kind: 'nothing' }>,
  generation: number,
  undo: RemediationPlan | null,
): Promise<string> {
  const { deps, ref } = run;
  const withUndo = undo ? { undoPlanId: undo.id } : {};
  const watched =
    scope.kind === 'replacements'
      ? await deps.watch(ref, generation, scope.pods)
      : await deps.watch(ref, generation);
  if (watched.outcome === 'complete') {
    const stage = scope.kind === 'replacements' ? 'pods-ready' : 'rolled-out';
    run.audit(stage, watched.summary);
    await run.say(stage, words.about(ref, watched.summary), withUndo);
    return stage;
  }
  if (watched.outcome === 'paused') {
    // Nothing is failing: the change waits for the resume (an Argo Rollout: its promotion), and a fresh finding
    // would only repeat the verdict the change is meant to end.
    run.audit('paused', watched.summary);
    await run.say('paused', words.about(ref, watched.summary), withUndo);
    return 'paused';
  }
  const finding = await deps.currentFinding(ref).catch(() => undefined);
  const outcome = watched.outcome === 'timeout' ? 'timeout' : 'still-failing';
  const why = finding ?? watched.reason ?? watched.summary;
  run.audit(outcome, why);
  await run.say(outcome, words.about(ref, why), withUndo);
  return outcome;
}

/**
 * The approved change is in the cluster: store its Undo, say so, and watch what it
 * moves (watch-scope.ts): the rollout, the replacements of deleted pods, or nothing.
 */
async function applied(
  run: Run,
  change: { generation: number; changes: FieldChange[]; noUndo?: string },
  given?: Detail,
): Promise<string> {
  // A stepped walk the Deployment moved on under says why its Undo would be wrong.
  const notes = [lastsNote(run.plan), given, change.noUndo ? words.noUndo(change.noUndo) : undefined].filter(
    (n): n is Detail => n !== undefined,
  );
  run.audit('applied', notes.map((n) => n('en')).join('; ') || undefined);
  const undo = await storeUndo(run, change);
  const changed = change.changes.map((c) => readablePath(c.path));
  const scope = watchScopeOf(run.plan);
  const watching: Detail = (lang) => watchingWords(scope, lang);
  await run.say('applied', words.applied(run.plan, notes, changed, watching), {
    approvedBy: [...run.approvers],
    ...(undo ? { undoPlanId: undo.id } : {}),
    ...(undo && run.requester ? { requester: run.requester } : {}),
  });
  if (scope.kind === 'nothing') return 'applied';
  return watchAfter(run, scope, change.generation, undo);
}

/** What the executor's answer comes to: a reply, an audit record, and the job's result. */
async function settle(run: Run, result: ApplyResult): Promise<string> {
  const { job, plan, ref } = run;
  const rerun = { rerun: { namespace: ref.namespace, name: ref.name, kind: ref.kind } };
  switch (result.status) {
    case 'refused':
      if (result.tampered) {
        run.audit('tampered', result.reason);
        await run.say('refused', words.outsideKind(plan, result.reason));
        return 'refused';
      }
      run.audit('refused', result.reason);
      await run.say('refused', words.stale(ref, result.reason), rerun);
      return 'refused';
    case 'already-applied':
      // A retry of this approval (an earlier attempt's write got no answer, or its
      // worker died after writing) finds its own change in place: that is the
      // outcome of this approval, so it gets its Undo and its rollout watch. On a
      // first attempt the change was made by someone else: only say so.
      if (job.attemptsStarted > 1) return applied(run, result, words.foundOnRetry());
      run.audit('already-applied', result.reason);
      await run.say('already-applied', words.about(ref, result.reason));
      return 'already-applied';
    case 'failed':
      if (result.retryable && !isLastAttempt(job)) throw new Error(result.reason);
      run.audit('failed', result.reason);
      // Free the claim so the plan can be approved again after a Re-run. Safe even
      // when the write's outcome is unknown: the executor re-reads first and reports
      // already-applied instead of writing twice.
      await run.writes.plans.release(plan.id, { claimedAt: run.claimedAt });
      await run.say('failed', words.failed(plan, result.reason, result.outcomeUnknown === true), rerun);
      throw new UnrecoverableError(result.reason);
    case 'applied':
      return applied(run, result);
  }
}

/**
 * True when another worker took the job over (this one was cut off from Redis long
 * enough for its lock to lapse): it writes nothing to the cluster and says nothing,
 * the other tells the thread. A lock Redis cannot confirm now fails the attempt as
 * retryable: nothing is written on a job this worker may no longer hold.
 */
async function lost(run: Run, holds: NonNullable<RemediateDeps['holds']>, token: string): Promise<boolean> {
  try {
    await holds(run.job, token);
    return false;
  } catch (error) {
    if (!(error instanceof JobLostError))
      throw new Error(`cannot confirm this worker still holds the job: ${errorMessage(error)}`, {
        cause: error,
      });
    run.deps.logger.warn(
      { planId: run.plan.id, attempt: run.job.attemptsStarted, err: error.message },
      'job lost to another worker before the write: nothing applied, nothing posted',
    );
    return true;
  }
}

/**
 * Applies one approved plan: the executor re-checks preconditions, dry-runs and
 * writes; then what the write moves is watched. Each step is a thread reply via
 * `notify`. A retry or a re-run after a worker died finds the write already applied
 * and says so instead of applying twice.
 */
export function createRemediateProcessor(deps: RemediateDeps) {
  const now = deps.now ?? Date.now;
  return async (job: Job<RemediateJob>, token?: string): Promise<string> => {
    const run = await openRun(deps, job, parseJob(deps, job), now);
    const refused = await refuseUntrusted(run);
    if (refused) return refused;
    if (deps.holds && token !== undefined && (await lost(run, deps.holds, token))) return 'lost';
    const steps = stepReplies(run);
    let result: ApplyResult;
    try {
      // The times the write carries (a restart's, an exclusion's end) are Redis's, so every worker agrees on them.
      result = await deps.apply(run.plan, { onStep: steps.onStep, now });
    } catch (error) {
      result = { status: 'failed', reason: errorMessage(error), retryable: true };
    }
    // Every step's reply is queued before the outcome that follows it.
    await Promise.all(steps.posted);
    const outcome = await settle(run, result);
    if (outcome === 'refused') await letGo(run);
    return outcome;
  };
}

/**
 * A genuine approval's job that is refused (expired before a worker took it, the
 * cluster moved on, outside its kind) releases the claim it ran under at once (only
 * that claim: a later approval's stays), so nothing says "already approved; applied
 * once" of a plan nothing applied. A job whose approval does not verify
 * (forged, or a replay whose nonce was used) is not that claim's: it leaves the claim
 * alone. Best effort: a Redis that refuses the write leaves the claim to expire.
 */
async function letGo(run: Run): Promise<void> {
  await run.writes.plans.release(run.plan.id, { claimedAt: run.claimedAt }).catch((error: unknown) => {
    run.deps.logger.warn({ planId: run.plan.id, err: errorMessage(error) }, 'refused claim not released');
  });
}
