/**
 * Which nodes a DaemonSet wants and how its pods are pinned to them, as
 * pkg/controller/daemon does it: NodeShouldRunDaemonPod (daemon_controller.go: the
 * template's nodeSelector and required node affinity, then NoSchedule/NoExecute taints
 * against the template's tolerations plus the ones the controller adds), and
 * daemon/util/daemonset_util.go (AddOrUpdateDaemonPodTolerations,
 * ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName, IsPodUpdated).
 */
import type { Affinity, Node, Pod, PodSpec, Taint, Toleration } from '../../src/diagnosis/k8s.js';
import { matchesNodeAffinity, tolerates } from './scheduler-filters.js';
import type { DaemonSet } from './workload-types.js';

/** The tolerations every DaemonSet pod gets; network-unavailable only with hostNetwork. */
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK_UNAVAILABLE: Toleration = {
  key: 'node.kubernetes.io/network-unavailable',
  operator: 'Exists',
  effect: 'NoSchedule',
};

/**
 * AddOrUpdateTolerationInPodSpec for each daemon toleration: one that matches an
 * existing toleration's key, operator, value and effect replaces it, else it is appended.
 */
export function withDaemonTolerations(spec: PodSpec): Toleration[] {
  const out = [...(spec.tolerations ?? [])];
  const wanted = spec.hostNetwork ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE] : DAEMON_TOLERATIONS;
  for (const t of wanted) {
    const same = (o: Toleration): boolean =>
      (o.key ?? '') === t.key &&
      (o.effect ?? '') === t.effect &&
      (o.operator ?? 'Equal') === t.operator &&
      (o.value ?? '') === '';
    const i = out.findIndex(same);
    if (i < 0) out.push({ ...t });
    else if (JSON.stringify(out[i]) !== JSON.stringify(t)) out[i] = { ...t };
  }
  return out;
}

export interface ShouldRun {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

/**
 * NodeShouldRunDaemonPod: the node must match the template's nodeName, nodeSelector and
 * required node affinity; an untolerated NoSchedule taint stops new pods, and only an
 * untolerated NoExecute taint also removes running ones.
 */
export function nodeShouldRunDaemonPod(
  node: Node,
  ds: DaemonSet,
  tolerations: readonly Toleration[],
): ShouldRun {
  const spec = ds.spec.template.spec;
  const none = { shouldRun: false, shouldContinueRunning: false };
  if (spec.nodeName && spec.nodeName !== node.metadata.name) return none;
  const probe = { metadata: {}, spec } as unknown as Pod;
  if (!matchesNodeAffinity(probe, node)) return none;
  const untolerated = (effects: readonly string[]): boolean =>
    (node.spec?.taints ?? []).some(
      (t: Taint) => effects.includes(t.effect ?? '') && !tolerates(tolerations, t),
    );
  if (!untolerated(['NoSchedule', 'NoExecute'])) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated(['NoExecute']) };
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes the one
 * term `matchFields metadata.name In [node]` (the controller already checked the
 * template's own terms against the node); preferred terms and other affinities stay.
 */
export function pinToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  const copy = structuredClone(affinity ?? {});
  copy.nodeAffinity = {
    ...(copy.nodeAffinity ?? {}),
    requiredDuringSchedulingIgnoredDuringExecution: required,
  };
  return copy;
}

/** GetTargetNodeName: spec.nodeName, or for a pod not yet bound the node its matchFields term names. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const term of terms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** IsPodUpdated: the pod carries the current hash, or the template generation of the DaemonSet. */
export function isPodUpdated(pod: Pod, hash: string, templateGeneration: string | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  const generationMatches =
    templateGeneration !== undefined && labels['pod-template-generation'] === templateGeneration;
  return (hash !== '' && labels['controller-revision-hash'] === hash) || generationMatches;
}
