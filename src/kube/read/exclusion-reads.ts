/**
 * The node exclusions rollout-doctor set that are live in a cluster: the
 * workloads whose metadata carries an exclusion record (src/remediation/exclusion-record.ts),
 * read with the list verb the scan already holds: Deployments, StatefulSets, DaemonSets,
 * and Argo Rollouts where the cluster serves their CRD (a 404 on the list: no Rollouts;
 * a 403: not read, said in `unread`, never taken for none).
 *
 * A Rollout with `spec.workloadRef` has no pod template of its own (the referenced
 * Deployment's is used): exclude-node is never offered on it (builders/exclude-node.ts
 * says "exclude the node there"), and an exclusion on that Deployment is listed as the
 * Deployment's. A record found on such a Rollout is not swept (its removal could not
 * reach the affinity): it is in `unread` with why.
 */
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { WorkloadKind } from '../../remediation/kinds/kind.js';
import type { LiveExclusion } from '../../remediation/exclusion-removal.js';
import { exclusionState, readRecord } from '../../remediation/exclusion-record.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { listObjects } from '../list.js';

const LISTED: readonly WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'Rollout'];

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

/** What was not read (a kind the worker may not list, in a namespace or all) or not swept (a workloadRef Rollout's record). */
export interface UnreadExclusions {
  kind: WorkloadKind;
  /** Absent: every namespace. */
  namespace?: string;
  /** Present for one workload left out. */
  name?: string;
  status?: number;
  reason: string;
}

/** The exclusions read, and what could not be (never an empty list in place of a refusal). */
export interface ExclusionListing {
  exclusions: LiveExclusion[];
  unread: UnreadExclusions[];
}

/**
 * One kind's list in one scope: its objects; `'not-served'` for a CRD kind whose list
 * answers 404 (no such resource here: nothing to sweep); an UnreadExclusions for a 401/403
 * on a CRD kind. Anything else throws (the sweep fails and the next one tries again).
 */
async function listKind(
  client: KubeClient,
  kind: WorkloadKind,
  namespace: string | undefined,
): Promise<WorkloadObject[] | 'not-served' | UnreadExclusions> {
  const api = WORKLOAD_NAMES[kind];
  try {
    const list = await listObjects<WorkloadObject>(
      client,
      { resource: api.resource, ...(namespace ? { namespace } : {}) },
      { limit: 500, maxPages: 20 },
    );
    return list.items;
  } catch (error) {
    if (!api.crd || !(error instanceof KubeApiError)) throw error;
    if (error.status === 404) return 'not-served';
    if (!error.isAccessDenied) throw error;
    return {
      kind,
      ...(namespace ? { namespace } : {}),
      status: error.status,
      reason: `the worker may not list ${api.resource}.${api.group}${namespace ? ` in ${namespace}` : ''} (${error.status}): their exclusions were not read`,
    };
  }
}

/** The record on a workload that takes its template from another object: not swept, said. */
function notSwept(kind: WorkloadKind, object: WorkloadObject): UnreadExclusions | undefined {
  const ref = workloadKind(kind).templateRef?.named(object);
  if (!ref) return undefined;
  return {
    kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
    reason: `it takes its pod template from ${ref.kind ?? 'another object'} ${ref.name ?? ''} (workloadRef), so its record's exclusion is not in it: not removed (an exclusion on that Deployment is swept as the Deployment's)`,
  };
}

/** The exclusions in `namespaces` (`['*']` or empty: every namespace), and what was not read. */
export async function listExclusions(
  client: KubeClient,
  namespaces: readonly string[],
): Promise<ExclusionListing> {
  const scopes = namespaces.length === 0 || namespaces.includes('*') ? [undefined] : namespaces;
  const listing: ExclusionListing = { exclusions: [], unread: [] };
  for (const kind of LISTED) {
    for (const namespace of scopes) {
      const items = await listKind(client, kind, namespace);
      // Not served: no Rollouts anywhere, so no other namespace is asked.
      if (items === 'not-served') break;
      if (!Array.isArray(items)) {
        listing.unread.push(items);
        continue;
      }
      for (const object of items) {
        const live = liveExclusionOf(kind, object);
        if (!live) continue;
        const skipped = notSwept(kind, object);
        if (skipped) listing.unread.push(skipped);
        else listing.exclusions.push(live);
      }
    }
  }
  return listing;
}

/**
 * One live exclusion as `scan -o json` lists it: the workload, what it
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
