/**
 * Which objects of a dump a diagnosis of one workload can use, decided as each
 * object is read so that other namespaces' ReplicaSets, events and config never pile
 * up in memory: cluster-scoped objects (nodes, device classes and slices), everything
 * in the target namespace, and the few namespaced kinds whose objects elsewhere
 * matter. The GitOps owner's settings (an Argo CD Application, a Flux Kustomization
 * or HelmRelease) live in their own namespaces. Pods of every namespace hold node resources (neighbours), and a dump that
 * holds them is what tells the assembler that other workloads were read; resource
 * claims of any namespace can hold devices; workloads elsewhere name the namespace
 * a mistyped command meant. An object without a namespace is kept: a hand-written
 * dump may omit it.
 */
import type { KubeObject } from '../k8s.js';
import { WORKLOAD_KINDS, type WorkloadRef } from '../workload-ref.js';

const EVERY_NAMESPACE = new Set<string>([
  'Pod',
  'ResourceClaim',
  // Workloads of every kind elsewhere: the namespace a mistyped command meant.
  ...WORKLOAD_KINDS,
  'Application',
  'Kustomization',
  'HelmRelease',
]);

/** The keep-filter for loadObjects when diagnosing `ref`. */
export function relevantTo(ref: Pick<WorkloadRef, 'namespace'>): (object: KubeObject) => boolean {
  return (object) => {
    const namespace = object.metadata?.namespace;
    return namespace === undefined || namespace === ref.namespace || EVERY_NAMESPACE.has(object.kind ?? '');
  };
}
