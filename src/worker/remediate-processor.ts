import { UnrecoverableError, type Job } from 'bullmq';
import type { Audit, AuditEvent } from '../audit.js';
import type { Logger } from '../logger.js';
import type { FieldChange, PlanStore } from '../plans/store.js';
import type { RemediationPlan } from '../remediation/plan.js';
import type { WorkloadRef } from '../diagnosis/snapshot.js';
import type { ApplyResult } from '../kube/write/executor.js';
import type { StepEvent } from '../kube/write/stepped-walk.js';
import type { EnqueueOptions } from '../queue/producers.js';
import { remediateJobSchema, type NotifyJobInput, type RemediateJob } from '../queue/schemas.js';
import { watchScopeOf, watchingWords } from '../remediation/watch-scope.js';
import type { PlanTrust } from './plan-trust.js';
import { errorMessage, isLastAttempt } from './progress.js';

/** Cluster writes and reads the remediate processor needs; injected so tests can fake them. */
export interface RemediateDeps {
  /** `onStep`: each step of a stepped scale-old-replicaset, as data (replicaset-scaler.ts). */
  apply(plan: RemediationPlan, hooks?: { onStep?: (event: StepEvent) => void }): Promise<ApplyResult>;
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
}

/**
 * Applies one approved plan: the executor re-checks preconditions, dry-runs and
 * patches; then the rollout is watched. Each step is a thread reply via `notify`.
 * A retry or a re-run after a worker died finds the patch already applied and
 * says so instead of applying twice.
 */
export function createRemediateProcessor(deps: RemediateDeps) {
  const now = deps.now ?? Date.now;
  return async (job: Job<RemediateJob>): Promise<string> => {
    const parsed = remediateJobSchema.safeParse(job.data);
    if (!parsed.success) {
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
    const data = parsed.data;
    const stored = await deps.plans.get(data.planId);
    const claim = await deps.plans.claimOf(data.planId);
    const where = {
      planId: data.planId,
      cluster: data.cluster,
      channel: data.channel,
      messageTs: data.messageTs,
    };
    const say = (
      stage: Extract<NotifyJobInput, { kind: 'remediation-outcome' }>['stage'],
      detail: string,
      extra: {
        undoPlanId?: string;
        rerun?: { namespace: string; name: string };
        approvedBy?: string[];
        requester?: string;
      } = {},
    ): Promise<void> =>
      deps.notify(
        { kind: 'remediation-outcome', ...where, stage, detail, ...extra },
        // One "applied" line per approval: a retry that finds its own change in place
        // (after a worker died between the write and the watch) says it only once.
        stage === 'applied'
          ? { deduplication: { id: `applied-${data.planId}`, ttl: deps.planTtlMs } }
          : undefined,
      );
    if (!stored || !claim) {
      await say(
        'failed',
        stored
          ? 'the plan was not approved; nothing was applied.'
          : 'the plan is no longer stored; nothing was applied. Press Re-run.',
      );
      throw new UnrecoverableError('plan missing or not approved');
    }
    if (stored.cluster !== data.cluster) {
      // Plan ids hash the object's uid, not the cluster: clusters restored from one
      // etcd snapshot share uids. Never apply a plan diagnosed on another cluster.
      await say(
        'refused',
        `not applied: this plan was made for cluster ${stored.cluster}, not ${data.cluster}. Press Re-run.`,
      );
      throw new UnrecoverableError('plan belongs to another cluster');
    }
    const { plan } = stored;
    const ref = plan.target;
    let approvers: string[] = [];
    const audit = (outcome: Extract<AuditEvent, { action: 'outcome' }>['outcome'], detail?: string): void => {
      deps.audit.record({
        action: 'outcome',
        planId: plan.id,
        cluster: data.cluster,
        namespace: ref.namespace,
        deployment: ref.name,
        kind: plan.kind,
        approvedBy: approvers,
        outcome,
        ...(detail ? { detail } : {}),
      });
      deps.onOutcome?.(plan.kind, outcome);
    };

    // Nothing in Redis is taken at its word: the plan must carry a worker's seal and
    // the job the app's signed approval of exactly this plan (DESIGN.md §2).
    const trusted = await deps.trust.check(stored, { id: String(job.id), data });
    if (!trusted.ok) {
      audit('tampered', trusted.reason);
      await say(
        'refused',
        `not applied: ${trusted.reason}. Nothing was changed; the plan or its approval may have been altered where they are stored. Press Re-run for a fresh plan.`,
      );
      return 'refused';
    }
    approvers = [...trusted.claims.approvers];
    // Handed back with the Undo: the app's Undo button names who asked for the diagnosis.
    const { requester } = trusted.claims;

    // Approved in time, but no worker started it before the plan expired (every worker
    // was down): the approval was for a cluster state this old, so refuse. Only on the
    // first start: a job handed back by a dying worker may already have patched.
    if (now() > stored.expiresAt && !(job.attemptsStarted > 1)) {
      const at = new Date(stored.expiresAt).toISOString().replace('T', ' ').slice(0, 19);
      audit('refused', 'plan expired before a worker could apply it');
      await say(
        'refused',
        `not applied: the plan for deployment/${ref.name} expired at ${at} UTC before a worker could apply it. Re-run for a fresh plan.`,
        { rerun: { namespace: ref.namespace, name: ref.name } },
      );
      return 'refused';
    }

    /**
     * The approved change is in the cluster: store its Undo, say so, and watch what it
     * moves (watch-scope.ts): the rollout, the replacements of deleted pods, or nothing.
     */
    const applied = async (
      change: { generation: number; changes: FieldChange[]; noUndo?: string },
      given?: string,
    ): Promise<string> => {
      // A stepped walk the Deployment moved on under says why its Undo would be wrong.
      const note = change.noUndo ? [given, `no Undo: ${change.noUndo}`].filter(Boolean).join('; ') : given;
      audit('applied', note);
      const undo = change.noUndo ? null : deps.inverse(plan, change);
      if (undo)
        await deps.plans.save({
          plan: undo,
          cluster: data.cluster,
          createdAt: now(),
          expiresAt: now() + deps.planTtlMs,
          undoOf: plan.id,
        });
      const changed = change.changes.map((c) => c.path).join(', ') || 'no field changes';
      const scope = watchScopeOf(plan);
      await say(
        'applied',
        `${plan.summary} (${note ? `${note}; ` : ''}changed ${changed}). ${watchingWords(scope)}`,
        {
          approvedBy: [...approvers],
          ...(undo ? { undoPlanId: undo.id } : {}),
          ...(undo && requester ? { requester } : {}),
        },
      );
      if (scope.kind === 'nothing') return 'applied';
      const watched =
        scope.kind === 'replacements'
          ? await deps.watch(ref, change.generation, scope.pods)
          : await deps.watch(ref, change.generation);
      if (watched.outcome === 'complete') {
        const stage = scope.kind === 'replacements' ? 'pods-ready' : 'rolled-out';
        audit(stage, watched.summary);
        await say(stage, `deployment/${ref.name}: ${watched.summary}`, undo ? { undoPlanId: undo.id } : {});
        return stage;
      }
      if (watched.outcome === 'paused') {
        // Nothing is failing: the change waits for the resume, and a fresh finding
        // would only repeat the verdict the change is meant to end.
        audit('paused', watched.summary);
        await say(
          'paused',
          `deployment/${ref.name}: ${watched.summary}`,
          undo ? { undoPlanId: undo.id } : {},
        );
        return 'paused';
      }
      const finding = await deps.currentFinding(ref).catch(() => undefined);
      const outcome = watched.outcome === 'timeout' ? 'timeout' : 'still-failing';
      audit(outcome, finding ?? watched.reason ?? watched.summary);
      await say(
        outcome,
        `deployment/${ref.name}: ${finding ?? watched.reason ?? watched.summary}`,
        undo ? { undoPlanId: undo.id } : {},
      );
      return outcome;
    };

    // A stepped walk posts that it started (step 1 under way: the approver sees the
    // write at once, not only when the first new pod is Ready), one reply per finished
    // step and one if it stops early; later waits and the final 'done' are left to the
    // applied / rolled-out replies. Job ids are deterministic, so a retried walk that
    // renumbers the same steps posts none twice.
    const posted: Promise<void>[] = [];
    const onStep = (event: StepEvent): void => {
      if (event.phase === 'done' || (event.phase === 'waiting-ready' && event.step !== 1)) return;
      const step = event.phase === 'waiting-ready' ? { ...event, step: 1 as const } : event;
      const detail =
        event.phase === 'waiting-ready'
          ? `step 1 of ${event.of} started`
          : event.phase === 'ready'
            ? `step ${event.step} of ${event.of} done`
            : event.phase === 'stopped'
              ? `stopped at step ${event.step} of ${event.of}`
              : `${event.pods.join(', ')} still marked with controller.kubernetes.io/pod-deletion-cost`;
      posted.push(
        deps
          .notify(
            { kind: 'remediation-outcome', ...where, stage: 'progress', detail, step },
            {
              deduplication: {
                id: `step-${data.planId}-${event.step}-${event.phase}`,
                ttl: deps.planTtlMs,
              },
            },
          )
          .catch((error: unknown) => {
            deps.logger.warn({ planId: data.planId, err: errorMessage(error) }, 'step progress not queued');
          }),
      );
    };
    let result: ApplyResult;
    try {
      result = await deps.apply(plan, { onStep });
    } catch (error) {
      result = { status: 'failed', reason: errorMessage(error), retryable: true };
    }
    // Every step's reply is queued before the outcome that follows it.
    await Promise.all(posted);
    switch (result.status) {
      case 'refused':
        if (result.tampered) {
          audit('tampered', result.reason);
          await say(
            'refused',
            `not applied: the stored ${plan.kind} plan for deployment/${ref.name} is outside what that kind may change (${result.reason}). Nothing was changed; the plan may have been altered where it is stored.`,
          );
          return 'refused';
        }
        audit('refused', result.reason);
        await say(
          'refused',
          `not applied: deployment/${ref.name} changed since the diagnosis (${result.reason}). Re-run for a fresh plan.`,
          { rerun: { namespace: ref.namespace, name: ref.name } },
        );
        return 'refused';
      case 'already-applied':
        // A retry of this approval (an earlier attempt's write got no answer, or its
        // worker died after writing) finds its own change in place: that is the
        // outcome of this approval, so it gets its Undo and its rollout watch. On a
        // first attempt the change was made by someone else: only say so.
        if (job.attemptsStarted > 1)
          return applied(result, 'found in place on this retry: the earlier attempt wrote it');
        audit('already-applied', result.reason);
        await say('already-applied', `deployment/${ref.name}: ${result.reason}`);
        return 'already-applied';
      case 'failed':
        if (result.retryable && !isLastAttempt(job)) throw new Error(result.reason);
        audit('failed', result.reason);
        // Free the claim so the plan can be approved again after a Re-run. Safe even
        // when the write's outcome is unknown: the executor re-reads first and reports
        // already-applied instead of writing twice.
        await deps.plans.release(plan.id);
        await say(
          'failed',
          result.outcomeUnknown
            ? `${plan.kind} on deployment/${ref.name}: the API server did not answer the write (${result.reason}), so it may or may not have been applied. Press Re-run to see the Deployment as it is now; a retry never applies twice.`
            : `${plan.kind} on deployment/${ref.name} failed: ${result.reason}. Nothing was changed; press Re-run for a fresh message and approve it again once the cause is fixed.`,
          { rerun: { namespace: ref.namespace, name: ref.name } },
        );
        throw new UnrecoverableError(result.reason);
      case 'applied':
        return applied(result);
    }
  };
}
