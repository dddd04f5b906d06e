/**
 * `check --from-file DUMP`: the cluster as a dump holds it. The candidate takes the
 * live object's place among the dump's objects and the snapshot is assembled exactly
 * as `diagnose --from-file` assembles one, so what the dump lacks is a coverage gap
 * there as here. An object the dump does not hold is new only where the dump lists its
 * kind in its namespace.
 */
import type { KubeObject, Pod } from '../diagnosis/k8s.js';
import type { LimitRange } from '../diagnosis/k8s-policy.js';
import { assembleSnapshot, newestTimestamp } from '../diagnosis/snapshot/dump/assemble.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { withAllOccupants, type CheckSource } from './source.js';
import { growthOf, AUTOSCALER_STATUS } from './growth/read.js';
import type { NodePool } from './growth/node-groups.js';
import type { Node } from '../diagnosis/k8s.js';

export function dumpSource(objects: readonly KubeObject[]): CheckSource {
  const capturedAt = newestTimestamp([...objects]);
  const pods = objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  const same = (o: KubeObject, kind: WorkloadKind, namespace: string, name: string): boolean =>
    o.kind === kind && o.metadata?.name === name && (o.metadata.namespace ?? namespace) === namespace;
  return {
    growth() {
      const status = objects.find(
        (o) =>
          o.kind === 'ConfigMap' &&
          o.metadata?.namespace === AUTOSCALER_STATUS.namespace &&
          o.metadata.name === AUTOSCALER_STATUS.name,
      );
      const pools = objects.filter(
        (o) => o.kind === 'NodePool' && String(o.apiVersion ?? '').startsWith('karpenter.sh/'),
      ) as unknown as NodePool[];
      const nodes = objects.filter((o) => o.kind === 'Node') as unknown as Node[];
      return Promise.resolve(growthOf(status, pools, nodes));
    },
    live(kind, namespace, name) {
      const found = objects.find((o) => same(o, kind, namespace, name));
      if (found) return Promise.resolve({ object: found as unknown as WorkloadObject });
      // Absent from a list the dump holds (another of its kind there): the manifest
      // creates it. A dump with none of that kind in that namespace did not list them:
      // whether it exists is not known (a dump without Rollouts, of another namespace).
      const listed = objects.some(
        (o) => o.kind === kind && (o.metadata?.namespace ?? namespace) === namespace,
      );
      if (listed) return Promise.resolve({});
      const { resource } = WORKLOAD_NAMES[kind];
      return Promise.resolve({
        unknown: `the dump holds no ${kind} of namespace ${namespace}, so whether ${name} exists is not known (kubectl get ${resource} -n ${namespace} -o yaml)`,
      });
    },
    snapshot(kind, candidate) {
      const namespace = candidate.metadata.namespace ?? 'default';
      const name = candidate.metadata.name ?? '';
      const rest = objects.filter((o) => !same(o, kind, namespace, name));
      const snapshot = assembleSnapshot(
        { kind, namespace, name },
        [...rest, candidate as unknown as KubeObject],
        {
          capturedAt,
        },
      );
      // LimitRanges count as read when the dump holds any (as ResourceQuotas do: assemble.ts).
      const ranges = objects.some((o) => o.kind === 'LimitRange')
        ? (objects.filter(
            (o) => o.kind === 'LimitRange' && (o.metadata?.namespace ?? namespace) === namespace,
          ) as unknown as LimitRange[])
        : undefined;
      return Promise.resolve({
        snapshot: { ...withAllOccupants(snapshot, pods), ...(ranges ? { limitRanges: ranges } : {}) },
        sampled: false,
      });
    },
  };
}
