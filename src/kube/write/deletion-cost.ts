/**
 * The pod-deletion-cost mark of a stepped scale-old-replicaset: set on the old pod a
 * step releases (so its ReplicaSet deletes that pod first among pods alike), and taken
 * off again, best effort, from every marked pod still there when the walk ends, so no
 * mark is left behind on a pod that stays. Both are uid-tested JSON patches of that
 * one annotation, under the field manager rollout-doctor (the admission policy lets
 * the worker change nothing else of a pod).
 */
import { DELETION_COST, FIRST_TO_GO } from '../../diagnosis/rollout/deletion-order.js';
import type { Pod } from '../../diagnosis/k8s.js';
import { escapeToken } from '../../remediation/json-pointer.js';
import { PATCH_CONTENT_TYPES } from '../../remediation/plan.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { OUR_FIELD_MANAGER as FIELD_MANAGER } from '../../diagnosis/ownership.js';

/** A pod we marked, with the value it carried before (restored on removal). */
export interface Mark {
  name: string;
  uid: string;
  previous?: string;
}

const KEY = escapeToken(DELETION_COST);

function patchPod(client: KubeClient, namespace: string, name: string, body: unknown): Promise<unknown> {
  return client.call({
    verb: 'patch',
    resource: 'pods',
    namespace,
    name,
    body,
    contentType: PATCH_CONTENT_TYPES.json,
    query: { fieldManager: FIELD_MANAGER },
  });
}

/** Marks the pod as the first of its tier its ReplicaSet deletes (uid-tested JSON patch). */
export async function markFirstToGo(client: KubeClient, namespace: string, pod: Pod): Promise<Mark> {
  const annotations = pod.metadata.annotations;
  const previous = annotations?.[DELETION_COST];
  await patchPod(client, namespace, pod.metadata.name ?? '', [
    { op: 'test', path: '/metadata/uid', value: pod.metadata.uid },
    annotations
      ? { op: 'add', path: `/metadata/annotations/${KEY}`, value: String(FIRST_TO_GO) }
      : { op: 'add', path: '/metadata/annotations', value: { [DELETION_COST]: String(FIRST_TO_GO) } },
  ]);
  return { name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', ...(previous ? { previous } : {}) };
}

/**
 * Takes our mark off again (the value the pod had before, or none), only while the pod
 * is the one we marked and still carries our value. True when no mark of ours is left:
 * removed, the pod gone or replaced, or the value changed by someone else since.
 */
export async function removeMark(client: KubeClient, namespace: string, mark: Mark): Promise<boolean> {
  try {
    await patchPod(client, namespace, mark.name, [
      { op: 'test', path: '/metadata/uid', value: mark.uid },
      { op: 'test', path: `/metadata/annotations/${KEY}`, value: String(FIRST_TO_GO) },
      mark.previous === undefined
        ? { op: 'remove', path: `/metadata/annotations/${KEY}` }
        : { op: 'replace', path: `/metadata/annotations/${KEY}`, value: mark.previous },
    ]);
    return true;
  } catch (error) {
    // 404: the pod is gone; 422: a failed test (another pod by that name, or not our value any more).
    return error instanceof KubeApiError && (error.status === 404 || error.status === 422);
  }
}
