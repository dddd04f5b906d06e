/**
 * The pods the new workloads of a change create, when several objects are applied at
 * once: each Deployment, StatefulSet or Argo Rollout the change creates makes
 * spec.replicas pods of its template, which wait for nodes and quota beside the pods of
 * every other object in the change. check judges each object with the others' new pods
 * as rivals (forward/rivals.ts), in both queue orders. A DaemonSet the change creates
 * makes one pod on every node it selects and tolerates: its template comes as one pod
 * marked `perNode`, which the forward model pins to each such node of the snapshot. An
 * object that exists already replaces its pods step by step: it is not counted here
 * (what it frees and takes across objects is not followed). A rival's priority is its
 * class's as the change or the cluster names it, 0 where not known.
 */
import type { Pod } from '../diagnosis/k8s.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import type { PriorityClass } from '../diagnosis/k8s-policy.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import type { CheckSource } from './source.js';

/** `perNode`: a DaemonSet's template, one pod on each node it selects (forward/rivals.ts pins them). */
export type ChangePod = { pod: Pod; owner: string; perNode?: true };

/** What of a checked object this needs (check.ts CheckItem). */
interface ChangeObject {
  kind: WorkloadKind;
  object: WorkloadObject;
  old?: WorkloadObject;
  isNew?: boolean;
  createdClasses?: readonly PriorityClass[];
}

/** Per item, the pods the other objects of the change create. */
export async function changePodsOf<T extends ChangeObject>(
  items: readonly T[],
  source: CheckSource,
  defaultNamespace: string,
): Promise<Map<T, ChangePod[]>> {
  const created = new Map<T, ChangePod[]>();
  if (items.length < 2) return created;
  for (const item of items) {
    if (item.old || item.isNew) continue;
    const namespace = item.object.metadata.namespace ?? defaultNamespace;
    const name = item.object.metadata.name ?? '';
    const live = await source.live(item.kind, namespace, name);
    // Not known to exist: it may create them all, so they count (a verdict is never kinder for it).
    if (live.object) continue;
    created.set(item, podsOf(item, namespace, name));
  }
  return new Map(
    items.map((item) => [item, [...created].flatMap(([other, pods]) => (other === item ? [] : pods))]),
  );
}

function podsOf(item: ChangeObject, namespace: string, name: string): ChangePod[] {
  const module = workloadKind(item.kind);
  const template = module.podTemplate(item.object);
  // A DaemonSet's one template pod, pinned to each node later (its replicas are its nodes).
  const replicas = module.pinnedToNodes ? 1 : module.desiredReplicas(item.object);
  const owner = `${typeOfKind(item.kind)}/${name}`;
  const className = template.spec.priorityClassName;
  const priority = className
    ? item.createdClasses?.find((c) => c.metadata.name === className)?.value
    : undefined;
  return Array.from({ length: replicas }, (_, i) => ({
    owner,
    ...(module.pinnedToNodes ? { perNode: true as const } : {}),
    pod: {
      metadata: {
        name: `${name}-<new>-${i}`,
        namespace,
        uid: `change/${namespace}/${name}/${i}`,
        labels: { ...template.metadata?.labels },
      },
      spec: { ...template.spec, ...(priority !== undefined ? { priority } : {}) },
      status: { phase: 'Pending' },
    },
  }));
}
