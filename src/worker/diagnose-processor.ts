import { DEFAULT_WORKLOAD_KIND, type WorkloadKind } from '../diagnosis/workload-ref.js';
import type { Audit } from '../audit.js';
import type { DiagnoseVerdict } from '../queue/diagnose-signature.js';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { WorkloadRef, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { ClusterError, WorkloadNotFoundError } from '../kube/errors.js';
import type { Logger } from '../logger.js';
import type { DryRunSummary, PlanStore } from '../queue/plan-store.js';
import type { RemediationPlan } from '../remediation/plan.js';
import {
  diagnoseJobSchema,
  resourceNameSchema,
  type DiagnoseJob,
  type DiagnosisOutcome,
  type NotifyJobInput,
} from '../queue/schemas.js';
import { createSequence, errorMessage, isLastAttempt } from './progress.js';
import { messageTime } from '../text/time.js';
import { diagnosisAudit } from './diagnosis-audit.js';
import { whileRedisAway } from '../queue/connection.js';

/** What the diagnose processor needs from the cluster and the engine; injected so tests can fake them. */
export interface DiagnoseDeps {
  collect(ref: WorkloadRef, onProgress: (message: string) => void): Promise<WorkloadSnapshot>;
  diagnose(snapshot: WorkloadSnapshot): Diagnosis;
  dryRun(plan: RemediationPlan): Promise<DryRunSummary>;
  scan(
    namespace: string | undefined,
    onProgress: (done: number, total?: number) => void,
  ): Promise<{
    scanned: number;
    entries: {
      kind?: WorkloadKind;
      namespace: string;
      name: string;
      state: string;
      findings: { code: string; summary: string }[];
    }[];
    notServed?: WorkloadKind[];
  }>;
  /** The workload owning a pod (ownerReferences), for alert jobs that name pods. */
  resolvePodOwner?(namespace: string, pod: string): Promise<WorkloadRef>;
  plans: PlanStore;
  planTtlMs: number;
  /** `background`: the run was started by an alert or the early warning (its posts take the alert lane). */
  notify(job: NotifyJobInput, options?: { background?: boolean }): Promise<void>;
  logger: Logger;
  now?: () => number;
  /**
   * Checks that the app or a worker queued the job and who asked (src/queue/
   * diagnose-signature.ts); a job it refuses reads nothing, posts nothing, and is audited.
   * Absent only in tests of other things.
   */
  verifyJob?: (data: unknown, jobId: string | undefined) => DiagnoseVerdict;
  audit?: Audit;
  /**
   * This worker's clock named for a person when it is off beyond the tolerated skew and
   * Redis's clock is unknown (src/queue/clock-watch.ts); undefined while it is in step or
   * corrected by Redis's clock. Absent: not watched.
   */
  clock?: () => string | undefined;
  /**
   * True when a later attempt of the job started (this worker lost it: cut off from
   * Redis while another took it over, src/worker/job-fence.ts): its result is not posted.
   */
  superseded?: (job: Job<DiagnoseJob>) => Promise<boolean>;
  /**
   * Which attempt of the job posted its run's result (src/worker/job-fence.ts
   * runAnsweredBy), and the record that this one did: an attempt after the one that
   * answered stores and posts nothing.
   */
  answered?: {
    by(job: Job<DiagnoseJob>): Promise<number | undefined>;
    mark(job: Job<DiagnoseJob>): Promise<void>;
  };
  /**
   * True when the app withdrew the job's request (src/queue/withdrawn.ts): its answer
   * said "not started", so the job reads nothing and posts nothing.
   */
  withdrawn?: (request: string) => Promise<boolean>;
}

/** Dry runs in flight at once for one diagnosis. */
const DRY_RUN_CONCURRENCY = 4;

/** Runs `work` for every item, at most `limit` at a time; rejects with the first failure. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  // One iterator shared by the lanes: each takes the next item when it is free.
  const queue = items.values();
  const lane = async (): Promise<void> => {
    for (const item of queue) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Errors a retry cannot change: the target is gone, or we are not allowed to look. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof WorkloadNotFoundError ||
    (error instanceof ClusterError && (error.status === 401 || error.status === 403))
  );
}

/**
 * A workload asked for by name that does not exist: the name, its namespace and the
 * closest names there (src/kube/read/collector.ts), so the app can answer "did you mean".
 * Not for alert jobs, whose target is resolved from pods.
 */
function notFoundOf(
  error: unknown,
  data: DiagnoseJob,
): { notFound?: { kind: WorkloadKind; namespace: string; name: string; suggestions: string[] } } {
  if (!(error instanceof WorkloadNotFoundError) || data.mode !== 'workload' || data.resolveFromPods?.length)
    return {};
  const suggestions = error.suggestions.filter((s) => resourceNameSchema.safeParse(s).success).slice(0, 5);
  const { kind, namespace, name } = data.target;
  return { notFound: { kind, namespace, name, suggestions } };
}

/**
 * Alert jobs naming pods carry `resolveFromPods`: the first pod whose owner chain
 * leads to a workload names the target. When none resolves and the target name was
 * guessed from a pod name, the guess is diagnosed; otherwise the owner error (bare pod,
 * StatefulSet, ...) is the answer.
 */
async function resolveAlertTarget(
  deps: Pick<DiagnoseDeps, 'resolvePodOwner'>,
  data: Extract<DiagnoseJob, { mode: 'workload' }>,
): Promise<WorkloadRef> {
  const pods = data.resolveFromPods ?? [];
  if (pods.length === 0 || !deps.resolvePodOwner) return data.target;
  let lastError: unknown;
  for (const pod of pods) {
    try {
      return await deps.resolvePodOwner(data.target.namespace, pod);
    } catch (error) {
      if (!(error instanceof WorkloadNotFoundError)) throw error;
      lastError = error;
    }
  }
  if (!pods.includes(data.target.name)) return data.target;
  throw lastError;
}

/** A scan of a namespace (or every namespace) as the result the app posts: the first finding per workload. */
async function scanOutcome(
  deps: Pick<DiagnoseDeps, 'scan'>,
  namespace: string | undefined,
  progress: (text: string) => void,
): Promise<Extract<DiagnosisOutcome, { status: 'scanned' }>> {
  progress(`scanning ${namespace ? `namespace ${namespace}` : 'all namespaces'}…`);
  const report = await deps.scan(namespace, (done, total) =>
    progress(`scanned ${done}${total ? `/${total}` : ''} workloads…`),
  );
  const items = report.entries.flatMap((e) =>
    e.findings.slice(0, 1).map((f) => ({
      ...(e.kind && e.kind !== DEFAULT_WORKLOAD_KIND ? { kind: e.kind } : {}),
      namespace: e.namespace,
      name: e.name,
      code: f.code,
      summary: `${e.state}: ${f.summary}`,
    })),
  );
  return {
    status: 'scanned',
    summary: `${report.scanned} workloads scanned, ${report.entries.length} stuck or at risk${report.notServed?.includes('Rollout') ? ' (no Argo Rollouts: the cluster serves no rollouts.argoproj.io)' : ''}`,
    items,
  };
}

/**
 * Collects, diagnoses, dry-runs every plan, stores the plans, and sends the result
 * to `notify`. Progress goes to `notify` too; the worker never calls Slack.
 */
export function createDiagnoseProcessor(deps: DiagnoseDeps) {
  const now = deps.now ?? Date.now;
  return async (job: Job<DiagnoseJob>): Promise<string> => {
    const verdict = refuseUnsigned(deps, job);
    const data = diagnoseJobSchema.parse(job.data);
    if (data.request !== undefined && (await deps.withdrawn?.(data.request))) {
      deps.logger.warn(
        { jobId: job.id, requestedBy: data.requestedBy },
        'diagnose job not run: its request was answered "not started" (queued after the deadline)',
      );
      return 'withdrawn';
    }
    const seq = createSequence(now);
    const run: RunKey = {
      jobId: job.id ?? '',
      cluster: data.cluster,
      runTs: job.timestamp,
      // What Re-run re-diagnoses; replaced by the workload a pod-named alert resolves to.
      ...(data.mode === 'workload'
        ? { target: { kind: data.target.kind, namespace: data.target.namespace, name: data.target.name } }
        : {}),
    };
    // Background runs (alerts, early warning) carry a BullMQ priority; their posts go
    // to the alert lane so they never wait in front of a person's result.
    // job.priority, not opts: a person joining the run resets it (src/queue/producers.ts).
    const lane = { background: (job.priority ?? 0) > 0 };
    const progress = (text: string): void => {
      deps
        .notify({ kind: 'diagnosis-progress', ...run, seq: seq(), text }, lane)
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'progress not queued'));
    };
    // What an attempt writes (its plans, then its result) is written only while no later
    // attempt started: a worker that lost its job mid-run (cut off from Redis while another
    // took it over) would otherwise store plans no message shows, and every Approve on
    // the taking worker's message would then read as re-made.
    const result = async (outcome: DiagnosisOutcome): Promise<void> => {
      // Asked again through a failover (the lock this attempt lost then is the usual way a
      // job gets a second attempt); only a Redis away for longer leaves it unknown, and then
      // this attempt's outcome is the only account left.
      const owner = deps.superseded;
      if (owner && (await whileRedisAway(() => owner(job)).catch(() => false))) {
        deps.logger.warn(
          { jobId: job.id, attempt: job.attemptsStarted },
          'result of a job a later attempt took over: not posted, its plans not stored',
        );
        return;
      }
      const answered = deps.answered;
      const by = answered && (await whileRedisAway(() => answered.by(job)).catch(() => undefined));
      if (by !== undefined && by !== job.attemptsStarted) {
        deps.logger.warn(
          { jobId: job.id, attempt: job.attemptsStarted, answeredBy: by },
          'an earlier attempt of this run posted its result: this one stores and posts nothing',
        );
        return;
      }
      if (outcome.status === 'diagnosed') await savePlans(deps, data.cluster, outcome);
      await deps.notify({ kind: 'diagnosis-result', ...run, seq: seq(), outcome }, lane);
      await answered
        ?.mark(job)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, jobId: job.id }, 'run answer not recorded'),
        );
    };
    const clockRefusal = refusedForTime(deps, job, data, verdict);
    if (clockRefusal) {
      await result({ status: 'failed', reason: clockRefusal });
      throw new UnrecoverableError(clockRefusal);
    }
    try {
      if (data.mode === 'scan') {
        await result(await scanOutcome(deps, data.namespace, progress));
        return 'scanned';
      }
      const target = await resolveAlertTarget(deps, data);
      run.target = { kind: target.kind, namespace: target.namespace, name: target.name };
      const diagnosed = await diagnoseAndDryRun(deps, data.cluster, target, progress, {
        requestedBy: data.requestedBy,
        requestedAt: job.timestamp,
      });
      await result({ status: 'diagnosed', ...diagnosed });
      return diagnosed.diagnosis.findings[0]?.code ?? 'healthy';
    } catch (error) {
      const permanent = isPermanent(error);
      if (permanent || isLastAttempt(job)) {
        const what =
          data.mode === 'scan'
            ? 'scan'
            : `${typeOfKind(data.target.kind)}/${data.target.name} in ${data.target.namespace}`;
        await result({
          status: 'failed',
          reason: `${what}: ${errorMessage(error)}${permanent ? '' : ` (gave up after ${job.attemptsMade + 1} attempts)`}`,
          ...notFoundOf(error, data),
        });
      }
      if (permanent) throw new UnrecoverableError(errorMessage(error));
      throw error;
    }
  };
}

/** Which run a notification belongs to (and, once known, the workload Re-run re-diagnoses). */
interface RunKey {
  jobId: string;
  cluster: string;
  runTs: number;
  target?: WorkloadRef;
}

/**
 * What a person is told instead of a diagnosis when time says no: this
 * worker's clock is off beyond the tolerated skew (every time it would write or check
 * would be wrong), or the job's genuine signature expired while this clock is in step
 * with Redis's (then the app's clock, or a job that waited that long). Undefined: run it.
 */
function refusedForTime(
  deps: DiagnoseDeps,
  job: Job<DiagnoseJob>,
  data: DiagnoseJob,
  verdict: DiagnoseVerdict | undefined,
): string | undefined {
  const what =
    data.mode === 'scan'
      ? 'scan'
      : `${typeOfKind(data.target.kind)}/${data.target.name} in ${data.target.namespace}`;
  const clock = deps.clock?.();
  const expired = verdict && !verdict.ok ? verdict.expired : undefined;
  if (!clock && !expired) return undefined;
  const reason = clock
    ? `not run: ${clock}`
    : `not run: the request expired at ${messageTime(expired?.expiresAt ?? 0)} by this worker's clock, which is in step with Redis's; if it did not wait that long in the queue, the clock of the app that signed it is behind: fix time sync (NTP, chrony) on the app's node`;
  deps.logger.warn({ jobId: job.id, reason }, 'diagnose job not run: clock');
  deps.audit?.record({
    action: 'refusal',
    planId: 'diagnose',
    user: data.requestedBy,
    reason: 'expired',
    detail: `job ${job.id}: ${reason}`,
  });
  return `${what}: ${reason}`;
}

/**
 * A job neither the app nor a worker signed is refused for good, and audited. A genuine
 * job whose signature expired is left to refusedForTime, which answers it.
 */
function refuseUnsigned(deps: DiagnoseDeps, job: Job<DiagnoseJob>): DiagnoseVerdict | undefined {
  if (!deps.verifyJob) return undefined;
  const verdict = deps.verifyJob(job.data, job.id);
  if (verdict.ok || verdict.expired) return verdict;
  deps.logger.warn(
    { jobId: job.id, reason: verdict.reason },
    'diagnose job refused: not queued by the app or a worker',
  );
  deps.audit?.record({
    action: 'refusal',
    planId: 'diagnose',
    user: 'unknown',
    reason: 'tampered',
    detail: `job ${job.id}: ${verdict.reason}`,
  });
  throw new UnrecoverableError(`refused: ${verdict.reason}`);
}

/** Collects and diagnoses the workload, then dry-runs every plan (stored by `savePlans`). */
async function diagnoseAndDryRun(
  deps: DiagnoseDeps,
  cluster: string,
  target: WorkloadRef,
  progress: (text: string) => void,
  /** Who asked and when the job was queued, for the audit (an incident's first signal). */
  request: { requestedBy: string; requestedAt: number },
): Promise<{ diagnosis: Diagnosis; dryRuns: Record<string, DryRunSummary> }> {
  const named = `${typeOfKind(target.kind)}/${target.name}`;
  progress(`diagnosing ${named} in ${target.namespace}: collecting…`);
  const snapshot = await deps.collect(target, (message) => progress(`${named}: ${message}`));
  const diagnosis = deps.diagnose(snapshot);
  // The record of an incident never stops its diagnosis: an event that cannot be built is logged.
  try {
    deps.audit?.record(diagnosisAudit({ cluster, diagnosis, snapshot, ...request }));
  } catch (error) {
    deps.logger.warn({ err: error }, 'diagnosis not audited');
  }
  const dryRuns: Record<string, DryRunSummary> = {};
  // Plans are independent (each dry run re-reads its target and PATCHes with
  // dryRun=All, which changes nothing), so they run side by side: the result waits
  // for the slowest plan, not the sum. Bounded so a long plan list cannot flood
  // the API server.
  await forEachLimited(diagnosis.remediations, DRY_RUN_CONCURRENCY, async (plan) => {
    progress(`${named}: server-side dry run of ${plan.kind}…`);
    const dryRun = await deps
      .dryRun(plan)
      .catch((error: unknown) => ({ ok: false as const, reason: errorMessage(error) }));
    dryRuns[plan.id] = dryRun;
  });
  return { diagnosis, dryRuns };
}

/** Stores every plan of a diagnosis with its dry run, for the Approve buttons its result shows. */
async function savePlans(
  deps: DiagnoseDeps,
  cluster: string,
  { diagnosis, dryRuns }: { diagnosis: Diagnosis; dryRuns: Record<string, DryRunSummary> },
): Promise<void> {
  const now = deps.now ?? Date.now;
  for (const plan of diagnosis.remediations) {
    const dryRun = dryRuns[plan.id];
    await deps.plans.save({
      plan,
      cluster,
      createdAt: now(),
      expiresAt: now() + deps.planTtlMs,
      ...(dryRun ? { dryRun } : {}),
    });
  }
}
