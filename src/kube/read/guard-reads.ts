/**
 * What guards the workload (DESIGN.md §4d), read beside its pods in the
 * collector's second round: every PodDisruptionBudget of the namespace, the
 * HorizontalPodAutoscalers (those that target the workload are kept), the StorageClasses
 * (only when the workload mounts claims; those its claims name are kept) and an Argo
 * Rollout's AnalysisRuns. The PersistentVolumes follow the claims: a GET by each bound
 * claim's `spec.volumeName`, chained on the claim's own read, so they come back while the
 * third round's reads (nodes, neighbours, logs) are under way and add no round of their
 * own where that round reads anything (a PV has no field selector but its name,
 * pkg/registry/core/persistentvolume: `PersistentVolumeToSelectableFields`).
 *
 * Each read is optional: refused, failed or capped, its member stays absent and a
 * coverage gap says which read or grant settles it (guard-gaps.ts). Never "none".
 */
import type { AnalysisRun } from '../../diagnosis/k8s-argo.js';
import type { HorizontalPodAutoscaler, PodDisruptionBudget } from '../../diagnosis/k8s-policy.js';
import type { PersistentVolume, StorageClass } from '../../diagnosis/k8s-storage.js';
import type {
  CoverageGap,
  GuardKind,
  Guards,
  WorkloadObject,
  WorkloadSnapshot,
} from '../../diagnosis/snapshot/types.js';
import { neighbourAutoscalers } from '../../diagnosis/workloads/deployment/neighbours.js';
import type { WorkloadRef } from '../../diagnosis/workload-ref.js';
import { guardGap } from '../../diagnosis/guards/guard-gaps.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import {
  analysisRunsOf,
  autoscalersOf,
  classesOf,
  classNamesOf,
  claimTemplatesOf,
} from '../../diagnosis/guards/select-guards.js';
import type { ResourceName } from '../api-paths.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { getObjectIfExists, listObjects } from '../list.js';
import type { ClaimsRead } from './claim-reads.js';

type NeighbourAutoscalers = NonNullable<WorkloadSnapshot['neighbourAutoscalers']>;

/** Objects per guard list (one page): a namespace's budgets and autoscalers, the cluster's classes. */
const GUARD_PAGE = 200;
/** PersistentVolumes read by name per diagnosis; past this they are a capped gap. */
const MAX_VOLUMES = 20;

interface GuardList {
  about: GuardKind;
  resource: ResourceName;
  clusterScoped: boolean;
  /** A 404 means the cluster does not serve the kind (a CRD not installed): then none exist. */
  absentWhenNotServed?: boolean;
}

/** One optional list of the namespace (or the cluster): its items, or a gap and undefined. */
async function listGuard<T>(
  client: KubeClient,
  list: GuardList,
  namespace: string,
  gaps: CoverageGap[],
): Promise<T[] | undefined> {
  try {
    const result = await listObjects<T>(
      client,
      { resource: list.resource, ...(list.clusterScoped ? {} : { namespace }) },
      { limit: GUARD_PAGE, maxPages: 1 },
    );
    if (!result.truncated) return result.items;
    gaps.push(guardGap(list.about, namespace, 'capped'));
    return undefined;
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    if (error.status === 404 && list.absentWhenNotServed) return [];
    gaps.push(guardGap(list.about, namespace, error.isAccessDenied ? 'forbidden' : 'failed'));
    return undefined;
  }
}

const PDBS: GuardList = {
  about: 'podDisruptionBudgets',
  resource: 'poddisruptionbudgets',
  clusterScoped: false,
};
const HPAS: GuardList = {
  about: 'horizontalPodAutoscalers',
  resource: 'horizontalpodautoscalers',
  clusterScoped: false,
};
const CLASSES: GuardList = { about: 'storageClasses', resource: 'storageclasses', clusterScoped: true };
// Argo Rollouts installs the AnalysisRun CRD with the Rollout one; without it no run exists.
const RUNS: GuardList = {
  about: 'analysisRuns',
  resource: 'analysisruns',
  clusterScoped: false,
  absentWhenNotServed: true,
};

/**
 * Starts every guard read at once (round 2); the volumes wait for `claims`. Besides the
 * guards, the namespace's autoscalers of other Deployments (`neighbours`: whether a
 * neighbour scaling down may be raised back; undefined where the list was not read). Resolves
 * once all are in; never rejects on an API error (each becomes a gap, pushed in a fixed
 * order whatever order the answers come in).
 */
export async function readGuards(
  client: KubeClient,
  ref: WorkloadRef,
  object: WorkloadObject,
  mountsClaims: boolean,
  claims: Promise<ClaimsRead>,
  gaps: CoverageGap[],
): Promise<{ guards: Guards; neighbours?: NeighbourAutoscalers }> {
  const { namespace } = ref;
  const found: CoverageGap[][] = [[], [], [], [], []];
  const into = (i: number): CoverageGap[] => found[i] ?? [];
  const [pdbs, hpas, classes, runs, volumes] = await Promise.all([
    listGuard<PodDisruptionBudget>(client, PDBS, namespace, into(0)),
    listGuard<HorizontalPodAutoscaler>(client, HPAS, namespace, into(1)),
    mountsClaims ? listGuard<StorageClass>(client, CLASSES, namespace, into(2)) : Promise.resolve([]),
    workloadKind(ref.kind).analysisRuns
      ? listGuard<AnalysisRun>(client, RUNS, namespace, into(3))
      : Promise.resolve([]),
    mountsClaims ? claims.then((c) => readVolumes(client, namespace, c, into(4))) : Promise.resolve([]),
  ]);
  gaps.push(...found.flat());
  const read = await claims;
  const templates = claimTemplatesOf(object);
  const guards: Guards = {
    ...(pdbs ? { podDisruptionBudgets: pdbs } : {}),
    ...(hpas ? { horizontalPodAutoscalers: autoscalersOf(ref, hpas) } : {}),
    ...(volumes ? { persistentVolumes: volumes } : {}),
    ...(classes ? { storageClasses: classesOf(classes, classNamesOf(read.claims, templates.classes)) } : {}),
    ...(runs ? { analysisRuns: analysisRunsOf(object, runs, ref.kind) } : {}),
  };
  return { guards, ...(hpas ? { neighbours: neighbourAutoscalers(hpas, namespace) } : {}) };
}

/**
 * The PVs of the bound claims, by name, at most MAX_VOLUMES. A claim not read leaves its
 * volume unknown (a gap naming it); a claim not bound yet has no volume (WaitForFirstConsumer
 * binds at scheduling: the StorageClass says so); a PV that 404s is gone (the claim is Lost).
 */
async function readVolumes(
  client: KubeClient,
  namespace: string,
  read: ClaimsRead,
  gaps: CoverageGap[],
): Promise<PersistentVolume[] | undefined> {
  const names = [
    ...new Set(read.claims.flatMap((c) => (c.spec.volumeName ? [c.spec.volumeName] : []))),
  ].sort();
  const asked = names.slice(0, MAX_VOLUMES);
  type Outcome = { pv: PersistentVolume | undefined } | { name: string; reason: 'forbidden' | 'failed' };
  const results = await Promise.all(
    asked.map(async (name): Promise<Outcome> => {
      try {
        return {
          pv: await getObjectIfExists<PersistentVolume>(client, { resource: 'persistentvolumes', name }),
        };
      } catch (error) {
        if (!(error instanceof KubeApiError)) throw error;
        return { name, reason: error.isAccessDenied ? 'forbidden' : 'failed' };
      }
    }),
  );
  const failed = results.flatMap((r) => ('reason' in r ? [r] : []));
  const first = failed[0];
  if (first) {
    const list = failed.map((f) => f.name);
    gaps.push(guardGap('persistentVolumes', namespace, first.reason, `PersistentVolumes ${shortList(list)}`));
  }
  if (names.length > asked.length) {
    const rest = names.slice(asked.length);
    gaps.push(
      guardGap(
        'persistentVolumes',
        namespace,
        'capped',
        `PersistentVolumes past the first ${MAX_VOLUMES} (${shortList(rest)})`,
      ),
    );
  }
  if (read.unread.length > 0) {
    gaps.push(
      guardGap(
        'persistentVolumes',
        namespace,
        'failed',
        `PersistentVolumes of claims ${shortList(read.unread)} (the claims were not read)`,
      ),
    );
  }
  if (first || names.length > asked.length || read.unread.length > 0) return undefined;
  return results.flatMap((r) => ('pv' in r && r.pv ? [r.pv] : []));
}

function shortList(names: readonly string[]): string {
  return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
}
