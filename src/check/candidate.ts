/**
 * The workload as it will be once the manifest is applied: the manifest's spec (its
 * template and strategy; its replicas, else the live count, as an HPA-managed manifest
 * leaves them out) over the live object's identity and status. Its generation is one
 * past the one the controller observed and it carries no revision marker, so every
 * revision read counts as old and the kind modules take the manifest's template for
 * the new pods. Pure.
 */
import type { PodSpec, Toleration } from '../diagnosis/k8s.js';
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { isTerminating } from '../diagnosis/base/pods.js';
import { sameToleration } from '../diagnosis/base/node-match.js';

/** Annotations that say which revision is current: the candidate's revision is not made yet. */
const REVISION_MARKERS = ['deployment.kubernetes.io/revision', 'rollout.argoproj.io/revision'];

export function candidateObject(
  kind: WorkloadKind,
  manifest: WorkloadObject,
  live: WorkloadObject | undefined,
  namespace: string,
): WorkloadObject {
  const manifestSpec = manifest.spec as unknown as Record<string, unknown>;
  const liveSpec = (live?.spec ?? {}) as unknown as Record<string, unknown>;
  const replicas = manifestSpec['replicas'] ?? liveSpec['replicas'];
  const annotations = { ...live?.metadata.annotations, ...manifest.metadata.annotations };
  for (const marker of REVISION_MARKERS) delete annotations[marker];
  const generation = (live?.metadata.generation ?? 0) + 1;
  const status = live ? withoutRevisions(kind, live.status) : undefined;
  return {
    ...(live ?? {}),
    apiVersion: manifest.apiVersion ?? `${WORKLOAD_NAMES[kind].group}/${WORKLOAD_NAMES[kind].version}`,
    kind,
    metadata: {
      ...live?.metadata,
      ...manifest.metadata,
      namespace,
      generation,
      annotations,
      ...(live?.metadata.uid ? { uid: live.metadata.uid } : {}),
    },
    spec: { ...manifestSpec, ...(replicas !== undefined ? { replicas } : {}) },
    ...(status ? { status } : {}),
  } as WorkloadObject;
}

/**
 * The live status as the candidate carries it: the kind's module says what names a
 * revision not made yet (candidateStatus: a StatefulSet's update revision, an Argo
 * Rollout's pod hash and step).
 */
function withoutRevisions(kind: WorkloadKind, status: unknown): unknown {
  if (typeof status !== 'object' || status === null) return status;
  const { updateRevision: _next, ...rest } = status as Record<string, unknown>;
  const module = workloadKind(kind);
  return module.candidateStatus ? module.candidateStatus(status as Record<string, unknown>) : rest;
}

/**
 * Tolerations admission added to the live pods (GKE's ExtendedResourceToleration, a
 * policy engine: DESIGN.md §4) that the live template lacks: the new pods will get them
 * too, so the candidate's template carries them for placement. Except the one
 * ExtendedResourceToleration adds for an extended resource the live pod asks for
 * (plugin/pkg/admission/extendedresourcetoleration: a toleration keyed by each extended
 * resource the containers request): a new template that no longer asks for it gets none.
 */
export function withAdmissionTolerations(
  snapshot: WorkloadSnapshot,
  liveTemplate: PodSpec | undefined,
): WorkloadSnapshot {
  if (!liveTemplate) return snapshot;
  const pod = snapshot.pods.find((p) => !isTerminating(p));
  if (!pod) return snapshot;
  const known = (list: readonly Toleration[] | undefined, t: Toleration): boolean =>
    (list ?? []).some((o) => sameToleration(o, t));
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const template = kind.podTemplate(object);
  const asked = extendedResources(pod.spec);
  const stillAsked = extendedResources(template.spec);
  const added = (pod.spec.tolerations ?? []).filter(
    (t) =>
      !known(liveTemplate.tolerations, t) &&
      !t.key?.startsWith('node.kubernetes.io/') &&
      !(t.key !== undefined && asked.has(t.key) && !stillAsked.has(t.key)),
  );
  if (added.length === 0) return snapshot;
  const tolerations = [...(template.spec.tolerations ?? [])];
  for (const t of added) if (!known(tolerations, t)) tolerations.push(t);
  const patched = {
    ...object,
    spec: { ...object.spec, template: { ...template, spec: { ...template.spec, tolerations } } },
  } as WorkloadObject;
  return withObject(snapshot, patched);
}

/** The snapshot's workload object replaced (the kind's own field: deployment, daemonSet, …). */
export function withObject(snapshot: WorkloadSnapshot, object: WorkloadObject): WorkloadSnapshot {
  const field = WORKLOAD_NAMES[snapshot.target.kind].snapshot.object;
  return { ...snapshot, [field]: object } as WorkloadSnapshot;
}

/**
 * The extended resources a pod's containers ask for (requests or limits): names outside
 * the kubernetes.io namespace, with a domain, not quota's `requests.` form (v1helper
 * IsExtendedResourceName).
 */
function extendedResources(spec: PodSpec): Set<string> {
  const names = new Set<string>();
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])])
    for (const name of [
      ...Object.keys(c.resources?.requests ?? {}),
      ...Object.keys(c.resources?.limits ?? {}),
    ])
      if (name.includes('/') && !name.startsWith('requests.') && !/(^|\.)kubernetes\.io\//.test(name))
        names.add(name);
  return names;
}
