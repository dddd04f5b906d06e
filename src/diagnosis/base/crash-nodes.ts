/**
 * Whether a crash loop of a workload may be node-local before any analysis: the
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
 * no crashing one (then no exclusion can be offered). Judged per pod template, as
 * crash-distribution.ts judges it: the pods are grouped by `revisionLabel` (the kind's
 * label naming a pod's revision), and a template whose crashing pods have no healthy
 * pod of the same template on another node rules every node out (a revision that
 * crashes everywhere it runs, like a StatefulSet's update revision at a forced
 * rollback): its nodes are no exclusion's, and nothing more is read for one.
 */
export function crashNodesOf(pods: readonly Pod[], revisionLabel: string): CrashNodes | undefined {
  const bound = new Set<string>();
  const templates = new Map<string, { crashingOn: Set<string>; healthyOn: Set<string> }>();
  for (const pod of pods) {
    const node = pod.spec.nodeName;
    if (!node || isTerminal(pod)) continue;
    bound.add(node);
    const key = pod.metadata.labels?.[revisionLabel] ?? '';
    const sides = templates.get(key) ?? { crashingOn: new Set<string>(), healthyOn: new Set<string>() };
    templates.set(key, sides);
    if (podCrashes(pod)) sides.crashingOn.add(node);
    else if (pod.status?.phase === 'Running' && isReady(pod)) sides.healthyOn.add(node);
  }
  const crashingNodes = new Set<string>();
  for (const { crashingOn, healthyOn } of templates.values()) {
    const crashing = [...crashingOn].filter((n) => !healthyOn.has(n));
    const clean = [...healthyOn].filter((n) => !crashingOn.has(n));
    if (clean.length > 0) for (const n of crashing) crashingNodes.add(n);
  }
  if (crashingNodes.size === 0) return undefined;
  const crashing = [...crashingNodes].sort();
  const staying = [...bound].filter((n) => !crashingNodes.has(n)).sort();
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
