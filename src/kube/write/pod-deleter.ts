/**
 * delete-pods plans: each pod deleted with a uid precondition, so a pod re-created
 * under the same name since diagnosis is left alone. Dry run first, like patches.
 */
import type { ObjectMeta } from '../../diagnosis/k8s.js';
import type { WorkloadObject as Deployment } from '../../diagnosis/snapshot/types.js';
import type { DeletePodsPlan, TaintDevicePlan } from '../../remediation/plan.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import type { ApplyResult, DryRunResult } from './apply-result.js';
import type { FieldChange } from './patch-effect.js';
import { getObject } from '../list.js';

type Outcome = 'deleted' | 'gone' | 'replaced';

async function deleteOne(
  client: KubeClient,
  namespace: string,
  pod: { name: string; uid: string },
  dryRun: boolean,
): Promise<Outcome> {
  try {
    await client.call({
      verb: 'delete',
      resource: 'pods',
      namespace,
      name: pod.name,
      body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.uid } },
      query: dryRun ? { dryRun: 'All' } : {},
    });
    return 'deleted';
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return 'gone';
    // 409: uid precondition failed, the name now belongs to a new pod.
    if (error instanceof KubeApiError && error.status === 409) return 'replaced';
    throw error;
  }
}

const controllerOf = (meta: ObjectMeta): { kind: string; name: string; uid?: string } | undefined =>
  meta.ownerReferences?.find((ref) => ref.controller === true);

/**
 * Why a pod of the plan may not be deleted, or null when every pod that still exists
 * is controlled by a ReplicaSet that the target Deployment controls, or by the target
 * StatefulSet itself (a DaemonSet's pods are never deleted: its replacement is made for
 * the same node, and no plan offers it). The pod list is
 * data read back from storage, so the owner chain is read live rather than trusted.
 */
export async function foreignPod(
  client: KubeClient,
  namespace: string,
  pods: readonly { name: string; uid: string }[],
  live: Deployment,
): Promise<string | null> {
  const deploymentUid = live.metadata.uid;
  const replicaSets = new Map<string, Promise<boolean>>();
  const ownedSet = (name: string): Promise<boolean> => {
    let owned = replicaSets.get(name);
    if (!owned) {
      owned = getObject<{ metadata: ObjectMeta }>(client, { resource: 'replicasets', namespace, name }).then(
        (rs) => {
          const owner = controllerOf(rs.metadata);
          return owner?.kind === 'Deployment' && deploymentUid !== undefined && owner.uid === deploymentUid;
        },
        (error: unknown) => {
          if (error instanceof KubeApiError && error.status === 404) return false;
          throw error;
        },
      );
      replicaSets.set(name, owned);
    }
    return owned;
  };
  for (const pod of pods) {
    let meta: ObjectMeta;
    try {
      meta = (
        await getObject<{ metadata: ObjectMeta }>(client, { resource: 'pods', namespace, name: pod.name })
      ).metadata;
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) continue; // gone: nothing to delete
      throw error;
    }
    if (meta.uid !== pod.uid) continue; // a new pod under that name: the uid precondition skips it
    const owner = controllerOf(meta);
    // A StatefulSet controls its pods itself; a Deployment through its ReplicaSets.
    const direct =
      owner?.kind === 'StatefulSet' && deploymentUid !== undefined && owner.uid === deploymentUid;
    if (!direct && (owner?.kind !== 'ReplicaSet' || !(await ownedSet(owner.name)))) {
      return `pod ${pod.name} is not controlled by ${live.metadata.name ?? '?'} (its ReplicaSet, or the StatefulSet itself)`;
    }
  }
  return null;
}

/** What deleting the plan's pods would do (no server call: a delete's dry run is done at apply). */
export function dryRunDeletePods(plan: DeletePodsPlan): DryRunResult {
  return {
    ok: true,
    changes: plan.pods.map((p) => ({ path: `pods/${p.name}`, before: 'present', after: 'deleted' })),
  };
}

/** Deletes the plan's pods, each by uid, after checking they are this Deployment's (dry run first). */
export async function deletePods(
  client: KubeClient,
  plan: DeletePodsPlan | TaintDevicePlan,
  live: Deployment,
): Promise<ApplyResult> {
  const namespace = plan.target.namespace;
  const pods = plan.pods ?? [];
  try {
    const foreign = await foreignPod(client, namespace, pods, live);
    if (foreign) return { status: 'refused', reason: foreign, tampered: true };
    const dry = await Promise.all(pods.map((p) => deleteOne(client, namespace, p, true)));
    if (dry.every((o) => o !== 'deleted')) {
      return {
        status: 'already-applied',
        reason: 'none of the pods from the diagnosis exist any more',
        generation: live.metadata.generation ?? 0,
        changes: pods.map((p) => ({ path: `pods/${p.name}`, before: undefined, after: 'gone' })),
      };
    }
    const changes: FieldChange[] = [];
    const outcomes = await Promise.all(
      pods.map((p, i) =>
        dry[i] === 'deleted' ? deleteOne(client, namespace, p, false) : Promise.resolve(dry[i] ?? 'gone'),
      ),
    );
    pods.forEach((p, i) => {
      const outcome = outcomes[i];
      changes.push({
        path: `pods/${p.name}`,
        before: 'present',
        after: outcome === 'deleted' ? 'deleted' : `skipped (${outcome})`,
      });
    });
    return {
      status: 'applied',
      changes,
      generation: live.metadata.generation ?? 0,
      resourceVersion: live.metadata.resourceVersion ?? '',
    };
  } catch (error) {
    const retryable =
      error instanceof KubeApiError && (error.status === 0 || error.status === 429 || error.status >= 500);
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error), retryable };
  }
}
