/**
 * The node exclusions rollout-doctor set that are live in a cluster (issue 65.5): the
 * workloads whose metadata carries an exclusion record (src/remediation/exclusion-record.ts),
 * read with the list verb the scan already holds. Argo Rollouts are not listed here
 * (a CRD that may not be served); their exclusions still show in `scan`.
 */
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import type { WorkloadKind } from '../../remediation/kinds/kind.js';
import type { LiveExclusion } from '../../remediation/exclusion-removal.js';
import { readRecord } from '../../remediation/exclusion-record.js';
import type { KubeClient } from '../client.js';
import { listObjects } from '../list.js';

const LISTED: readonly WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet'];

/** One workload's exclusion as read, or undefined when it carries no record that parses. */
export function liveExclusionOf(kind: WorkloadKind, object: WorkloadObject): LiveExclusion | undefined {
  const record = readRecord(object.metadata.annotations);
  if (!record) return undefined;
  const template = (object.spec as { template?: { spec?: { affinity?: LiveExclusion['affinity'] } } })
    .template;
  return {
    target: { kind, namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' },
    uid: object.metadata.uid ?? '',
    generation: object.metadata.generation ?? 0,
    affinity: template?.spec?.affinity,
    annotations: object.metadata.annotations ?? {},
    record,
  };
}

/** The exclusions in `namespaces` (`['*']` or empty: every namespace). */
export async function listExclusions(
  client: KubeClient,
  namespaces: readonly string[],
): Promise<LiveExclusion[]> {
  const scopes = namespaces.length === 0 || namespaces.includes('*') ? [undefined] : namespaces;
  const found: LiveExclusion[] = [];
  for (const kind of LISTED) {
    for (const namespace of scopes) {
      const list = await listObjects<WorkloadObject>(
        client,
        { resource: WORKLOAD_NAMES[kind].resource, ...(namespace ? { namespace } : {}) },
        { limit: 500, maxPages: 20 },
      );
      for (const object of list.items) {
        const live = liveExclusionOf(kind, object);
        if (live) found.push(live);
      }
    }
  }
  return found;
}
