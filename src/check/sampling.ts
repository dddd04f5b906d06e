/**
 * When a sample of the nodes may stand for all of them. For a template whose pods ask
 * only for resources, ports, a node selection and tolerations, every node beyond the
 * sample can only add room: a rollout the forward model finishes on the sample (with
 * every pod on those nodes read) finishes with all of them. That is not so for topology
 * spread (a node more is a domain more, and can raise the skew), pod (anti-)affinity,
 * volumes and devices (attachment and claims follow other rules), a DaemonSet (one pod
 * per node: every node is part of the rollout), or a namespace with ResourceQuotas (the
 * model counts their use from the pods it holds). Pure.
 */
import type { Node, PodSpec } from '../diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { isEligible } from '../diagnosis/base/node-match.js';
import { workloadKind } from '../diagnosis/workloads/index.js';

/** Eligible nodes a sample holds besides the nodes the workload's pods run on. */
export const SAMPLE_NODES = 40;

export function sampleable(snapshot: WorkloadSnapshot, quotas: number | undefined): boolean {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  if (kind.strategy(object).per === 'node') return false;
  if (quotas === undefined || quotas > 0) return false;
  const spec: PodSpec = kind.podTemplate(object).spec;
  return (
    (spec.topologySpreadConstraints ?? []).length === 0 &&
    spec.affinity?.podAffinity === undefined &&
    spec.affinity?.podAntiAffinity === undefined &&
    (spec.resourceClaims ?? []).length === 0 &&
    !(spec.volumes ?? []).some((v) => v.persistentVolumeClaim !== undefined || 'ephemeral' in v) &&
    snapshot.nodes.length > SAMPLE_NODES
  );
}

/** The nodes the workload's pods run on, and the first SAMPLE_NODES other nodes its template may use. */
export function sampleNodes(snapshot: WorkloadSnapshot): Node[] {
  const kind = workloadKind(snapshot);
  const spec = kind.podTemplate(kind.object(snapshot)).spec;
  const used = new Set(snapshot.pods.map((p) => p.spec.nodeName).filter(Boolean));
  const ours = snapshot.nodes.filter((n) => used.has(n.metadata.name));
  const others = snapshot.nodes
    .filter((n) => !used.has(n.metadata.name) && isEligible(n, spec))
    .slice(0, SAMPLE_NODES);
  return [...ours, ...others];
}
