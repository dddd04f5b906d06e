/**
 * Pods that are never created (DESIGN.md §1 E): a revision whose pods the API server
 * refuses. No pod exists, so nothing is Pending, scheduled or crashing, and `kubectl
 * rollout status` only waits. Three verdicts (rollout/create-refusals.ts says which):
 * - a quota the old pods fill, while the controller keeps them until a new pod is
 *   available: RolloutSurgeDeadlock, with the same fixes as the scheduling deadlock
 *   (its proof is surge-proof.ts quotaDeadlockProof);
 * - a quota no order of replacement satisfies: QuotaExceeded, naming what to raise
 *   or free, and no plan (a strategy change, restart or deletion only costs pods);
 * - a rule (PodSecurity, a webhook, a ValidatingAdmissionPolicy, a LimitRange, a
 *   missing ServiceAccount, a quota's "must specify"): AdmissionDenied, naming the rule
 *   and what in the template it refuses, and no plan either.
 */
import { shownPhase } from '../base/pods.js';
import type { Analyzer } from '../analyzer.js';
import type { Evidence, Finding } from '../finding.js';
import type { CreateRefusal } from '../base/create-refusal.js';
import { refusedRevisions, type RefusedRevision } from '../rollout/create-refusals.js';
import { strategyPhrase } from '../rollout/strategy-words.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import type { CreateFailure } from '../workload-kind.js';
import { workloadKind } from '../workloads/index.js';
import { codeSpan } from '../../text/code-span.js';

type Draft = Omit<Finding, 'remediations'>;
type QuotaRevision = Extract<RefusedRevision, { rows: unknown }>;

export const createRefused: Analyzer = {
  name: 'create-refused',
  analyze(ctx) {
    const { snapshot } = ctx;
    const findings: Draft[] = [];
    for (const refused of refusedRevisions(ctx)) {
      if ('rows' in refused) {
        if (refused.verdict === 'exceeded') findings.push(quotaExceeded(snapshot, refused));
        else if (refused.verdict === 'order' && refused.keepsOld && refused.failure.current)
          findings.push(quotaDeadlock(snapshot, refused));
        // Otherwise the controller lets old pods go by itself, or the quota admits now: the refusals pass.
      } else if (refused.refusal.kind === 'quota-unknown') {
        findings.push(quotaUnknown(snapshot, refused.failure, refused.refusal.quota));
      } else {
        findings.push(admissionDenied(snapshot, refused.failure, refused.refusal));
      }
    }
    return findings;
  },
};

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** The refusal as recorded: the condition when the controller holds one, else the latest event. */
function recorded(failure: CreateFailure): Evidence {
  if (failure.source === 'condition') {
    return {
      type: 'condition',
      condition: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: `${failure.label}: ${failure.message}`,
    };
  }
  const times = failure.count !== undefined && failure.count > 1 ? `${failure.count} times, ` : '';
  return {
    type: 'note',
    text: `Event FailedCreate on ${failure.label} (${times}last ${failure.at ?? 'time not recorded'}): ${failure.message}`,
  };
}

function quotaEvidence(refused: QuotaRevision): Evidence {
  return { type: 'quota', quota: refused.refusal.quota, rows: refused.rows };
}

function firstRow(refused: QuotaRevision): string {
  const row = refused.rows[0];
  return row
    ? `${row.resource}: ${row.used} of ${row.hard} used, ${row.ours} by this workload's pods; a new pod asks ${row.requested}`
    : 'its limits are reached';
}

/**
 * Who fills the quota, as its first row counts it: this workload's pods (old, and any
 * new ones already made) and the rest. "Filled by its own old pods" only when nothing
 * else is counted.
 */
function quotaShare(refused: QuotaRevision): string {
  const row = refused.rows[0];
  if (!row || Number.parseFloat(row.others) === 0) return "The quota is filled by this workload's own pods";
  return `The quota is shared: this workload's pods use ${row.ours} of the ${row.used} ${row.resource} it counts, other pods ${row.others}`;
}

function quotaDeadlock(snapshot: WorkloadSnapshot, refused: QuotaRevision): Draft {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  const replicas = kind.desiredReplicas(object);
  const { quota } = refused.refusal;
  const k = refused.release;
  const summary = `Rollout of ${snapshot.target.name} can never finish: ResourceQuota ${quota} refuses its new pods (${firstRow(refused)}), and ${strategyPhrase(strategy, replicas)} keeps old pods until new ones are Ready.`;
  const controller = kind.podOwner === 'replicasets' ? 'ReplicaSet' : kind.words.kind;
  const recordsWhat =
    refused.failure.source === 'condition' ? 'FailedCreate and ReplicaFailure=True' : 'FailedCreate events';
  const explanation = [
    `No new pod is created, so none is Pending, scheduled or crashing: the ${controller} controller records ${recordsWhat} on ${refused.failure.label}, and ${codeSpan('kubectl rollout status')} only waits.`,
    `${quotaShare(refused)}: the whole ${snapshot.target.kind} fits it on the new template beside what others use, and letting ${k === 1 ? 'one old pod' : `${k} old pods`} go first makes room for a new one.`,
    `The controller removes an old pod only once a new one is available, which cannot be created: each side waits for the other.`,
    kind.surgeFix === 'replicas' && kind.recreate
      ? `The way out: RollingUpdate with maxSurge 0 (or Recreate), with a restart so the refused ReplicaSet is replaced; or raise the quota by what one new pod asks.`
      : `The way out: ${kind.surgeWayOut(strategy)} Or raise the quota by what one new pod asks.`,
    kind.pausedNote(object),
  ]
    .filter((part) => part !== '')
    .join(' ');
  return {
    code: 'RolloutSurgeDeadlock',
    severity: 'critical',
    summary,
    explanation,
    evidence: [
      quotaEvidence(refused),
      recorded(refused.failure),
      { type: 'strategy', replicas, strategy },
      {
        type: 'pods',
        title: 'Old pods whose quota the new pods wait for',
        pods: refused.oldPods.map((p) => ({
          name: p.metadata.name ?? '',
          ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
          ...(shownPhase(p) ? { phase: shownPhase(p) } : {}),
          detail: 'old, counted by the quota',
        })),
      },
    ],
  };
}

function quotaExceeded(snapshot: WorkloadSnapshot, refused: QuotaRevision): Draft {
  const { quota } = refused.refusal;
  const { failure } = refused;
  const ns = snapshot.target.namespace;
  const summary = `${failure.label} cannot create ${failure.missing > 0 ? `${failure.missing} pod${failure.missing === 1 ? '' : 's'}` : 'its pods'}: ResourceQuota ${quota} is full (${firstRow(refused)}), and no order of replacement fits it.`;
  const explanation = [
    `No order of replacement helps: ${refused.why ?? 'the quota cannot hold the workload'}.`,
    `Raise the quota's hard limit, free what other workloads use of it, or lower the replicas or the requests of the template.`,
    `A strategy change, a restart or deleting pods would only take serving pods away: none is offered.`,
    `${codeSpan(`kubectl describe resourcequota ${quota} -n ${ns}`)} shows what it counts now.`,
  ].join(' ');
  return {
    code: 'QuotaExceeded',
    severity: failure.current || failure.missing > 0 ? 'critical' : 'warning',
    summary,
    explanation,
    evidence: [quotaEvidence(refused), recorded(failure)],
  };
}

function quotaUnknown(snapshot: WorkloadSnapshot, failure: CreateFailure, quota: string): Draft {
  return {
    code: 'QuotaExceeded',
    severity: 'warning',
    summary: `${failure.label} cannot create its pods yet: ResourceQuota ${quota} has not been counted by the quota controller (status unknown for quota).`,
    explanation: `The API server refuses pods while a quota's status lacks a resource it limits; the quota controller fills it in shortly after the quota is created or changed. If it stays, check that kube-controller-manager runs: ${codeSpan(`kubectl describe resourcequota ${quota} -n ${snapshot.target.namespace}`)}.`,
    evidence: [recorded(failure)],
  };
}

/** What refuses the pods, in a few words, and the one thing to change. */
function ruleWords(refusal: Exclude<CreateRefusal, { kind: 'quota-exceeded' | 'quota-unknown' }>): {
  rule: string;
  fix: string;
} {
  switch (refusal.kind) {
    case 'pod-security': {
      const [first, ...rest] = refusal.violations;
      const containers =
        refusal.containers.length > 0
          ? ` (container${refusal.containers.length === 1 ? '' : 's'} ${refusal.containers.join(', ')})`
          : '';
      return {
        rule: `PodSecurity "${refusal.policy}" refuses the template${containers}: ${clip(first ?? '', 160)}${rest.length > 0 ? `, and ${rest.length} more` : ''}`,
        fix: `Set what each violation names in the template's securityContext (${refusal.violations.map((v) => clip(v, 80)).join('; ')}), or run the namespace at a lower Pod Security level (its pod-security.kubernetes.io/enforce label).`,
      };
    }
    case 'webhook':
      return {
        rule: `admission webhook "${refusal.webhook}" denies them: ${clip(refusal.detail, 200)}`,
        fix: `Change the template as the webhook's message asks, or the policy behind ${refusal.webhook}.`,
      };
    case 'webhook-unreachable':
      return {
        rule: `admission webhook "${refusal.webhook}" cannot be called and fails closed: ${clip(refusal.detail, 160)}`,
        fix: `Bring the webhook's service back (its pods, endpoints and certificate), or scope its failurePolicy; the template is not at fault.`,
      };
    case 'admission-policy':
      return {
        rule: `ValidatingAdmissionPolicy '${refusal.policy}'${refusal.binding ? ` (binding '${refusal.binding}')` : ''} denies them: ${clip(refusal.detail, 200)}`,
        fix: `Change the template as the policy asks, or the policy or its binding.`,
      };
    case 'limit-range':
      return {
        rule: `a LimitRange of the namespace refuses them: ${clip(refusal.detail, 200)}`,
        fix: "Bring the template's requests and limits within the LimitRange (kubectl describe limitrange), or change the LimitRange.",
      };
    case 'service-account':
      return {
        rule: `the template's service account "${refusal.serviceAccount}" does not exist`,
        fix: `Create service account ${refusal.serviceAccount} in the namespace, or name an existing one in the template.`,
      };
    case 'quota-unspecified':
      return {
        rule: `ResourceQuota ${refusal.quota} requires requests or limits the template does not set: ${clip(refusal.detail, 160)}`,
        fix: 'Set the named requests or limits on every container (a LimitRange with defaults does it for every pod).',
      };
    case 'other':
      return {
        rule: `the API server refuses them: ${clip(refusal.detail, 200)}`,
        fix: 'Read the refusal below; it names what to change.',
      };
  }
}

function admissionDenied(
  snapshot: WorkloadSnapshot,
  failure: CreateFailure,
  refusal: Exclude<CreateRefusal, { kind: 'quota-exceeded' | 'quota-unknown' }>,
): Draft {
  const { rule, fix } = ruleWords(refusal);
  const what = failure.current
    ? `No pod of the new revision is created, so the rollout cannot move: nothing is Pending or crashing, and ${codeSpan('kubectl rollout status')} only waits.`
    : `${failure.label} is an old revision: pods of it that go (evicted, deleted) are not replaced, so the workload runs short.`;
  return {
    code: 'AdmissionDenied',
    severity: 'critical',
    summary: `${failure.label} cannot create ${failure.missing > 0 ? `${failure.missing} pod${failure.missing === 1 ? '' : 's'}` : 'its pods'}: ${rule}.`,
    explanation: [
      what,
      fix,
      failure.current
        ? `${codeSpan(`kubectl rollout undo ${snapshot.target.kind.toLowerCase()}/${snapshot.target.name} -n ${snapshot.target.namespace}`)} goes back to the revision that was admitted.`
        : '',
      'No strategy change, restart or pod deletion is offered: each would take serving pods away while no new pod can be created.',
    ]
      .filter((part) => part !== '')
      .join(' '),
    evidence: [recorded(failure)],
  };
}
