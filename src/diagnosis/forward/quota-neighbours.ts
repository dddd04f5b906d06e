/**
 * An Argo canary's step ahead (or its promotion) that a namespace's ResourceQuota holds
 * only without the namespace's other pods. The steps' bound (canary-steps.ts,
 * final-state.ts) counts this workload's pods alone against a quota's hard limit, since
 * every other pod of the namespace may go: so it never claims "can never finish" on
 * their account. But while they stay, the step waits: the controller creates the step's
 * pods and quota admission refuses those past the hard limit (FailedCreate, exceeded
 * quota) until enough pods leave. Said as a warning (RolloutAtRisk), naming the pods
 * and their owners, while nothing else says the rollout is in trouble: a Job's pods
 * leave when it ends; pods a controller keeps running (a Deployment's, for one) stay
 * until it scales them down. Only where every pod of the namespace was read (unknown is
 * not empty: a pod not read may charge the quota too, so nothing is said).
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding } from '../finding.js';
import type { Pod } from '../k8s.js';
import { isTerminal, isTerminating } from '../base/pods.js';
import { formatQuotaAmount, quotaCharge } from '../base/quota-charge.js';
import { quotaLimits } from '../base/quota-limits.js';
import { nextPod } from '../rollout/surge-proof.js';
import { isRolloutObjects, namespacePodsKnown } from '../snapshot/types.js';
import { workloadKind } from '../workloads/index.js';
import { stepsAhead, type StepCounts } from '../workloads/rollout/basic-canary.js';
import { desiredReplicas } from '../workloads/rollout/rollout-strategy.js';

type Draft = Omit<Finding, 'remediations'>;

/** At most this many of the namespace's pods are named. */
const NAMED = 5;

interface QuotaWait {
  step: Pick<StepCounts, 'index' | 'action' | 'canary' | 'stable'> & { promotion?: true };
  quota: string;
  resource: string;
  hard: number;
  /** What this workload's pods of the step charge. */
  ours: number;
  /** The namespace's other pods the quota charges for `resource`, with their charge. */
  others: { pod: Pod; charge: number }[];
}

/** The RolloutAtRisk warning, appended where no finding is critical or already predicts the wait. */
export function withQuotaNeighboursSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  if (
    findings.some(
      (f) => f.severity === 'critical' || f.code === 'RolloutAtRisk' || f.code === 'QuotaExceeded',
    )
  )
    return [...findings];
  const wait = quotaWait(ctx);
  return wait ? [...findings, waitFinding(ctx, wait)] : [...findings];
}

/** The first step ahead the quota holds only without the namespace's other pods, or undefined. */
function quotaWait(ctx: AnalysisContext): QuotaWait | undefined {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return undefined;
  if (!namespacePodsKnown(snapshot.coverage) || snapshot.namespacePods === undefined) return undefined;
  const kind = workloadKind(snapshot);
  const strategy = kind.strategy(kind.object(snapshot));
  if (strategy.argo !== 'canary' && strategy.argo !== 'trafficRouted') return undefined;
  const { namespace } = snapshot.target;
  const quotas = quotaLimits(snapshot.resourceQuotas, namespace);
  if (!quotas || quotas.length === 0) return undefined;
  const ours = new Set(snapshot.pods);
  const others = snapshot.namespacePods.filter(
    (p) => p.metadata.namespace === namespace && !ours.has(p) && !isTerminal(p) && !isTerminating(p),
  );
  if (others.length === 0) return undefined;
  const incoming = nextPod(snapshot);
  const stablePod = (kind.revisions(snapshot).stable?.pods ?? []).find((p) => !isTerminal(p)) ?? incoming;
  for (const step of stepsWithEnd(snapshot.rollout, strategy.stableKept === true)) {
    for (const quota of quotas)
      for (const { resource, hard } of quota.entries) {
        const each = quotaCharge(incoming.spec, resource) ?? 0;
        if (each === 0) continue;
        const charge = step.canary * each + step.stable * (quotaCharge(stablePod.spec, resource) ?? 0);
        const held = others
          .map((pod) => ({ pod, charge: quotaCharge(pod.spec, resource) ?? 0 }))
          .filter((o) => o.charge > 0);
        const byOthers = held.reduce((sum, o) => sum + o.charge, 0);
        if (charge <= hard && charge + byOthers > hard)
          return { step, quota: quota.name, resource, hard, ours: charge, others: held };
      }
  }
  return undefined;
}

/**
 * The steps ahead, and a traffic-routed canary's promotion where it keeps every stable
 * pod until the canary is whole (no dynamicStableScale): spec.replicas of each at once.
 */
function stepsWithEnd(rollout: Parameters<typeof stepsAhead>[0], stableKept: boolean): QuotaWait['step'][] {
  const status = rollout.status ?? {};
  if (status.abort || status.promoteFull || !status.stableRS || status.currentPodHash === status.stableRS)
    return [];
  const ahead: QuotaWait['step'][] = stepsAhead(rollout);
  if (!stableKept || ahead.some((s) => s.promotion)) return ahead;
  const replicas = desiredReplicas(rollout);
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  return [
    ...ahead,
    { index: steps.length, action: 'promotion', promotion: true, canary: replicas, stable: replicas },
  ];
}

function waitFinding(ctx: AnalysisContext, wait: QuotaWait): Draft {
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const paused = workloadKind(snapshot).halt?.(snapshot)?.code === 'RolloutPaused';
  const show = (amount: number): string => formatQuotaAmount(wait.resource, amount);
  const pods = (n: number, what: string): string => `${n} ${what} pod${n === 1 ? '' : 's'}`;
  const at = wait.step.promotion
    ? 'its promotion after the last step'
    : `step ${wait.step.index + 1} (${wait.step.action})`;
  const named = wait.others
    .slice(0, NAMED)
    .map(({ pod }) => `${pod.metadata.name ?? ''}${ownerWords(pod)}`)
    .join(', ');
  const more = wait.others.length > NAMED ? ` and ${wait.others.length - NAMED} more` : '';
  const count = wait.others.length;
  return {
    code: 'RolloutAtRisk',
    severity: 'warning',
    summary: `Once ${paused ? 'resumed' : 'it gets there'}, rollout/${name} waits at ${at}: it needs ${pods(wait.step.canary, 'canary')} beside ${pods(wait.step.stable, 'stable')} (${wait.resource} ${show(wait.ours)}), which ResourceQuota ${wait.quota} (hard ${show(wait.hard)}) holds only without the ${count === 1 ? 'other pod' : `${count} other pods`} of the namespace it also charges (${named}${more}).`,
    explanation: `A ResourceQuota charges every pod of its namespace. At that step Argo Rollouts creates the step's pods and quota admission refuses those past the hard limit (FailedCreate, exceeded quota), until enough of the other pods leave: a Job's pods leave when it ends; pods a controller keeps running (a Deployment's, for one) stay until it scales them down. Raise the quota's hard limit (\`kubectl edit resourcequota ${wait.quota} -n ${namespace}\`), or ${paused ? 'promote' : 'let it wait'} once they are gone; \`kubectl argo rollouts abort ${name} -n ${namespace}\` keeps the stable pods serving.`,
    says: {
      key: 'quota-waits',
      params: {
        ref: `rollout/${name}`,
        paused,
        ...(wait.step.promotion ? {} : { step: wait.step.index + 1, action: wait.step.action }),
        canary: wait.step.canary,
        stable: wait.step.stable,
        quota: wait.quota,
        resource: wait.resource,
        ours: show(wait.ours),
        hard: show(wait.hard),
        count,
        pods: `${named}${more}`,
        edit: `\`kubectl edit resourcequota ${wait.quota} -n ${namespace}\``,
        abort: `\`kubectl argo rollouts abort ${name} -n ${namespace}\``,
      },
    },
    evidence: [
      {
        type: 'note',
        text: `ResourceQuota ${wait.quota}: ${wait.resource} hard ${show(wait.hard)}; ${at} charges ${show(wait.ours)}; the namespace's other pods charge ${wait.others.map((o) => `${o.pod.metadata.name ?? ''} ${show(o.charge)}`).join(', ')}.`,
      },
    ],
  };
}

/** " (Job nightly-report-1)": the pod's controller, as its owner reference names it. */
function ownerWords(pod: Pod): string {
  const owner =
    (pod.metadata.ownerReferences ?? []).find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
  return owner ? ` (${owner.kind} ${owner.name})` : '';
}
