/**
 * Round 1 of a collection (collector.ts): the workload itself, its workloadRef resolved
 * (an Argo Rollout's); a 404 says whether the kind is not served (no CRD) or names the
 * workloads of the namespace whose names are close to the one asked for.
 */
import type { WorkloadObject, WorkloadRef } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, typeOfKind } from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { closestNames } from '../../text/closest-names.js';
import type { KubeClient } from '../client.js';
import { KubeApiError, WorkloadNotFoundError } from '../errors.js';
import { getObject, listObjects } from '../list.js';
import { kindServed, notServedSentence } from './kind-served.js';
import { resolveWorkloadRef } from './rollout-crd.js';

export async function readWorkload(client: KubeClient, ref: WorkloadRef): Promise<WorkloadObject> {
  const { resource } = WORKLOAD_NAMES[ref.kind];
  let object: WorkloadObject;
  try {
    object = await getObject<WorkloadObject>(client, { resource, namespace: ref.namespace, name: ref.name });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      // A cluster without the kind's CRD (Argo Rollouts) 404s every object: say that, not "not found".
      if ((await kindServed(client, WORKLOAD_NAMES[ref.kind])) === false) {
        const sentence = notServedSentence(WORKLOAD_NAMES[ref.kind]);
        throw new WorkloadNotFoundError(sentence, [ref.namespace], [], typeOfKind(ref.kind));
      }
      throw new WorkloadNotFoundError(
        `${typeOfKind(ref.kind)} "${ref.name}" not found in namespace "${ref.namespace}"`,
        [ref.namespace],
        await nearbyNames(client, ref),
        typeOfKind(ref.kind),
      );
    }
    throw error;
  }
  return resolveWorkloadRef(client, workloadKind(ref.kind), object);
}

/**
 * Workloads of the kind and namespace whose names are close to the one asked for (a
 * typo in a slash command). One list, a few hundred names at most; a refused or failed
 * list gives no suggestion rather than another error.
 */
async function nearbyNames(client: KubeClient, ref: WorkloadRef): Promise<string[]> {
  try {
    const list = await listObjects<WorkloadObject>(
      client,
      { resource: WORKLOAD_NAMES[ref.kind].resource, namespace: ref.namespace },
      { limit: 500, maxPages: 1 },
    );
    return closestNames(
      ref.name,
      list.items.map((d) => d.metadata.name ?? '').filter((n) => n !== ''),
    );
  } catch {
    return [];
  }
}
