/**
 * Node exclusions that end themselves: every so often the worker reads
 * the exclusions rollout-doctor set (their record on the workload: exclusion-record.ts)
 * and
 * - removes one that expired: its approver chose how long it lasts when approving it,
 *   so the removal at that time is part of what was approved. The removal is a plan
 *   like any other (exclusion-removal.ts): its rollout run forward from the workload
 *   as read now first (src/engine/removal-proof.ts; one that would not finish or would
 *   go below a budget's floor waits, audited with why, and is tried again when its
 *   claim lapses), then applied by the executor (preconditions re-read, allowlist,
 *   server dry run, resourceVersion) and audited;
 * - offers the removal of one whose excluded nodes all changed (gone, replaced, another
 *   kernel, runtime or label: exclusion-nodes.ts), audited once; "until removed" too.
 *
 * Argo Rollouts are swept where their CRD is served; what the worker may not list (a
 * 403) or a workloadRef Rollout's record is in the report's `unread` on every sweep and
 * logged once per worker (exclusion-reads.ts), never taken for "no exclusions".
 *
 * Exactly once across workers: the removal's plan id is the same for the same
 * exclusion (workload uid and expires-at), a worker acts only on a claim of that id in
 * Redis (SET NX), and the patch itself tests the expires-at it read, so even a claim
 * lost in a failover cannot remove it twice (the second patch fails its test).
 */
import type { Audit } from '../audit.js';
import type { Node } from '../diagnosis/k8s.js';
import type { ApplyResult } from '../kube/write/executor.js';
import type { ExclusionListing, UnreadExclusions } from '../kube/read/exclusion-reads.js';
import type { Logger } from '../logger.js';
import { allNodesChanged, changedNodes } from '../remediation/exclusion-nodes.js';
import { exclusionState } from '../remediation/exclusion-record.js';
import { removalPlan, type LiveExclusion, type RemovalCause } from '../remediation/exclusion-removal.js';
import type { RemediationPlan } from '../remediation/plan.js';
import type { RemovalProof } from '../engine/removal-proof.js';

export interface ExclusionExpiryDeps {
  cluster: string;
  /** The exclusions now, and what could not be read (src/kube/read/exclusion-reads.ts). */
  list(): Promise<ExclusionListing>;
  /** The cluster's nodes, and whether every node was listed (a node missing is then gone). */
  nodes(): Promise<{ nodes: Node[]; complete: boolean }>;
  /** Claims `key` once across every worker for `ttlMs` (Redis SET NX PX); false: another has it. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The removal's rollout run forward from the workload as read now (src/engine/removal-proof.ts). */
  prove(plan: RemediationPlan): Promise<RemovalProof>;
  apply(plan: RemediationPlan): Promise<ApplyResult>;
  audit: Audit;
  logger: Logger;
  /** Redis's time: every worker judges "expired" by the same clock. */
  now(): number;
}

/** What one exclusion calls for now. */
type ExpiryDecision = { act: 'keep' } | { act: 'remove' | 'offer'; cause: RemovalCause; detail?: string };

/** Pure: expired → remove; every excluded node changed → offer; else keep. */
export function expiryDecision(
  live: LiveExclusion,
  nodes: readonly Node[],
  complete: boolean,
  now: number,
): ExpiryDecision {
  if (exclusionState(live.record, now).state === 'expired') return { act: 'remove', cause: 'expired' };
  const changed = changedNodes(live.record, nodes, complete);
  if (!allNodesChanged(live.record, changed)) return { act: 'keep' };
  const detail = changed.map((c) => `${c.node} ${c.change}${c.detail ? ` (${c.detail})` : ''}`).join(', ');
  return { act: 'offer', cause: 'nodes-changed', detail };
}

/**
 * How long a claim holds: a removal that failed (the API server away) is tried again
 * once its claim lapses; an offer is made once a week at most.
 */
const CLAIM_MS = { remove: 10 * 60_000, offer: 7 * 24 * 3600_000 } as const;

/** What a sweep did, by plan id. */
interface SweepReport {
  removed: string[];
  offered: string[];
  /** Claimed by another worker, or already removed. */
  skipped: string[];
  failed: string[];
  /** Expired, and held back: its rollout run forward would not finish or would go below a floor. */
  waiting: string[];
  /** What was not read or not swept ("Rollout shop/*: why"): never counted as no exclusion. */
  unread: string[];
}

function unreadWords(u: UnreadExclusions): string {
  return `${u.kind} ${u.namespace || '*'}/${u.name ?? '*'}: ${u.reason}`;
}

const OUTCOMES: Record<ApplyResult['status'], 'removed' | 'already-removed' | 'refused' | 'failed'> = {
  applied: 'removed',
  'already-applied': 'already-removed',
  refused: 'refused',
  failed: 'failed',
};

/**
 * One pass over the exclusions: each expired one removed once, each changed one offered
 * once. `warned`: what was not read and already logged (one set per worker, so a 403 is
 * logged once, and reported unread on every sweep).
 */
export async function sweepExclusions(
  deps: ExclusionExpiryDeps,
  warned: Set<string> = new Set(),
): Promise<SweepReport> {
  const { exclusions, unread } = await deps.list();
  const report: SweepReport = {
    removed: [],
    offered: [],
    skipped: [],
    failed: [],
    waiting: [],
    unread: [],
  };
  for (const u of unread) {
    const words = unreadWords(u);
    report.unread.push(words);
    if (warned.has(words)) continue;
    warned.add(words);
    deps.logger.warn(
      { kind: u.kind, namespace: u.namespace, name: u.name, status: u.status },
      `exclusion sweep: ${words}`,
    );
  }
  if (exclusions.length === 0) return report;
  const { nodes, complete } = await deps.nodes();
  const now = deps.now();
  for (const live of exclusions) {
    const decision = expiryDecision(live, nodes, complete, now);
    if (decision.act === 'keep') continue;
    const plan = removalPlan(live, decision.cause);
    const where = {
      planId: plan.id,
      cluster: deps.cluster,
      namespace: live.target.namespace,
      deployment: live.target.name,
      cause: decision.cause,
    };
    if (!(await deps.claim(`${decision.act}-${plan.id}`, CLAIM_MS[decision.act]))) {
      report.skipped.push(plan.id);
      continue;
    }
    if (decision.act === 'offer') {
      deps.audit.record({ action: 'exclusion', ...where, outcome: 'offered', detail: decision.detail ?? '' });
      deps.logger.info(
        { planId: plan.id, target: live.target },
        'exclusion: the excluded nodes changed; removal offered',
      );
      report.offered.push(plan.id);
      continue;
    }
    const proof = await deps.prove(plan).catch((error: unknown): RemovalProof => ({
      ok: false,
      reason: `the workload could not be read to run the removal forward (${error instanceof Error ? error.message : String(error)})`,
    }));
    if (!proof.ok) {
      deps.audit.record({ action: 'exclusion', ...where, outcome: 'waiting', detail: proof.reason });
      deps.logger.info(
        { planId: plan.id, target: live.target, reason: proof.reason },
        'exclusion: removal waits',
      );
      report.waiting.push(plan.id);
      continue;
    }
    const result = await deps.apply(plan).catch((error: unknown): ApplyResult => ({
      status: 'failed',
      reason: error instanceof Error ? error.message : String(error),
      retryable: true,
    }));
    const outcome = OUTCOMES[result.status];
    const detail = 'reason' in result ? result.reason : undefined;
    deps.audit.record({ action: 'exclusion', ...where, outcome, ...(detail ? { detail } : {}) });
    (outcome === 'removed'
      ? report.removed
      : outcome === 'already-removed'
        ? report.skipped
        : report.failed
    ).push(plan.id);
  }
  return report;
}

/**
 * Sweeps every `intervalMs` until stopped; a sweep that throws (the API server away) is
 * logged and the next one tries again. `stop` waits for a sweep under way.
 */
export interface ExclusionExpiry {
  stop(): Promise<void>;
  /** A sweep now, after any under way (tests, and a worker that wants one at once). */
  sweepNow(): Promise<SweepReport | undefined>;
}

export function startExclusionExpiry(deps: ExclusionExpiryDeps, intervalMs: number): ExclusionExpiry {
  let running: Promise<SweepReport | undefined> = Promise.resolve(undefined);
  let stopped = false;
  const warned = new Set<string>();
  const sweep = (): Promise<SweepReport | undefined> => {
    running = running.then(() =>
      stopped
        ? undefined
        : sweepExclusions(deps, warned).catch((error: unknown) => {
            deps.logger.warn({ err: error }, 'exclusion sweep failed; the next one tries again');
            return undefined;
          }),
    );
    return running;
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return {
    sweepNow: sweep,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
