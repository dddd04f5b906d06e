/**
 * Whether a crash loop of this Deployment may be node-local before any analysis: the
 * collector and workload selection ask it to know that other workloads' pods matter.
 * The exclude-node plan (CrashLoopOnNode) counts the room left on the nodes that stay
 * eligible, and a node whose pods were not read has unknown room, never free
 * (DESIGN.md §2). A cheap superset of crash-distribution.ts's verdict: reading a few
 * more pods costs little, missing them costs the plan's capacity check.
 */
import type { ContainerStatus, Pod } from '../k8s.js';
import { isReady, isTerminal } from './pods.js';

/** Waiting or terminated reasons of a container the runtime could not start (crash/container-failures.ts reports them). */
export const START_ERROR_REASONS: ReadonlySet<string> = new Set([
  'RunContainerError',
  'CreateContainerError',
  'StartError',
  'ContainerCannotRun',
]);

export interface CrashNodes {
  /** Nodes where a pod of ours crashes and none of ours is healthy: what an exclusion would exclude. */
  crashing: string[];
  /** The other nodes our pods run on: they stay eligible after an exclusion of `crashing`. */
  staying: string[];
}

/**
 * The nodes a node-local crash loop would exclude and those that would stay, or
 * undefined when no pod of ours crashes or no node holds a healthy pod of ours and
 * no crashing one (then no exclusion can be offered).
 */
export function crashNodesOf(pods: readonly Pod[]): CrashNodes | undefined {
  const crashingOn = new Set<string>();
  const healthyOn = new Set<string>();
  const bound = new Set<string>();
  for (const pod of pods) {
    const node = pod.spec.nodeName;
    if (!node || isTerminal(pod)) continue;
    bound.add(node);
    if (podCrashes(pod)) crashingOn.add(node);
    else if (pod.status?.phase === 'Running' && isReady(pod)) healthyOn.add(node);
  }
  const crashing = [...crashingOn].filter((n) => !healthyOn.has(n)).sort();
  const clean = [...healthyOn].filter((n) => !crashingOn.has(n));
  if (crashing.length === 0 || clean.length === 0) return undefined;
  const staying = [...bound].filter((n) => !crashing.includes(n)).sort();
  return { crashing, staying };
}

function podCrashes(pod: Pod): boolean {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].some(
    containerCrashes,
  );
}

function containerCrashes(status: ContainerStatus): boolean {
  const waiting = status.state?.waiting?.reason;
  const terminated = status.state?.terminated?.reason ?? status.lastState?.terminated?.reason;
  return (
    waiting === 'CrashLoopBackOff' ||
    (status.restartCount > 0 && status.lastState?.terminated !== undefined) ||
    [waiting, terminated].some((r) => r !== undefined && START_ERROR_REASONS.has(r))
  );
}
