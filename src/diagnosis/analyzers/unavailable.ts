/**
 * Unavailable: fewer replicas available than desired is never "no problem found".
 * Runs after every other analyzer and sees their findings.
 *
 * Causes it proves itself, from what the API server holds (DESIGN.md §4b):
 * - a node that stopped reporting (`Ready` Unknown or False): its pods stay Running
 *   or Terminating in the API while the kubelet is gone (the taint manager marks them
 *   `DisruptionTarget`, reason `DeletionByTaintManager`), and the attach/detach
 *   controller keeps their volumes attached, so a replacement that mounts the same
 *   ReadWriteOnce volume waits on `Multi-Attach error … Volume is already used by
 *   pod(s) …`. The way out is the `node.kubernetes.io/out-of-service` taint once the
 *   node is confirmed down (non-graceful node shutdown), never a strategy change;
 * - a replacement waiting on a volume another pod holds (Multi-Attach) elsewhere.
 * With no such cause and no other finding that explains it, the shortfall is reported
 * as unexplained (a warning: exit 1), with what was read.
 */
import type { Analyzer } from '../analyzer.js';
import { SAYS_WHAT_IT_WAITS_FOR, type Evidence, type Finding } from '../finding.js';
import type { KubeEvent, Node, Pod } from '../k8s.js';
import { eventsOfPod, eventTime } from '../base/pod-events.js';
import { isReady, isTerminal, isTerminating, shownPhase } from '../base/pods.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { workloadKind } from '../workloads/index.js';
import { codeSpan } from '../../text/code-span.js';
import { podPhases } from '../forward/pod-phase.js';
import { forwardVerdict } from '../forward/verdict.js';
import { visibleSteps } from '../forward/unbuilt.js';
import { downNodeFate, type DownNodeFate } from '../placement/down-node-fate.js';
import type { AnalysisContext } from '../analysis-context.js';

type Draft = Omit<Finding, 'remediations'>;

const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export const unavailable: Analyzer = {
  name: 'unavailable',
  analyze(ctx, earlier = []) {
    const { snapshot } = ctx;
    const kind = workloadKind(snapshot);
    const object = kind.object(snapshot);
    const desired = kind.desiredReplicas(object);
    const { progress } = kind.rolloutStatus(object);
    // No status (a hand-written dump): the counts are unknown, not 0.
    if (desired === 0 || !progress.statusRead || progress.available >= desired) return [];
    // Pods starting (bound, nothing failing, not Ready yet or inside minReadySeconds)
    // are not unavailable: they become available by themselves (forward/pod-phase.ts).
    if (progress.available + starting(ctx) >= desired) return [];
    const shortfall = { desired, available: progress.available };
    const down = downNodes(snapshot);
    if (down.length > 0) return [nodeDown(ctx, shortfall, down)];
    const waits = attachWaits(snapshot);
    const firstWait = waits[0];
    const explained = earlier.some(
      (f) => f.code !== 'RolloutAtRisk' && (f.severity === 'critical' || f.severity === 'warning'),
    );
    if (firstWait && !explained) return [volumeHeld(snapshot, shortfall, firstWait)];
    if (explained) return [];
    // A rollout the controller still reports as progressing is allowed its unavailable
    // pods where its next steps can be followed (forward/reconcile.ts says it moves, or
    // what stops it), or where a pod of it is seen starting or going. Where neither (a
    // dump of one namespace, OnDelete, devices, and nothing moving), the shortfall is
    // said with why: unknown is not healthy.
    if (kind.underWay(snapshot) !== undefined && !kind.stalled(snapshot)) {
      // A pause (it waits for a person) or a preemption under way already says what happens.
      if (kind.paused(object) || earlier.some((f) => SAYS_WHAT_IT_WAITS_FOR.has(f.code))) return [];
      const { asIs } = forwardVerdict(ctx);
      return asIs.result === 'unknown' && visibleSteps(ctx).length === 0
        ? [unexplained(snapshot, shortfall, asIs.why)]
        : [];
    }
    return [unexplained(snapshot, shortfall)];
  },
};

/** Pods of the workload on their way to available (forward/pod-phase.ts: 'starting'). */
function starting(ctx: Parameters<Analyzer['analyze']>[0]): number {
  const phases = podPhases(ctx);
  return ctx.snapshot.pods.filter((p) => !isTerminating(p) && phases.get(p) === 'starting').length;
}

interface Shortfall {
  desired: number;
  available: number;
}

function readyCondition(
  node: Node,
): { status: string; reason?: string; message?: string; since?: string } | undefined {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  if (!c) return undefined;
  return {
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { since: c.lastTransitionTime } : {}),
  };
}

interface DownNode {
  node: Node;
  name: string;
  ready: NonNullable<ReturnType<typeof readyCondition>>;
  /** Our pods bound to it, still in the API. */
  pods: Pod[];
  outOfService: boolean;
}

/** Nodes our live pods are bound to whose Ready condition is not True. */
function downNodes(snapshot: WorkloadSnapshot): DownNode[] {
  const out: DownNode[] = [];
  for (const node of snapshot.nodes) {
    const name = node.metadata.name ?? '';
    const ready = readyCondition(node);
    if (!ready || ready.status === 'True') continue;
    const pods = snapshot.pods.filter((p) => p.spec.nodeName === name && !isTerminal(p));
    if (pods.length === 0) continue;
    const outOfService = (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE);
    out.push({ node, name, ready, pods, outOfService });
  }
  return out;
}

interface AttachWait {
  pod: Pod;
  event: KubeEvent;
  holders: string[];
}

/** Our bound, not-Ready pods whose latest FailedAttachVolume is a Multi-Attach error, with the pods it names. */
function attachWaits(snapshot: WorkloadSnapshot): AttachWait[] {
  const out: AttachWait[] = [];
  for (const pod of snapshot.pods) {
    if (!pod.spec.nodeName || isReady(pod) || isTerminating(pod) || isTerminal(pod)) continue;
    const event = eventsOfPod(snapshot.events, pod)
      .filter((e) => e.reason === 'FailedAttachVolume' && /Multi-Attach error/.test(e.message ?? ''))
      .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))[0];
    if (!event) continue;
    const named = /used by pod\(s\) (.+)$/.exec(event.message ?? '')?.[1] ?? '';
    out.push({ pod, event, holders: named.split(/,\s*/).filter((n) => n !== '') });
  }
  return out;
}

/** An evicted pod's message, a pod the scheduler could not place with its words, else "not Ready". */
function whyNotAvailable(p: Pod): string {
  if (p.status?.reason === 'Evicted') return `evicted: ${p.status.message ?? ''}`;
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (!p.spec.nodeName && scheduled?.status === 'False')
    return `not scheduled: ${scheduled.message ?? scheduled.reason ?? 'no reason given'}`;
  return 'not Ready';
}

function podRow(p: Pod, detail: string): { name: string; node?: string; phase?: string; detail: string } {
  return {
    name: p.metadata.name ?? '',
    ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
    ...(shownPhase(p) ? { phase: shownPhase(p) } : {}),
    detail,
  };
}

function nodeDown(ctx: AnalysisContext, s: Shortfall, down: DownNode[]): Draft {
  const { snapshot } = ctx;
  const [first] = down;
  const names = down.map((d) => d.name).join(', ');
  const waits = attachWaits(snapshot).filter((w) =>
    w.holders.some((h) => down.some((d) => d.pods.some((p) => p.metadata.name === h))),
  );
  const stuck = down.flatMap((d) => d.pods);
  const allTainted = down.every((d) => d.outOfService);
  const status = first?.ready;
  const evicted = stuck.filter((p) =>
    p.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.status === 'True'),
  );
  const taint = (n: string): string =>
    codeSpan(`kubectl taint nodes ${n} ${OUT_OF_SERVICE}=nodeshutdown:NoExecute`);
  const volume = waits[0];
  const fate = volume ? ({ fate: 'unknown' } as const) : downNodeFate(ctx, stuck);
  if (fate.fate === 'evicted') return evictedAndReplaced(ctx, s, down, fate);
  const summary = `${snapshot.target.name} has ${s.available} of ${s.desired} replicas available: node ${names} stopped reporting (Ready=${status?.status ?? 'Unknown'}), and ${stuck.length === 1 ? 'its pod stays' : `${stuck.length} pods stay`} there${volume ? `, holding the volume replacement ${volume.pod.metadata.name ?? ''} waits for (Multi-Attach)` : ''}${fate.fate === 'never' ? `: ${tolerated(fate)}` : ''}.`;
  const explanation = [
    `The node's kubelet is gone${status?.message ? ` ("${status.message}")` : ''}${status?.since ? ` since ${status.since}` : ''}. ${evicted.length > 0 ? 'The taint manager marked its pods for eviction (DisruptionTarget), but' : 'Its pods are'} not removed from the API while no kubelet confirms they stopped, and the attach/detach controller keeps their volumes attached to the node${volume ? ': a replacement that mounts the same ReadWriteOnce volume cannot start' : ''}.`,
    allTainted
      ? `The node already carries the ${OUT_OF_SERVICE} taint: the pods there should be force-deleted and their volumes detached shortly; if they stay, check kube-controller-manager (its pod garbage collector).`
      : `Once the node is confirmed down (powered off or gone, not just cut off from the network), mark it out of service: ${down.map((d) => taint(d.name)).join(', ')}. Kubernetes then deletes its pods and detaches their volumes so replacements start elsewhere. Remove the taint when the node is back or replaced. Never on a node that may still run the pods: two writers on one volume corrupt it.`,
    'A strategy change, a restart or a node exclusion does not help here: the pods are stuck on a node nobody can reach.',
  ].join(' ');
  const evidence: Evidence[] = readyConditions(down);
  evidence.push({
    type: 'pods',
    title: 'Pods on the node that stopped reporting, and what waits for them',
    pods: [
      ...stuck.map((p) =>
        podRow(p, isTerminating(p) ? 'deletion requested, no kubelet to confirm' : 'node not reporting'),
      ),
      ...waits.map((w) => podRow(w.pod, `waits to attach a volume held by ${w.holders.join(', ')}`)),
    ],
  });
  if (volume)
    evidence.push({
      type: 'note',
      text: `Event FailedAttachVolume on ${volume.pod.metadata.name ?? ''}: ${volume.event.message ?? ''}`,
    });
  return { code: 'Unavailable', severity: 'critical', summary, explanation, evidence };
}

/** Each down node's Ready condition, as evidence. */
function readyConditions(down: readonly DownNode[]): Evidence[] {
  return down.map((d) => ({
    type: 'condition' as const,
    condition: `Ready (node ${d.name})`,
    status: d.ready.status,
    ...(d.ready.reason ? { reason: d.ready.reason } : {}),
    ...(d.ready.message ? { message: d.ready.message } : {}),
  }));
}

/** "it tolerates node.kubernetes.io/unreachable for ever, so nothing evicts it". */
function tolerated(fate: Extract<DownNodeFate, { fate: 'never' }>): string {
  const one = fate.pods.length === 1;
  return `${one ? 'it tolerates' : 'they tolerate'} ${fate.taint} for ever (no tolerationSeconds), so nothing evicts ${one ? 'it' : 'them'}`;
}

/**
 * The pods on the down nodes are evicted when their tolerations run out, and the
 * ReplicaSet replaces them on a node that reports: the shortfall ends by itself where a
 * node has room (a warning: replicas are short until then), and stays where none has.
 */
function evictedAndReplaced(
  ctx: AnalysisContext,
  s: Shortfall,
  down: DownNode[],
  fate: Extract<DownNodeFate, { fate: 'evicted' }>,
): Draft {
  const { snapshot } = ctx;
  const names = down.map((d) => d.name).join(', ');
  const stuck = down.flatMap((d) => d.pods).filter((p) => !isTerminating(p));
  const status = down[0]?.ready;
  const one = stuck.length === 1;
  const when =
    fate.at === 'now'
      ? 'now'
      : `at ${fate.at} (${one ? 'it tolerates' : 'they tolerate'} ${fate.taint} for ${fate.seconds}s)`;
  const room =
    fate.room === true
      ? 'which a node that reports has room for now'
      : fate.room === false
        ? 'which no node that reports has room for: it stays Pending'
        : 'whether a node that reports has room for it was not read';
  const summary = `${snapshot.target.name} has ${s.available} of ${s.desired} replicas available: node ${names} stopped reporting (Ready=${status?.status ?? 'Unknown'}); the taint-eviction controller deletes ${one ? 'its pod' : `its ${stuck.length} pods`} ${when}, and the controller then makes ${one ? 'a replacement' : 'replacements'}, ${room}.`;
  const explanation = [
    `A pod on a node that stopped reporting is deleted once its toleration of the node's NoExecute taint runs out (admission gives every pod 300 s unless its template says otherwise). It stays Terminating in the API while no kubelet confirms it stopped, but the ReplicaSet no longer counts it and makes another at once, on a node that reports.`,
    fate.room === true
      ? 'Nothing needs doing for this workload: the replicas come back by themselves. To act sooner on a node confirmed down (powered off or gone), mark it out of service: '
      : 'Once the node is confirmed down (powered off or gone, not just cut off from the network), marking it out of service removes its pods for good: ',
    `${down.map((d) => codeSpan(`kubectl taint nodes ${d.name} ${OUT_OF_SERVICE}=nodeshutdown:NoExecute`)).join(', ')}. A strategy change, a restart or a node exclusion does not help here.`,
  ].join(' ');
  return {
    code: 'Unavailable',
    severity: fate.room === false ? 'critical' : 'warning',
    summary,
    explanation,
    evidence: [
      ...readyConditions(down),
      {
        type: 'pods',
        title: 'Pods on the node that stopped reporting',
        pods: stuck.map((p) => podRow(p, `evicted ${fate.at === 'now' ? 'now' : `at ${fate.at}`}`)),
      },
    ],
  };
}

function volumeHeld(snapshot: WorkloadSnapshot, s: Shortfall, wait: AttachWait): Draft {
  const podName = wait.pod.metadata.name ?? '';
  return {
    code: 'Unavailable',
    severity: 'critical',
    summary: `${snapshot.target.name} has ${s.available} of ${s.desired} replicas available: ${podName} on ${wait.pod.spec.nodeName ?? '?'} cannot attach a volume that ${wait.holders.join(', ') || 'another pod'} still holds (Multi-Attach).`,
    explanation: `A ReadWriteOnce volume attaches to one node at a time; the attach/detach controller detaches it only once the pod that uses it is gone from its node. ${wait.holders.length > 0 ? `Find out why ${wait.holders.join(', ')} still holds it (${codeSpan(`kubectl get pod ${wait.holders[0] ?? ''} -n ${snapshot.target.namespace} -o wide`)}): a pod stuck Terminating, or a node that stopped reporting (then, once it is confirmed down, the ${OUT_OF_SERVICE} taint).` : ''}`,
    evidence: [
      {
        type: 'pods',
        title: 'Pod waiting for the volume',
        pods: [podRow(wait.pod, 'waits to attach the volume')],
      },
      { type: 'note', text: `Event FailedAttachVolume: ${wait.event.message ?? ''}` },
    ],
  };
}

/**
 * The shortfall no finding explains; `untold`: of a rollout under way whose next steps
 * could not be followed, and why.
 */
function unexplained(snapshot: WorkloadSnapshot, s: Shortfall, untold?: string): Draft {
  const going = snapshot.pods.filter((p) => !isTerminal(p) && isTerminating(p));
  const notReady = snapshot.pods.filter((p) => !isTerminal(p) && !isTerminating(p) && !isReady(p));
  const evicted = snapshot.pods.filter((p) => p.status?.reason === 'Evicted');
  // A terminating pod is there until it is gone (a StatefulSet makes its ordinal again only then).
  const missing =
    s.desired - snapshot.pods.filter((p) => !isTerminal(p) && !isTerminating(p)).length - going.length;
  const parts = [
    notReady.length > 0 ? `${notReady.length} pod${notReady.length === 1 ? ' is' : 's are'} not Ready` : '',
    going.length > 0 ? `${going.length} pod${going.length === 1 ? ' is' : 's are'} terminating` : '',
    missing > 0
      ? `${missing} pod${missing === 1 ? '' : 's'} of ${s.desired} do${missing === 1 ? 'es' : ''} not exist`
      : '',
    evicted.length > 0 ? `${evicted.length} evicted` : '',
  ].filter((p) => p !== '');
  const counted = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return {
    code: 'Unavailable',
    severity: 'warning',
    summary:
      untold === undefined
        ? `${snapshot.target.name} has ${s.available} of ${s.desired} replicas available, and nothing read explains why${counted}.`
        : `${snapshot.target.name} has ${s.available} of ${s.desired} replicas available while its rollout is under way${counted}, and whether the rollout gets there by itself could not be told: ${untold}.`,
    explanation: `${
      untold === undefined
        ? 'No finding names a cause: no pod is Pending for want of room, crashing, refused at creation or held by a node that stopped reporting.'
        : `The controllers' next steps could not be followed (${untold}), so the rollout is called neither moving nor stuck.`
    } Look at the pods that are not Ready and at the ${snapshot.target.kind}'s events: ${codeSpan(`kubectl describe ${snapshot.target.kind.toLowerCase()} ${snapshot.target.name} -n ${snapshot.target.namespace}`)}.`,
    evidence: [
      ...(notReady.length > 0 || going.length > 0 || evicted.length > 0
        ? [
            {
              type: 'pods' as const,
              title: 'Pods that are not available',
              pods: [
                ...notReady.map((p) => podRow(p, whyNotAvailable(p))),
                ...going.map((p) => podRow(p, 'terminating')),
                ...evicted.map((p) => podRow(p, whyNotAvailable(p))),
              ],
            },
          ]
        : []),
    ],
  };
}
