/**
 * New pods that do not become Ready hold a rollout where no other finding says why: a
 * readiness probe that keeps failing, or a pod Running for ten minutes and more without
 * being Ready (forward/pod-phase.ts 'failing'). The controllers count such a pod
 * unavailable: a Deployment's (rolling.go, reconcileOldReplicaSets) removes no old pod
 * past maxUnavailable and creates none past maxSurge, a DaemonSet's (update.go
 * rollingUpdate) deletes no old pod past maxUnavailable, an Argo canary does not take its
 * next step. Nothing moves until it is Ready, and a DaemonSet never reports a deadline:
 * "No problem found" there was a rollout that never finishes.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import type { KubeEvent, Pod } from '../k8s.js';
import { eventsOfPod } from '../base/pod-events.js';
import { workloadKind } from '../workloads/index.js';
import { podPhases } from './pod-phase.js';
import { forwardVerdict } from './verdict.js';
import { FAILS_ON_ITS_OWN, WAITS_FOR_ROOM } from './crashing-revision.js';
import { spanWords } from '../../text/time.js';
import { codeSpan } from '../../text/code-span.js';
import { typeOfKind } from '../workload-ref.js';
import { downNodeFate } from '../placement/down-node-fate.js';
import { podsAsTheyAre } from './pods-as-they-are.js';

type Draft = Omit<Finding, 'remediations'>;

/** Findings that already say why pods fail (or why the rollout stops). */
const EXPLAINS_FAILING: ReadonlySet<FindingCode> = new Set([
  ...FAILS_ON_ITS_OWN,
  ...WAITS_FOR_ROOM,
  'AdmissionDenied',
  'Unavailable',
  'RolloutDegraded',
]);

/** How much of an event's message a headline quotes. */
const QUOTED = 160;

/** The findings, with the new pods that hold the rollout said where nothing else says why. */
export function withFailingNewSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if (kind.underWay(snapshot) === undefined || kind.paused(kind.object(snapshot))) return [...findings];
  if (findings.some((f) => EXPLAINS_FAILING.has(f.code))) return [...findings];
  // Events not all read: IncompleteEvidence says what could explain the pod.
  if (snapshot.coverage.events !== 'complete') return [...findings];
  // An update under way: old pods still wait for the new ones (else Unavailable says it).
  const { current, old } = kind.revisions(snapshot);
  if (!old.some((r) => r.pods.length > 0)) return [...findings];
  const { asIs } = forwardVerdict(ctx);
  if (asIs.result === 'failing' && asIs.nodesDown !== undefined) {
    const held = heldOnDownNodes(ctx, current?.pods ?? [], asIs.nodesDown);
    return held ? [...findings, held] : [...findings];
  }
  if (asIs.result !== 'failing') return [...findings];
  const phases = podPhases(ctx);
  const failing = (current?.pods ?? []).filter(
    (p) => phases.get(p) === 'failing' && p.spec.nodeName && p.status?.phase === 'Running',
  );
  const first = failing[0];
  if (first === undefined) return [...findings];
  return [...findings, failingNewFinding(ctx, failing, first)];
}

/** The pod's latest readiness-probe failure event, if one was read. */
function probeEvent(ctx: AnalysisContext, pod: Pod): KubeEvent | undefined {
  return eventsOfPod(ctx.snapshot.events, pod)
    .filter((e) => e.reason === 'Unhealthy' && (e.message ?? '').startsWith('Readiness probe'))
    .at(-1);
}

/** "for 35 min" since the pod last stopped (or never became) Ready, when known. */
function notReadyFor(ctx: AnalysisContext, pod: Pod): string {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const since = Date.parse(ready?.lastTransitionTime ?? pod.status?.startTime ?? '');
  const now = Date.parse(ctx.snapshot.capturedAt);
  return Number.isFinite(since) && now > since ? ` for ${spanWords((now - since) / 1000)}` : '';
}

function failingNewFinding(ctx: AnalysisContext, failing: readonly Pod[], first: Pod): Draft {
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const kind = workloadKind(snapshot);
  const podName = first.metadata.name ?? '';
  const event = probeEvent(ctx, first);
  const message = (event?.message ?? '').replace(/\s+/g, ' ').slice(0, QUOTED);
  const why = event
    ? `its readiness probe keeps failing (${event.count ?? 1} time${(event.count ?? 1) === 1 ? '' : 's'}: "${message}")`
    : 'it runs but is not Ready, and no probe event was read to say why';
  const others =
    failing.length > 1
      ? ` (and ${failing.length - 1} more new pod${failing.length > 2 ? 's' : ''} like it)`
      : '';
  const ref = `${typeOfKind(snapshot.target.kind)}/${name}`;
  return {
    code: 'RolloutStuck',
    severity: 'critical',
    summary: `Rollout of ${name} is held by new pod ${podName}${others}: not Ready${notReadyFor(ctx, first)}, ${why}; the controller counts it unavailable and goes no further until it is Ready.`,
    explanation: `A ${kind.words.kind}'s rollout moves only as its new pods become Ready: one that stays unavailable uses up what maxUnavailable allows, so no more old pods go until it is Ready. Find what the readiness probe checks and why it fails (kubectl describe pod ${podName} -n ${namespace}; its logs), fix the template or the probe, or take the update back with ${codeSpan(`kubectl rollout undo ${ref} -n ${namespace}`)}. A Deployment reports ProgressDeadlineExceeded once its deadline passes; a DaemonSet never does.`,
    evidence: [
      {
        type: 'pods',
        title: 'New pods that hold the rollout',
        pods: failing.map((p) => ({
          name: p.metadata.name ?? '',
          ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
          phase: 'Running',
          detail: `not Ready${notReadyFor(ctx, p)}`,
        })),
      },
    ],
  };
}

/**
 * The new pods that hold the rollout are on nodes that stopped reporting (forward
 * `nodesDown`): they never become Ready there. Where nothing deletes them (they tolerate
 * the node's NoExecute taints for ever: `operator: Exists`, no tolerationSeconds) the
 * rollout is stuck until the node comes back or someone deletes them; where the
 * taint-eviction controller deletes them, the ReplicaSet replaces them elsewhere and the
 * rollout moves on by itself (down-node-fate.ts). Not known: nothing said, as before.
 */
function heldOnDownNodes(
  ctx: AnalysisContext,
  pods: readonly Pod[],
  nodes: readonly string[],
): Draft | undefined {
  const { snapshot } = ctx;
  const { name, namespace } = snapshot.target;
  const on = pods.filter((p) => nodes.includes(p.spec.nodeName ?? ''));
  const fate = downNodeFate(ctx, on);
  if (fate.fate === 'unknown') return undefined;
  const where = `node${nodes.length === 1 ? '' : 's'} ${nodes.join(', ')}`;
  const evidence = [podsAsTheyAre(ctx)];
  if (fate.fate === 'never') {
    const named = fate.pods.map((p) => p.metadata.name ?? '');
    const [first] = named;
    return {
      code: 'RolloutStuck',
      severity: 'critical',
      summary: `Rollout of ${name} is held by new pod${named.length === 1 ? '' : 's'} ${named.join(', ')} on ${where}, which stopped reporting: ${named.length === 1 ? 'it tolerates' : 'they tolerate'} ${fate.taint} for ever (no tolerationSeconds), so nothing evicts ${named.length === 1 ? 'it' : 'them'}, and the controller counts ${named.length === 1 ? 'it' : 'them'} unavailable and goes no further while ${named.length === 1 ? 'it is' : 'they are'} there.`,
      explanation: `Delete ${named.length === 1 ? 'the pod' : 'the pods'} (${codeSpan(`kubectl delete pod ${first ?? ''} -n ${namespace}`)}): ${named.length === 1 ? 'it stays' : 'they stay'} Terminating while no kubelet confirms, but the ReplicaSet stops counting ${named.length === 1 ? 'it' : 'them'} and makes replacements on nodes that report, so the rollout moves on. Once the node is confirmed down, the pod garbage collector removes terminating pods from a node marked ${codeSpan('node.kubernetes.io/out-of-service')}. A strategy change or a restart does not help: the new pods there count against the rollout whatever the strategy.`,
      evidence,
    };
  }
  const when = fate.at === 'now' ? 'now' : `at ${fate.at} (after ${fate.seconds}s tolerating ${fate.taint})`;
  return {
    code: 'RolloutProgressing',
    severity: fate.room === false ? 'warning' : 'info',
    summary: `The rollout of ${name} waits for new pods on ${where}, which stopped reporting: the taint-eviction controller deletes them ${when}, and the ReplicaSet replaces them on nodes that report${fate.room === false ? ', though none has room for them now' : fate.room === 'unknown' ? ' (whether one has room was not read)' : ''}; the rollout moves on then.`,
    explanation:
      "A pod on a node that stopped reporting never becomes Ready there, and the controller counts it unavailable. Its toleration of the node's NoExecute taint runs out (300 s unless the template says otherwise), the pod is deleted, and the ReplicaSet no longer counts it: a replacement goes to a node that reports. Nothing needs doing unless that takes too long.",
    evidence,
  };
}
