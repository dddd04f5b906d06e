/**
 * Will the rollout a manifest starts finish in this cluster as it is now? The
 * candidate snapshot holds the workload as it will be once applied (the manifest's
 * template, strategy and replicas over the live object: candidate.ts) beside the
 * cluster as read. The forward model (src/diagnosis/forward) runs the next rollout from
 * there, the variant RolloutAtRisk's prediction uses: every pod running now is an old
 * one. When it cannot finish, the same run with the old pods let go first (maxSurge 0 /
 * maxUnavailable 1, else Recreate) says whether a strategy change would let it; only
 * then is that change offered. Pure.
 */
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { FindingCode } from '../diagnosis/finding.js';
import { runForward, type Outcome } from '../diagnosis/forward/run.js';
import { capacityRows, describeBlocker } from '../diagnosis/placement/capacity-rows.js';
import { blockersOn, placementContext, type Blocker } from '../diagnosis/placement/placement.js';
import { matchesTerms } from '../diagnosis/base/node-match.js';
import { claimNames } from '../diagnosis/base/pod-constraints.js';
import type { Pod } from '../diagnosis/k8s.js';
import { formatAmount } from '../diagnosis/base/quantity.js';
import { formatHostPort } from '../diagnosis/base/pod-constraints.js';
import { strategyPhrase } from '../diagnosis/rollout/strategy-words.js';
import { nextRolloutAssessments } from '../diagnosis/rollout/surge-proof.js';
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { strategyFix } from './strategy-fix.js';
import { unprovenHolds, unprovenReferences } from './new-references.js';
import { atAutoscaledCount, autoscaled } from '../diagnosis/guards/autoscaler.js';
import { admitTemplate, type Admission } from './admission.js';
import { withJobWait } from './job-wait.js';
import type { CheckEvidence } from './check-evidence.js';
import { CHECK_WORDS } from './words.js';
import { translate } from '../i18n/catalogue.js';
import type { Step } from '../diagnosis/forward/model.js';

import type { CheckFinding, Prediction } from './prediction.js';

/** The rollout of the candidate snapshot: its pods through admission (admission.ts), then run forward. */
export function predictRollout(candidate: WorkloadSnapshot): Prediction {
  const admission = admitTemplate(candidate);
  if (admission.result !== 'admitted') return notAdmitted(candidate, admission);
  const { snapshot } = admission;
  const unproven = unprovenReferences(snapshot);
  if (unproven.length > 0)
    return notAdmitted(candidate, {
      result: 'unknown',
      why: `the new template needs ${unproven.map((r) => `${r.kind} ${r.name}`).join(', ')}, which no live pod of it uses and this change does not create (they are not read)`,
      about: 'references',
    });
  const held = unprovenHolds(snapshot);
  if (held.length > 0)
    return notAdmitted(candidate, { result: 'unknown', why: held.join('; '), about: 'holds' });
  const ctx = new AnalysisContext(snapshot);
  const outcome = runForward(ctx, 'candidate');
  const kind = workloadKind(snapshot);
  // At the count its autoscaler sets at the next sync, as the run forward (guards/autoscaler.ts).
  const object = autoscaled(ctx, kind.object(snapshot));
  const ref = `${typeOfKind(snapshot.target.kind)}/${snapshot.target.name}`;
  const strategy = strategyPhrase(kind.strategy(object), kind.desiredReplicas(object));
  switch (outcome.result) {
    case 'completes':
      return (
        changeRace(ctx, ref) ?? { verdict: 'finishes', findings: preemptions(snapshot, outcome.steps, ref) }
      );
    case 'moving':
    case 'unknown':
      return {
        verdict: 'unknown',
        findings: [
          {
            code: 'IncompleteEvidence',
            severity: 'warning',
            summary: `Whether the rollout of ${ref} finishes is not known: ${outcome.result === 'unknown' ? outcome.why : 'the model does not follow this kind of update'}.`,
            explanation:
              'check predicts a rollout only where it read everything the new pods compete with and the model follows the update. Where it cannot, it says so instead of guessing.',
            evidence: gapsOf(snapshot),
            says: {
              key: 'notKnown',
              why: 'notKnownWhy',
              params: {
                ref,
                why:
                  outcome.result === 'unknown'
                    ? outcome.why
                    : 'the model does not follow this kind of update',
              },
            },
          },
        ],
      };
    case 'failing':
      return {
        verdict: 'never-finishes',
        reason: 'its new pods never become Ready',
        findings: [
          {
            code: 'RolloutStuck',
            severity: 'critical',
            summary: `The rollout of ${ref} will not finish: its new pods never become Ready in the model.`,
            explanation:
              'Run forward, the new pods are placed but do not become Ready (a volume attached elsewhere, a crash the cluster already shows).',
            evidence: [],
            says: { key: 'stuck', why: 'stuckWhy', params: { ref } },
          },
        ],
      };
    case 'blocked': {
      const prediction = blocked(snapshot, ctx, outcome, ref, strategy, object);
      // A run that followed the controllers (not a bound on an end state) may wait for Jobs.
      return outcome.ticks > 0 ? withJobWait(ctx, ref, prediction) : prediction;
    }
  }
}

/**
 * A rollout that finishes by preempting (the new template raised the priority): which
 * pods the run preempted, and how many of them were this workload's old pods, each
 * gone before its replacement is Ready. None: no finding.
 */
function preemptions(snapshot: WorkloadSnapshot, steps: readonly Step[], ref: string): CheckFinding[] {
  const victims = [...new Set(steps.flatMap((s) => (s.kind === 'preempted' ? s.victims : [])))];
  if (victims.length === 0) return [];
  const ours = new Set(snapshot.pods.map((p) => p.metadata.name ?? ''));
  const kind = workloadKind(snapshot);
  const params = {
    ref,
    victims: `${victims.slice(0, 5).join(', ')}${victims.length > 5 ? ', …' : ''}`,
    count: victims.length,
    ours: victims.filter((v) => ours.has(v)).length,
    replicas: kind.desiredReplicas(kind.object(snapshot)),
  };
  return [
    {
      code: 'PreemptionUnderWay',
      severity: 'warning',
      summary: translate(CHECK_WORDS, 'en', 'preempts', params),
      explanation: translate(CHECK_WORDS, 'en', 'preemptsWhy'),
      evidence: [],
      says: { key: 'preempts', why: 'preemptsWhy', params },
    },
  ];
}

/** What each admission step that refuses a pod says of it, in check's words (words.ts) and in English. */
const ADMISSION_WHY = {
  ResourceQuota: {
    key: 'admissionQuotaWhy',
    text: "Quota admission refuses a pod any of whose containers does not set a resource the quota limits, before counting anything: the controller's creates fail (FailedCreate) whatever room there is. Set the named requests or limits on every container (init containers too), or give the namespace a LimitRange whose defaults set them.",
  },
  LimitRange: {
    key: 'admissionLimitWhy',
    text: "LimitRanger sets a container's missing requests and limits from the LimitRange's defaults, then refuses a pod outside its min, max and limit-to-request ratio; a default limit below a request the container sets makes the pod invalid (no request may exceed its limit): the controller's creates fail (FailedCreate). Bring the template's requests and limits within the LimitRange, or change it.",
  },
  PriorityClass: {
    key: 'admissionPriorityWhy',
    text: "The Priority admission plugin sets each pod's priority from the PriorityClass its priorityClassName names, and refuses a pod whose class the cluster does not have: the controller's creates fail (FailedCreate). Create the PriorityClass first, or name one that exists.",
  },
} as const;

/** Why admission's outcome is not known, by what was not read: the English text and its catalogue key. */
const UNKNOWN_WHY = {
  priority: {
    key: 'notKnownWhy',
    text: 'A new priority decides whether the scheduler may preempt the old pods (and others) for the new ones, and a class the cluster lacks refuses them: check does not guess it. Grant list on priorityclasses, or check against a dump that holds them.',
  },
  'runtime-class': {
    key: 'runtimeClassUnknownWhy',
    text: "The RuntimeClass admission plugin adds the class's pod overhead to what every new pod asks for, which can be what decides whether it fits beside the old pods: check does not guess it. Check against a cluster or dump with a pod of that class, or set spec.overhead in the template as the class does.",
  },
  references: {
    key: 'referencesUnknownWhy',
    text: 'A missing ServiceAccount refuses every new pod (FailedCreate), and a missing ConfigMap or Secret keeps each in ContainerCreating (a volume) or CreateContainerConfigError (an environment variable), so no old pod goes: check does not read them. Apply them before, or in the same change, or check that they exist (kubectl get configmap,secret,serviceaccount -n NAMESPACE).',
  },
  holds: {
    key: 'holdsUnknownWhy',
    text: 'A pod that something other than room holds back (a scheduling gate, a scheduler of its own, a readiness gate) goes on only once that something acts, and check reads none of them: with maxSurge the old pods stay and the rollout waits; with maxUnavailable the old pods go and nothing new serves. Check against a cluster where a pod of the workload already went through it, or remove the hold from the template.',
  },
  quota: {
    key: 'admissionUnknownWhy',
    text: 'Quota admission refuses a pod whose containers do not set what a ResourceQuota limits, unless a LimitRange of the namespace sets it first. Grant list on limitranges, or set the requests and limits in the template.',
  },
} as const;

/** Admission refuses every new pod (a LimitRange, a quota's "must specify"), or whether it does is not known. */
function notAdmitted(
  snapshot: WorkloadSnapshot,
  admission: Exclude<Admission, { result: 'admitted' }>,
): Prediction {
  const ref = `${typeOfKind(snapshot.target.kind)}/${snapshot.target.name}`;
  if (admission.result === 'unknown') {
    const why = UNKNOWN_WHY[admission.about ?? 'quota'];
    return {
      verdict: 'unknown',
      findings: [
        {
          code: 'IncompleteEvidence',
          severity: 'warning',
          summary: `Whether the rollout of ${ref} finishes is not known: ${admission.why}.`,
          explanation: why.text,
          evidence: gapsOf(snapshot),
          says: {
            key: 'notKnown',
            why: why.key,
            params: { ref, why: admission.why },
          },
        },
      ],
    };
  }
  const { by, message } = admission;
  const why = ADMISSION_WHY[by.kind];
  return {
    verdict: 'never-finishes',
    reason: `${by.kind} ${by.name} refuses its new pods`,
    findings: [
      {
        code: 'AdmissionDenied',
        severity: 'critical',
        summary: `The rollout of ${ref} can never finish: ${by.kind} ${by.name} refuses every new pod (${message}); no pod of the new template is created.`,
        explanation: why.text,
        evidence: [{ type: 'note', text: `${by.kind} ${by.name}: ${message}` }],
        says: {
          key: 'admissionDenied',
          why: why.key,
          params: { ref, object: `${by.kind} ${by.name}`, message },
        },
      },
    ],
  };
}

function blocked(
  snapshot: WorkloadSnapshot,
  ctx: AnalysisContext,
  outcome: Extract<Outcome, { result: 'blocked' }>,
  ref: string,
  strategy: string,
  object: WorkloadObject,
): Prediction {
  const evidence = blockedEvidence(snapshot, ctx, outcome);
  const fix = strategyFix(snapshot, object, (candidate) =>
    runForward(new AnalysisContext(candidate), 'candidate'),
  );
  const pinned = pinnedBlock(ctx, outcome.pending);
  const first = pinned ?? firstBlocker(ctx);
  const need = first ? ` (${first.words})` : '';
  if (fix) {
    return {
      verdict: 'never-finishes',
      reason: first
        ? `its new pod needs ${first.short}, held by its old pods`
        : 'its new pod needs room its old pods hold',
      fix,
      findings: [
        {
          code: 'RolloutSurgeDeadlock',
          severity: 'critical',
          summary: `The rollout of ${ref} can never finish: with ${strategy} the new pod waits for room${need} that only the old pods hold, and they go only once it is Ready; ${fix.words} would let it.`,
          explanation: `Run forward in this cluster as it is now, the controller creates new pods before removing old ones, and no node (or quota) has room for them while the old pods hold it. Letting the old pods go first makes the room: ${fix.cost}${fix.below ? ` That is below PodDisruptionBudget ${fix.below.budget} (${fix.below.rule}: ${fix.below.minServing} must serve, ${fix.below.serving} would) in every rollout: a rolling update does not consult the budget, so its owners count each rollout as the outage it is. Raise the replicas or agree the budget with them before committing it.` : ''}`,
          evidence,
          says: {
            key: 'deadlock',
            why: 'deadlockWhy',
            params: {
              ref,
              fix: fix.words,
              ...(first ? { need: first.short } : {}),
              ...(fix.below
                ? { budget: fix.below.budget, floor: fix.below.minServing, serving: fix.below.serving }
                : {}),
            },
          },
        },
      ],
    };
  }
  const quota = outcome.refused && outcome.quota;
  const resolved = workloadKind(snapshot).strategy(object);
  if (!quota && !pinned && resolved.stableKept)
    return stableKeptBlock(snapshot, ref, need, first?.short, resolved, evidence);
  const code: FindingCode = quota ? 'QuotaExceeded' : 'Unschedulable';
  return {
    verdict: 'never-finishes',
    reason: quota
      ? `quota ${quota.name} refuses its new pods`
      : pinned
        ? `its new pod ${pinned.pod} is pinned by volume ${pinned.volume} to ${pinned.nodes}, which has no room for it`
        : `its new pods fit no node${first ? ` (they need ${first.short})` : ''}`,
    findings: [
      {
        code,
        severity: 'critical',
        summary: quota
          ? `The rollout of ${ref} can never finish: ResourceQuota ${quota.name} refuses its new pods, whatever order the old ones go in.`
          : pinned
            ? `The rollout of ${ref} can never finish: its new pod ${pinned.pod} mounts claim ${pinned.claim}, bound to volume ${pinned.volume}, which only ${pinned.nodes} may use, and there ${pinned.words}, even with its old pods gone; no strategy change helps.`
            : `The rollout of ${ref} can never finish: its new pods fit no node${need}, even with its old pods gone; no strategy change helps.`,
        explanation: quota
          ? `The quota has no room for the new pods even once every old pod is gone. Raise the quota, or ask for less per pod.`
          : pinned
            ? `The volume's node affinity (spec.nodeAffinity of PersistentVolume ${pinned.volume}, a local volume) places every pod mounting claim ${pinned.claim} on ${pinned.nodes}, whatever room other nodes have: the scheduler reports "volume node affinity conflict" there, and the pod stays Pending for good. Ask for what that node has left, make room on it, or move the data to a volume other nodes can use.`
            : `Run forward with every old pod of ${ref} gone first, the new pods still find no node. Recommending maxSurge 0 here would only cost availability: the template asks for what the cluster does not have (a node selection, a resource, a port).`,
        evidence,
        ...(quota
          ? { says: { key: 'quota', why: 'quotaWhy', params: { ref, quota: quota.name } } as const }
          : pinned
            ? {
                says: {
                  key: 'pinned',
                  why: 'pinnedWhy',
                  params: {
                    ref,
                    pod: pinned.pod,
                    claim: pinned.claim,
                    volume: pinned.volume,
                    nodes: pinned.nodeList,
                    ...(pinned.need ? { need: pinned.need } : {}),
                  },
                } as const,
              }
            : {
                says: {
                  key: 'noNode',
                  why: 'noNodeWhy',
                  params: { ref, ...(first ? { need: first.short } : {}) },
                } as const,
              }),
      },
    ],
  };
}

/**
 * Blue-green (or a traffic-routed canary without dynamicStableScale) keeps every stable
 * pod until the new revision is promoted: room the stable pods hold is never freed for
 * it, and no field of the strategy changes that, so no fix is offered.
 */
function stableKeptBlock(
  snapshot: WorkloadSnapshot,
  ref: string,
  need: string,
  /** What the new pods need, in a few words (the catalogue's), when known. */
  short: string | undefined,
  strategy: ReturnType<ReturnType<typeof workloadKind>['strategy']>,
  evidence: CheckEvidence[],
): Prediction {
  const words = strategy.argo === 'blueGreen' ? 'blue-green' : 'its traffic-routed canary';
  return {
    verdict: 'never-finishes',
    reason: `its new pods need room its stable pods keep (${words})`,
    findings: [
      {
        code: 'Unschedulable',
        severity: 'critical',
        summary: `The rollout of ${ref} can never finish: with ${words} every stable pod stays until the new revision is promoted, and no node has room for the new pods beside them${need}; no strategy change helps.`,
        explanation: `Run forward, the new pods wait for room the stable pods hold, and ${words} lets those go only after promotion. The way out: ${workloadKind(snapshot).surgeWayOut(strategy)}`,
        evidence,
        says: {
          key: 'stableKept',
          why: 'stableKeptWhy',
          params: { ref, blueGreen: strategy.argo === 'blueGreen', ...(short ? { need: short } : {}) },
        },
      },
    ],
  };
}

/**
 * A new pod left Pending that mounts a claim bound to a volume with node affinity, and
 * what it lacks on the nodes that volume allows (this workload's pods gone from them).
 */
function pinnedBlock(
  ctx: AnalysisContext,
  pending: readonly Pod[],
):
  | {
      words: string;
      short: string;
      pod: string;
      claim: string;
      volume: string;
      nodes: string;
      /** The allowed nodes, joined ("" for none), and what the pod lacks there in a few words, when a blocker says. */
      nodeList: string;
      need?: string;
    }
  | undefined {
  const { snapshot } = ctx;
  for (const pod of pending) {
    for (const claim of claimNames(pod.spec)) {
      const pvc = snapshot.pvcs.find(
        (p) =>
          p.metadata.name === claim &&
          (p.metadata.namespace ?? pod.metadata.namespace) === pod.metadata.namespace,
      );
      const volume = pvc?.spec.volumeName
        ? snapshot.guards?.persistentVolumes?.find((v) => v.metadata.name === pvc.spec.volumeName)
        : undefined;
      const terms = volume?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
      if (!volume || !terms || terms.length === 0) continue;
      const placement = placementContext(ctx);
      const allowed = snapshot.nodes.filter((n) => matchesTerms(n, terms));
      const blocker = allowed
        .flatMap((n) => blockersOn(placement, pod, n, placement.ours))
        .find((b) => b.kind !== 'volume');
      const nodeList = allowed.map((n) => n.metadata.name ?? '').join(', ');
      const nodes = nodeList || 'no node the cluster has';
      return {
        nodeList,
        ...(blocker ? { need: shortBlocker(blocker) } : {}),
        words: blocker ? `it needs ${describeBlocker(blocker)}` : 'no node takes it',
        short: blocker ? shortBlocker(blocker) : `a node volume ${volume.metadata.name ?? ''} allows`,
        pod: pod.metadata.name ?? '',
        claim,
        volume: volume.metadata.name ?? '',
        nodes,
      };
    }
  }
  return undefined;
}

/** What the first new pod needs and no eligible node has: in a sentence, and in a few words. */
function firstBlocker(ctx: AnalysisContext): { words: string; short: string } | undefined {
  const { eligible } = nextRolloutAssessments(ctx);
  if (eligible.length === 0) return { words: 'no node selects it', short: 'a node its selection matches' };
  const blocker = eligible.flatMap((a) => a.blockers)[0];
  return blocker
    ? { words: `it needs ${describeBlocker(blocker)}`, short: shortBlocker(blocker) }
    : undefined;
}

function shortBlocker(blocker: Blocker): string {
  switch (blocker.kind) {
    case 'resource':
      return `${formatAmount(blocker.resource, blocker.need)} ${blocker.resource}`;
    case 'host-port':
      return formatHostPort(blocker.port);
    case 'anti-affinity':
      return `a ${blocker.topologyKey} of its own (anti-affinity)`;
    case 'topology-spread':
      return `room within its topology spread`;
    case 'devices':
      return 'devices';
    case 'volume':
      return `volume ${blocker.claim}`;
  }
}

function blockedEvidence(
  snapshot: WorkloadSnapshot,
  ctx: AnalysisContext,
  outcome: Extract<Outcome, { result: 'blocked' }>,
): CheckEvidence[] {
  const kind = workloadKind(snapshot);
  const object = autoscaled(ctx, kind.object(snapshot));
  const { pod, eligible } = nextRolloutAssessments(ctx);
  const rows = capacityRows(placementContext(ctx), pod, eligible);
  const scaled = atAutoscaledCount(ctx);
  return [
    { type: 'strategy', replicas: kind.desiredReplicas(object), strategy: kind.strategy(object) },
    ...(scaled ? [{ type: 'note' as const, text: `Run forward${scaled}.` }] : []),
    ...(rows.length > 0 ? [{ type: 'node-capacity' as const, rows }] : []),
    ...(outcome.quota
      ? [
          {
            type: 'note' as const,
            text: `ResourceQuota ${outcome.quota.name} refuses the next new pod.`,
            says: { key: 'quotaRefuses', params: { quota: outcome.quota.name } } as const,
          },
        ]
      : []),
    {
      type: 'note',
      text: `Run forward: ${outcome.pending.length} new pod(s) stay Pending after ${outcome.ticks} step(s) of the controller and scheduler.`,
      says: { key: 'runForward', params: { pending: outcome.pending.length, ticks: outcome.ticks } },
    },
  ];
}

/** The reads that were not made, as notes: what an unknown verdict rests on. */
function gapsOf(snapshot: WorkloadSnapshot): CheckEvidence[] {
  return snapshot.coverage.gaps.slice(0, 5).map((g) => ({
    type: 'note' as const,
    text: `Not read: ${g.what} (${g.reason}); ${g.settle}.`,
    says: { key: 'notRead', params: { what: g.what, reason: g.reason, settle: g.settle } } as const,
  }));
}

/**
 * Finishing only if this object's pods get the room before those the same change's other
 * new objects create (snapshot `changePods`): run again with theirs first in the
 * scheduler's queue; where it then does not finish, the verdict is not known.
 */
function changeRace(ctx: AnalysisContext, ref: string): Prediction | undefined {
  const created = ctx.snapshot.changePods ?? [];
  if (created.length === 0) return undefined;
  const theirs = runForward(ctx, 'candidate', 'theirs-first');
  if (theirs.result === 'completes') return undefined;
  const owners = [...new Set(created.map((p) => p.owner))].join(', ');
  const why = `it depends on the order the scheduler takes pods in: the new pods of ${owners}, created by the same change, wait for the same room, and placed first they leave too little for these`;
  return {
    verdict: 'unknown',
    findings: [
      {
        code: 'IncompleteEvidence',
        severity: 'warning',
        summary: `Whether the rollout of ${ref} finishes is not known: ${why}.`,
        explanation:
          "check judges each object with the pods the change's other new objects create; together they do not all fit, and which get the room is the scheduler's queue order (priority, then when each was queued). Make room for all of them, apply them apart, or give the one that must run a higher priority.",
        evidence: [],
        says: { key: 'notKnown', why: 'notKnownWhy', params: { ref, why } },
      },
    ],
  };
}
