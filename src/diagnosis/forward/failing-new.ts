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
  if (asIs.result !== 'failing' || asIs.nodesDown !== undefined) return [...findings];
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
