/**
 * Where each pod of the workload stands for the forward model (forward/run.ts), read
 * from the pod as the API server holds it, never from a guess about time:
 * - 'pending': not bound to a node (the scheduler still judges it);
 * - 'starting': bound, not Ready yet, nothing failing, on a node whose kubelet reports:
 *   it becomes Ready unless something says otherwise; or Ready for less than the
 *   workload's minReadySeconds: not available to its controller yet, and it will be;
 * - 'ready': its Ready condition is True (for minReadySeconds, where the workload sets it);
 * - 'failing': a container crash-loops, cannot pull, cannot start, its probe kills it,
 *   a volume cannot attach or mount, its readiness probe still fails after five minutes
 *   (before that it is a start-up's), or it has been not Ready for more than ten minutes:
 *   the model does not expect it to become Ready by itself;
 * - 'terminating': deletion requested and within reach of its deadline: gone soon, and
 *   until then it still holds its node's resources and its quota (DESIGN.md §4c);
 * - 'stuck': terminating well past its deadline, or on a node whose kubelet stopped
 *   reporting: what it holds is not about to be freed.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { ContainerStatus, KubeEvent, Node, Pod } from '../k8s.js';
import { isReady, isStuckTerminating, isTerminating, isUnscheduled } from '../base/pods.js';
import { classifyContainers } from '../crash/container-failures.js';
import { workloadObject } from '../workloads/index.js';

export type PodPhase = 'pending' | 'starting' | 'ready' | 'failing' | 'terminating' | 'stuck';

/** A pod not Ready this long after it started is not "starting" any more (the kubelet's own crash back-off resets after 10 minutes). */
const STARTING_FOR_MS = 10 * 60_000;

/** Kubelet events that keep a bound pod from running, whatever its containers say. */
const BLOCKING_EVENTS = new Set(['FailedAttachVolume', 'FailedMount', 'FailedCreatePodSandBox', 'Unhealthy']);

/**
 * A readiness probe's failure (an Unhealthy event "Readiness probe failed"): a pod that
 * is starting fails it until its server answers, which is no sign it never will (the
 * kubelet neither restarts nor kills it for that). Such a pod counts as failing once it
 * has run READINESS_GRACE_MS and still fails it; before that it is starting. Liveness and
 * startup probes' failures kill the container and block at once.
 */
function readinessFailure(event: KubeEvent): boolean {
  return event.reason === 'Unhealthy' && (event.message ?? '').startsWith('Readiness probe');
}

/** How long a pod whose readiness probe fails may take to start answering it (half of STARTING_FOR_MS). */
const READINESS_GRACE_MS = 5 * 60_000;

/** How long the pod has run (since its startTime, else its creation); NaN when not known, so no comparison holds. */
function upFor(pod: Pod, now: number): number {
  const started = Date.parse(pod.status?.startTime ?? pod.metadata.creationTimestamp ?? '');
  return Number.isFinite(started) && Number.isFinite(now) ? now - started : NaN;
}

/** The node's kubelet reports Ready (a node without conditions, as hand-written dumps have, counts as up). */
export function kubeletReports(node: Node | undefined): boolean {
  const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}

/** Every pod of the workload with its phase, computed once per analysis. */
export function podPhases(ctx: AnalysisContext): ReadonlyMap<Pod, PodPhase> {
  return ctx.once('forward-pod-phases', () => {
    const { snapshot } = ctx;
    const now = Date.parse(snapshot.capturedAt);
    const nodes = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
    const failingPods = new Set(
      classifyContainers(ctx)
        .filter((r) => r.failures.length > 0 || (r.restartCount > 0 && !r.ready))
        .map((r) => r.podUid || r.pod),
    );
    const podEvents = snapshot.events.filter(
      (e) => e.involvedObject.kind === 'Pod' && BLOCKING_EVENTS.has(e.reason ?? ''),
    );
    const keyOf = (e: KubeEvent): string => e.involvedObject.uid || e.involvedObject.name || '';
    const blocked = new Set(podEvents.filter((e) => !readinessFailure(e)).map(keyOf));
    const unready = new Set(podEvents.filter(readinessFailure).map(keyOf));
    const minReady = (workloadObject(snapshot).spec as { minReadySeconds?: number }).minReadySeconds ?? 0;
    const phases = new Map<Pod, PodPhase>();
    for (const pod of snapshot.pods) {
      const key = pod.metadata.uid || pod.metadata.name || '';
      const node = pod.spec.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
      const nodeDown = Boolean(node) && !kubeletReports(node);
      const failing =
        failingPods.has(key) ||
        blocked.has(key) ||
        (unready.has(key) && upFor(pod, now) > READINESS_GRACE_MS);
      phases.set(pod, phaseOf(pod, { now, nodeDown, failing, minReady }));
    }
    return phases;
  });
}

function phaseOf(
  pod: Pod,
  facts: { now: number; nodeDown: boolean; failing: boolean; minReady: number },
): PodPhase {
  if (isTerminating(pod)) {
    const stuck = isStuckTerminating(pod, new Date(facts.now).toISOString()) || facts.nodeDown;
    return stuck ? 'stuck' : 'terminating';
  }
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return 'failing';
  if (isUnscheduled(pod)) return 'pending';
  if (facts.nodeDown) return 'failing';
  if (isReady(pod)) return availableYet(pod, facts.now, facts.minReady) ? 'ready' : 'starting';
  if (facts.failing) return 'failing';
  return upFor(pod, facts.now) > STARTING_FOR_MS ? 'failing' : 'starting';
}

/** Waiting reasons of a container that is still being made, not failing. */
const MAKING = new Set(['ContainerCreating', 'PodInitializing']);

/**
 * Another workload's pod that is 'starting' by the same rule as ours: bound to a node,
 * not Ready, started less than ten minutes ago, no container restarted, terminated or
 * waiting for any reason but being made. Its status alone says so (the containers'
 * classification is of the workload's own pods).
 */
export function startingNow(pod: Pod, now: number): boolean {
  if (isTerminating(pod) || isUnscheduled(pod) || isReady(pod) || pod.status?.phase !== 'Running')
    return false;
  // An init container that ran to completion (exit 0) is done, not failing.
  const done = (c: ContainerStatus, init: boolean): boolean => init && c.state?.terminated?.exitCode === 0;
  const failing = [
    ...(pod.status.initContainerStatuses ?? []).map((c) => [c, true] as const),
    ...(pod.status.containerStatuses ?? []).map((c) => [c, false] as const),
  ].some(
    ([c, init]) =>
      (c.restartCount ?? 0) > 0 ||
      (c.state?.terminated !== undefined && !done(c, init)) ||
      (c.state?.waiting !== undefined && !MAKING.has(c.state.waiting.reason ?? '')),
  );
  return !failing && upFor(pod, now) <= STARTING_FOR_MS;
}

/**
 * podutil.IsPodAvailable: Ready for at least minReadySeconds (its Ready condition's
 * lastTransitionTime that long ago). A Ready pod without that time counts as available.
 */
function availableYet(pod: Pod, now: number, minReadySeconds: number): boolean {
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '');
  if (!Number.isFinite(since) || !Number.isFinite(now)) return true;
  return now - since >= minReadySeconds * 1000;
}
