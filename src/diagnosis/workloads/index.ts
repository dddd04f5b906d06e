/**
 * The workload kinds' modules, one per kind (workload-kind.ts says what a module
 * answers). Adding a kind: its folder (api.ts, its identity; index.ts, its module), its
 * identity's line in the registry (kinds.ts), from which every name, snapshot field, API
 * path, RBAC rule and discovery check follows, and its module's line here, which the
 * `Record<WorkloadKind, …>` type demands (docs/architecture.md, "Adding a workload kind").
 */
import type { PodTemplateSpec } from '../k8s.js';
import type { WorkloadObject, WorkloadObjects, WorkloadSnapshot } from '../snapshot/types.js';
import { WORKLOAD_KINDS, type WorkloadKind } from '../workload-ref.js';
import { daemonSetKind } from './daemonset/index.js';
import { deploymentKind } from './deployment/index.js';
import { rolloutKind } from './rollout/index.js';
import { statefulSetKind } from './statefulset/index.js';
import type { WorkloadKindModule } from '../workload-kind.js';

/** A snapshot, or the part of one that says its kind and holds its objects. */
type KindOf = Pick<WorkloadSnapshot, 'target'> & WorkloadObjects;

const MODULES: Readonly<Record<WorkloadKind, WorkloadKindModule>> = Object.freeze({
  Deployment: deploymentKind,
  DaemonSet: daemonSetKind,
  StatefulSet: statefulSetKind,
  Rollout: rolloutKind,
});

/** The module of a kind, or of the kind a snapshot (or any `{ target }`) is about. */
export function workloadKind(of: WorkloadKind | { target: { kind: WorkloadKind } }): WorkloadKindModule {
  return MODULES[typeof of === 'string' ? of : of.target.kind];
}

/**
 * The workload a pod belongs to, named from its owner reference and labels alone (no
 * read): the first kind whose module recognises the pod. The pod as a watch delivers it.
 */
export function workloadOfPod(pod: unknown): { kind: WorkloadKind; name: string } | undefined {
  for (const kind of WORKLOAD_KINDS) {
    const name = MODULES[kind].nameFromPod(pod);
    if (name !== undefined) return { kind, name };
  }
  return undefined;
}

/** The workload object of a snapshot, whatever its kind (its metadata is what every kind has). */
export function workloadObject(snapshot: KindOf): WorkloadObject {
  return workloadKind(snapshot).object(snapshot);
}

/** The pod template of a snapshot's workload. */
export function podTemplateOf(snapshot: KindOf): PodTemplateSpec {
  const kind = workloadKind(snapshot);
  return kind.podTemplate(kind.object(snapshot));
}

/** How a person takes an update back: the kind's own words (an Argo Rollout's abort), else `kubectl rollout undo`. */
export function rollBackCommand(kind: WorkloadKind, name: string, namespace: string): string {
  return (
    workloadKind(kind).words.rollBack?.(name, namespace) ??
    `kubectl rollout undo ${kind.toLowerCase()}/${name} -n ${namespace}`
  );
}

export type { Revision, Revisions, WorkloadKindModule } from '../workload-kind.js';
