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
import { exclusionState, readRecord } from '../../remediation/exclusion-record.js';
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

/**
 * One live exclusion as `scan -o json` lists it (issue 65.5): the workload, what it
 * excludes (only rollout-doctor's values), its nodes, set-at and expires-at as recorded
 * (`never`: until removed), its state at `now` and the seconds since it was set and
 * until it ends (absent where a time does not read).
 */
export interface ScanExclusion {
  kind: WorkloadKind;
  namespace: string;
  name: string;
  values: Record<string, string[]>;
  nodes: string[];
  setAt: string;
  expiresAt: string;
  state: 'live' | 'expired' | 'until-removed' | 'unreadable';
  ageSeconds?: number;
  expiresInSeconds?: number;
}

export function scanExclusion(live: LiveExclusion, now: number): ScanExclusion {
  const state = exclusionState(live.record, now);
  const seconds = (ms: number): number => Math.floor(ms / 1000);
  return {
    kind: live.target.kind,
    namespace: live.target.namespace,
    name: live.target.name,
    values: live.record.values,
    nodes: live.record.nodes.map((n) => n.name),
    setAt: live.record.setAt,
    expiresAt: live.record.expiresAt,
    state: state.state,
    ...(state.setAt !== undefined ? { ageSeconds: seconds(now - state.setAt) } : {}),
    ...('expiresAt' in state ? { expiresInSeconds: seconds(state.expiresAt - now) } : {}),
  };
}
