/**
 * Pods that are never created (DESIGN.md §1 E, §4b): each revision whose pods the API
 * server refuses, what refuses them, and for a quota whether some order of
 * replacement gets through.
 *
 * A quota refusal names the quota and, per exceeded entry, what the pod asked
 * (requested), what the quota counted (used) and its hard limit (limited). Our own
 * pods' charges (quota-charge.ts) split `used` into ours and others'. Then:
 * - 'order': the whole Deployment fits the quota at its desired replicas on the new
 *   template (others + replicas × requested ≤ hard), and letting `release` old pods
 *   go first makes room for one new pod. When the controller keeps every old pod
 *   until a new one is available (kind module `keepsOldPods`), it is the surge
 *   deadlock; otherwise the controller gets through by itself.
 * - 'exceeded': no order gets through (a scale-up, a bigger new template, other
 *   workloads' usage): something must be raised or freed.
 * - 'admits': recounted from the namespace's pods as they are now (every one of them
 *   read; other namespaces' need not be), the quota admits the next new pod: the
 *   refusal was seen mid-step, its `used` counting a pod gone or past its grace period
 *   since (DESIGN.md §4c), and the controller's retry gets through. Where the forward
 *   model can run it recounts the quota too and says the rollout moves; where it cannot
 *   (a node's other pods not read, a Rollout's steps it does not follow) this recount
 *   keeps the refusal from reading as a deadlock.
 * Derived once per diagnosis (`ctx.once`).
 */
import { namespacePodsKnown } from '../snapshot/types.js';
import type { AnalysisContext } from '../analysis-context.js';
import { classifyRefusal, type CreateRefusal } from '../base/create-refusal.js';
import {
  EVENTUALLY,
  formatQuotaAmount,
  podQuotaCharge,
  quotaAmount,
  quotaMeasure,
} from '../base/quota-charge.js';
import { isTerminal } from '../base/pods.js';
import type { Pod } from '../k8s.js';
import type { ResourceQuota } from '../k8s-policy.js';
import type { QuotaRow } from '../finding.js';
import type { CreateFailure } from '../workload-kind.js';
import { workloadKind } from '../workloads/index.js';

type QuotaRefusal = Extract<CreateRefusal, { kind: 'quota-exceeded' }>;

export type RefusedRevision =
  | { failure: CreateFailure; refusal: Exclude<CreateRefusal, QuotaRefusal> }
  | {
      failure: CreateFailure;
      refusal: QuotaRefusal;
      rows: QuotaRow[];
      /** 'order': some order of replacement fits; 'exceeded': none does; 'admits': the refusal has passed. */
      verdict: 'order' | 'exceeded' | 'admits';
      /** With 'order': old pods that must go before one new pod fits. */
      release: number;
      /** With 'exceeded': why no order fits, one sentence. */
      why?: string;
      /** The controller keeps every old pod until a new one is available (so 'order' is a deadlock). */
      keepsOld: boolean;
      /** Live pods of older revisions, which a strategy change would let go first. */
      oldPods: Pod[];
    };

export function refusedRevisions(ctx: AnalysisContext): RefusedRevision[] {
  return ctx.once('refused-revisions', () => {
    const { snapshot } = ctx;
    const kind = workloadKind(snapshot);
    return kind.createFailures(snapshot).map((failure) => {
      const refusal = classifyRefusal(failure.message);
      if (refusal.kind !== 'quota-exceeded') return { failure, refusal };
      return { failure, refusal, ...quotaVerdict(ctx, failure, refusal) };
    });
  });
}

interface QuotaEntry {
  resource: string;
  hard: number;
  used: number;
  requested: number;
}

/**
 * The refused entries of a quota refusal, each at the quota's hard limit as read now
 * where the quota was read (`quotas`): a limit raised since the refusal is what admission
 * checks at the controller's next retry, and an entry whose limit was removed, or a quota
 * deleted since, refuses nothing more (the entry is left out). The refusal's own `limited`
 * where the quotas were not read.
 */
export function quotaEntries(
  refusal: QuotaRefusal,
  quotas: readonly ResourceQuota[] | undefined,
  namespace: string,
): QuotaEntry[] {
  const out: QuotaEntry[] = [];
  const read = quotas?.find(
    (q) => q.metadata.name === refusal.quota && (q.metadata.namespace ?? namespace) === namespace,
  );
  for (const [resource, limited] of Object.entries(refusal.limited)) {
    // Admission checks status.hard, which the quota controller copies from spec.hard.
    const now = read && (read.status?.hard?.[resource] ?? read.spec?.hard?.[resource]);
    if (quotas !== undefined && now === undefined) continue;
    const hard = quotaAmount(resource, now === undefined ? limited : String(now));
    const used = quotaAmount(resource, refusal.used[resource] ?? '');
    const requested = quotaAmount(resource, refusal.requested[resource] ?? '');
    if (hard === undefined || used === undefined || requested === undefined || !quotaMeasure(resource))
      continue;
    out.push({ resource, hard, used, requested });
  }
  return out;
}

const show = formatQuotaAmount;

/**
 * The namespace's quota charge for a resource recounted from its pods, as the quota
 * controller converges to it (a terminating pod no longer counts once its grace period
 * is over, QuotaV1Pod), when every pod was read; else undefined.
 */
function usedNow(ctx: AnalysisContext): ((resource: string) => number) | undefined {
  const { snapshot } = ctx;
  if (!namespacePodsKnown(snapshot.coverage)) return undefined;
  const namespace = snapshot.target.namespace;
  const charged = [...snapshot.pods, ...(snapshot.namespacePods ?? snapshot.otherPods)].filter(
    (p) => p.metadata.namespace === namespace,
  );
  return (resource) => charged.reduce((sum, p) => sum + (podQuotaCharge(p, resource, EVENTUALLY) ?? 0), 0);
}

function quotaVerdict(
  ctx: AnalysisContext,
  failure: CreateFailure,
  refusal: QuotaRefusal,
): Omit<Extract<RefusedRevision, { rows: QuotaRow[] }>, 'failure' | 'refusal'> {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const replicas = kind.desiredReplicas(object);
  const live = snapshot.pods.filter((p) => !isTerminal(p));
  const at = Date.parse(snapshot.capturedAt);
  const charge = (p: Pod, resource: string): number => podQuotaCharge(p, resource, at) ?? 0;
  const current = new Set(kind.revisions(snapshot).current?.pods ?? []);
  const oldPods = failure.current ? live.filter((p) => !current.has(p)) : [];
  const keepsOld = kind.keepsOldPods(snapshot);
  const list = quotaEntries(refusal, snapshot.resourceQuotas, snapshot.target.namespace);
  const rows: QuotaRow[] = list.map((e) => {
    const ours = live.reduce((sum, p) => sum + charge(p, e.resource), 0);
    return {
      resource: e.resource,
      hard: show(e.resource, e.hard),
      used: show(e.resource, e.used),
      requested: show(e.resource, e.requested),
      ours: show(e.resource, Math.min(ours, e.used)),
      others: show(e.resource, Math.max(0, e.used - ours)),
    };
  });
  const base = { rows, keepsOld, oldPods };
  // The quota as it converges: a pod past its deletion's grace period is no longer charged.
  const now = usedNow(ctx);
  if (now && list.length > 0 && list.every((e) => now(e.resource) + e.requested <= e.hard))
    return { ...base, verdict: 'admits', release: 0 };
  if (list.length === 0)
    return {
      ...base,
      verdict: 'exceeded',
      release: 0,
      why: 'the quota message could not be read as amounts',
    };
  // Every pod of the workload on the new template, beside what others use.
  for (const e of list) {
    const ours = live.reduce((sum, p) => sum + charge(p, e.resource), 0);
    const others = Math.max(0, e.used - ours);
    if (others + replicas * e.requested > e.hard) {
      const whole = `${replicas} × ${show(e.resource, e.requested)}`;
      return {
        ...base,
        verdict: 'exceeded',
        release: 0,
        why:
          others > 0
            ? `${e.resource}: ${whole} for this workload plus ${show(e.resource, others)} used by others is more than the hard limit ${show(e.resource, e.hard)}`
            : `${e.resource}: ${whole} for this workload alone is more than the hard limit ${show(e.resource, e.hard)}`,
      };
    }
  }
  if (oldPods.length === 0) {
    return {
      ...base,
      verdict: 'exceeded',
      release: 0,
      why: 'no old pod of this workload is left to make room: the quota counts pods that are still going away, or usage the quota controller has not recounted yet',
    };
  }
  // The fewest old pods to let go (the controller picks which: count the smallest charges).
  for (let k = 1; k <= oldPods.length; k += 1) {
    const fits = list.every((e) => {
      const freed = oldPods
        .map((p) => charge(p, e.resource))
        .sort((a, b) => a - b)
        .slice(0, k)
        .reduce((a, b) => a + b, 0);
      return e.used - freed + e.requested <= e.hard;
    });
    if (fits) return { ...base, verdict: 'order', release: k };
  }
  return {
    ...base,
    verdict: 'exceeded',
    release: 0,
    why: 'even with every old pod gone, one new pod does not fit the quota as counted',
  };
}
