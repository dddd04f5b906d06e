/**
 * RolloutSurgeDeadlock: the rollout's new pod waits for something only the old pods
 * of the same Deployment hold, and the strategy keeps every old pod until a new one
 * is Ready (maxSurge ≥ 1, maxUnavailable 0). Reported only with a proof: on at
 * least one eligible node the new pod fits once our live old pods there are gone.
 */
import { shownPhase } from '../base/pods.js';
import type { FindingWords } from '../finding-words.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { Analyzer } from '../analyzer.js';
import { capacityRows, describeBlocker, row, spreadLastingFix } from '../placement/capacity-rows.js';
import type { Evidence, Finding } from '../finding.js';
import { placementContext, type Blocker } from '../placement/placement.js';
import {
  assessRollout,
  type AttachBlock,
  type PendingAssessment,
  type RolloutAssessment,
  schedulingEvidence,
  cordonedNote,
} from '../rollout/rollout-assessment.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { strategyPhrase } from '../rollout/strategy-words.js';
import { workloadKind } from '../workloads/index.js';
import { deviceVerdict } from '../dra/blockers.js';
import { needsOf } from '../dra/dra-index.js';
import { DIAGNOSIS_SENTENCES as S } from '../sentences.js';

type Draft = Omit<Finding, 'remediations'>;

export const surgeDeadlock: Analyzer = {
  name: 'surge-deadlock',
  analyze(ctx) {
    const { snapshot } = ctx;
    const assessment = assessRollout(ctx);
    if (!assessment.surges) return [];
    const findings: Draft[] = [];
    const stuck = assessment.pending.filter((p) => p.verdict === 'surge-deadlock');
    const first = stuck[0];
    if (first) findings.push(schedulingDeadlock(ctx, assessment, first, stuck));
    const attach = assessment.attach.filter((a) => a.releasable);
    const firstAttach = attach[0];
    if (firstAttach) findings.push(attachDeadlock(snapshot, assessment, firstAttach));
    return findings;
  },
};

function schedulingDeadlock(
  analysis: AnalysisContext,
  assessment: RolloutAssessment,
  pending: PendingAssessment,
  all: PendingAssessment[],
): Draft {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const name = object.metadata.name ?? '';
  const podName = pending.pod.metadata.name ?? '';
  const freeing = pending.eligible.filter(
    (a) => a.release !== undefined && a.release.length > 0 && (a.releaseProved || pending.proof === 'likely'),
  );
  const best = freeing[0];
  const blocker = best?.blockers[0];
  const fromMessage = pending.proof === 'message';
  const holderPods = fromMessage
    ? [...assessment.oldPods].filter((p) => pending.provedOn.includes(p.spec.nodeName ?? ''))
    : (best?.release ?? []);
  const holders = holderPods.map((p) => p.metadata.name ?? '');
  const nodeName = fromMessage ? (pending.provedOn[0] ?? '') : (best?.node.metadata.name ?? '');
  const what = blocker
    ? describeBlocker(blocker)
    : fromMessage
      ? messageNeed(analysis, pending)
      : 'what it needs';
  const eligibleCount = pending.eligible.length;
  const samePriority = holderPods.every((p) => (p.spec.priority ?? 0) === (pending.pod.spec.priority ?? 0));
  const strategy = strategyPhrase(assessment.strategy, assessment.replicas);
  // A traffic-routed canary's stable pods stay until promotion: no surge bound applies.
  const routed = assessment.strategy.argo === 'trafficRouted';
  const verdict = pending.proof === 'likely' ? 'probably can never finish' : 'can never finish';
  const summary = `Rollout of ${name} ${verdict}: new pod ${podName} needs ${what} on ${nodeName}, held by old pod${holders.length === 1 ? '' : 's'} ${holders.join(', ')} of this ${kind.kind}, and ${strategy} keeps old pods until new ones are Ready.`;
  const where = fromMessage
    ? pending.messageBasis === 'claims-unread'
      ? claimsUnreadProof(pending)
      : `The nodes could not be read, but the scheduler's message settles it: the nodes it counts without room are as many as the nodes the old pods run on (${pending.provedOn.join(', ')}), every other node fails only for node selection, and the old pods there hold at least everything the new pod asks for.`
    : eligibleCount === 1
      ? `The new pod may run only on ${nodeName}, where an old pod of this same ${kind.kind} holds it.`
      : `The new pod may run on ${eligibleCount} nodes and on every one of them what it needs is taken; on ${freeing.map((a) => a.node.metadata.name).join(', ')} old pods of this same ${kind.kind} hold it.`;
  const explanation = [
    routed
      ? 'A traffic-routed canary keeps every stable pod until it is promoted, and its canary pods start beside them (maxSurge and maxUnavailable do not apply).'
      : `The controller creates new pods first (maxSurge ${assessment.strategy.maxSurge?.value ?? 0}) and removes an old pod only after a new one is Ready (maxUnavailable ${assessment.strategy.maxUnavailable?.value ?? 0}).`,
    where,
    `So each side waits for the other: the new pod for the old pod's ${blocker ? shortWhat(blocker) : fromMessage ? messageNeed(analysis, pending).replace(/^an? /, '') : 'resources'}, the old pod for the new pod to become Ready. ${samePriority ? 'The scheduler cannot preempt the old pod, which has the same priority.' : 'The scheduler does not preempt the old pod for it.'}`,
    pending.proof === 'likely'
      ? `It is likely, not proved: ${pending.caveats.join('; ')}. Read ${pending.missing.join('; ')} to settle it; no strategy change is offered until then.`
      : `Letting ${holders.length === 1 ? 'the old pod' : `${holders.length} old pods`} go first frees room on ${nodeName}: ${kind.surgeWayOut(assessment.strategy)}`,
    kind.misleadingSignals(object, assessment.strategy, assessment.replicas),
    kind.pausedNote(object),
    blocker ? spreadLastingFix(blocker) : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  const evidence: Evidence[] = schedulingEvidence(pending);
  evidence.push(
    { type: 'strategy', replicas: assessment.replicas, strategy: assessment.strategy },
    ...(pending.messageBasis === 'claims-unread'
      ? asScheduled(analysis, pending)
      : pending.eligible.length > 0
        ? [{ type: 'node-capacity' as const, rows: capacityRows(ctx, pending.pod, pending.eligible) }]
        : []),
    {
      type: 'pods',
      title: S.podsHolding.en(),
      pods: [
        ...all.map((p) => ({
          name: p.pod.metadata.name ?? '',
          phase: 'Pending',
          detail: S.newUnscheduled.en(),
        })),
        ...(fromMessage ? holderPods : freeing.flatMap((a) => a.release ?? [])).map((p) => ({
          name: p.metadata.name ?? '',
          ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
          ...(shownPhase(p) ? { phase: shownPhase(p) } : {}),
          detail: S.oldHolds.en(),
        })),
      ],
    },
    ...cordonedNote(analysis, pending),
    ...pending.caveats.map((text) => ({ type: 'note' as const, text: `Caveat: ${text}.` })),
  );
  const says: FindingWords = {
    key: 'surge-deadlock',
    params: {
      name,
      kind: kind.kind,
      pod: podName,
      node: nodeName,
      need: blocker
        ? shortWhat(blocker)
        : fromMessage
          ? messageNeed(analysis, pending).replace(/^an? /, '')
          : '',
      holders: holders.join(', '),
      maxSurge: assessment.strategy.maxSurge?.value ?? 0,
      maxUnavailable: assessment.strategy.maxUnavailable?.value ?? 0,
      likely: pending.proof === 'likely',
      ...(samePriority ? {} : { samePriority: false }),
      ...(routed ? { routed: true } : {}),
    },
  };
  return { code: 'RolloutSurgeDeadlock', severity: 'critical', summary, explanation, evidence, says };
}

/** What the scheduler's message says the pod lacks ("nvidia.com/gpu", "a free host port", "a device of class gpu.nvidia.com"). */
function messageNeed(analysis: AnalysisContext, pending: PendingAssessment): string {
  const reason = pending.parsed?.reasons.find(
    (r) => r.category === 'resources' || r.category === 'ports' || r.category === 'devices',
  );
  if (reason?.category === 'resources' && reason.resource) return reason.resource;
  if (reason?.category === 'devices') {
    const cls = needsOf(analysis, pending.pod)?.needs[0]?.alternatives[0]?.deviceClassName;
    return cls ? `a device of class ${cls}` : 'devices';
  }
  return reason?.category === 'ports' ? 'a free host port' : 'what it needs';
}

/** The nodes were read but claims of other namespaces were not: the scheduler's counts settle it. */
function claimsUnreadProof(pending: PendingAssessment): string {
  const nodes = pending.provedOn.join(', ');
  return `ResourceClaims of other namespaces could not be read, so a device that looks free on ${nodes} may be held by another team; the scheduler's message settles it: its latest refusal of this pod counts every eligible node under "cannot allocate all claims" and every other node under node selection, so no matching device is free anywhere the pod may run, and the devices the old pods' claims hold on ${nodes} serve every device request of the new pod by themselves.`;
}

/**
 * The devices on the proved nodes as the scheduler counts them: only what the old
 * pods' claims free is free; a matching device no claim read holds is taken by a claim
 * of another namespace, which was not read.
 */
function asScheduled(analysis: AnalysisContext, pending: PendingAssessment): Evidence[] {
  const ctx = placementContext(analysis);
  const rows = [];
  const unread: string[] = [];
  for (const name of pending.provedOn) {
    const node = pending.eligible.find((a) => a.node.metadata.name === name)?.node;
    if (!node) continue;
    const verdict = deviceVerdict(analysis, pending.pod, node, { onlyFreedByRemoved: true });
    for (const blocker of verdict?.blockers ?? []) {
      rows.push(row(ctx, name, blocker));
      if (blocker.kind !== 'devices') continue;
      const unseen = blocker.matching - blocker.free - blocker.held.length;
      if (unseen > 0) unread.push(`${unseen} on ${name}`);
    }
  }
  return [
    ...(rows.length > 0 ? [{ type: 'node-capacity' as const, rows }] : []),
    ...(unread.length > 0
      ? [
          {
            type: 'note' as const,
            text: `Matching devices held by no claim that was read (${unread.join(', ')}): the scheduler counts them taken, by claims of other namespaces, which were not read.`,
          },
        ]
      : []),
  ];
}

function shortWhat(blocker: Blocker): string {
  switch (blocker.kind) {
    case 'resource':
      return blocker.resource;
    case 'host-port':
      return `host port ${blocker.port.port}`;
    case 'anti-affinity':
      return `place (anti-affinity on ${blocker.topologyKey})`;
    case 'topology-spread':
      return `place in its topology spread (${blocker.topologyKey})`;
    case 'volume':
      return `volume ${blocker.claim}`;
    case 'devices':
      return `devices (class ${blocker.deviceClassName})`;
  }
}

function attachDeadlock(
  snapshot: WorkloadSnapshot,
  assessment: RolloutAssessment,
  block: AttachBlock,
): Draft {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const name = object.metadata.name ?? '';
  const podName = block.pod.metadata.name ?? '';
  const holders = block.holders.map((h) => `${h.metadata.name ?? ''} on ${h.spec.nodeName ?? '?'}`);
  const strategy = strategyPhrase(assessment.strategy, assessment.replicas);
  const summary = `Rollout of ${name} can never finish: new pod ${podName} on ${block.node} cannot attach ReadWriteOnce volume ${block.claim}, held by old pod ${holders.join(', ')}, and ${strategy} keeps the old pod until the new one is Ready.`;
  const event = block.events[0]?.message;
  const explanation = [
    `A ReadWriteOnce volume attaches to one node at a time. The new pod was scheduled to ${block.node} while the old pod still runs elsewhere with the volume attached (the kubelet reports a Multi-Attach error), so it stays in ContainerCreating.`,
    `The old pod is removed only after the new one is Ready, which it never becomes. Letting the old pod go first (maxSurge 0 or Recreate) detaches the volume so the new pod can start.`,
    kind.misleadingSignals(object, assessment.strategy, assessment.replicas),
    kind.pausedNote(object),
  ]
    .filter((part) => part !== '')
    .join(' ');
  const evidence: Evidence[] = [
    { type: 'strategy', replicas: assessment.replicas, strategy: assessment.strategy },
    {
      type: 'node-capacity',
      rows: block.holders.map((h) => ({
        node: h.spec.nodeName ?? '',
        resource: `volume ${block.claim} (ReadWriteOnce)`,
        allocatable: '1',
        used: '1',
        free: '0',
        holders: [{ pod: h.metadata.name ?? '', amount: '1', ownedByThisDeployment: true }],
      })),
    },
    {
      type: 'pods',
      title: 'New pod waiting for the volume, and the old pod holding it',
      pods: [
        { name: podName, node: block.node, phase: 'Pending', detail: 'new, waiting to attach the volume' },
        ...block.holders.map((h) => ({
          name: h.metadata.name ?? '',
          ...(h.spec.nodeName ? { node: h.spec.nodeName } : {}),
          detail: 'old, volume attached',
        })),
      ],
    },
  ];
  if (event) evidence.push({ type: 'note', text: `Event FailedAttachVolume: ${event}` });
  return { code: 'RolloutSurgeDeadlock', severity: 'critical', summary, explanation, evidence };
}
