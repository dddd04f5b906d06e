/**
 * What guards the workload, from a dump (the live twin is src/kube/read/guard-reads.ts).
 * A kind the dump holds at least one object of counts as dumped, as ResourceQuotas do;
 * a kind it holds none of says nothing (`kubectl get` of a namespace without budgets
 * prints no PodDisruptionBudget either, and a dump cannot tell the two apart), so its
 * member stays absent with a 'not-in-dump' gap: unknown, never "no budget". Volumes and
 * classes only matter when the pods mount claims; AnalysisRuns only for a Rollout.
 */
import type { AnalysisRun } from '../../k8s-argo.js';
import type { HorizontalPodAutoscaler, PodDisruptionBudget } from '../../k8s-policy.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../k8s-storage.js';
import type { PodSpec } from '../../k8s.js';
import type { CoverageGap, Guards, WorkloadObject, WorkloadRef } from '../types.js';
import { guardGap } from '../../guards/guard-gaps.js';
import { workloadKind } from '../../workloads/index.js';
import {
  analysisRunsOf,
  autoscalersOf,
  claimTemplatesOf,
  classesOf,
  classNamesOf,
  mountsClaims,
  volumesOfClaims,
} from '../../guards/select-guards.js';

/** The dump's objects of one kind; undefined when it holds none of that kind. */
type DumpedKind = <T>(kind: string) => T[] | undefined;

export function guardsInDump(
  ref: WorkloadRef,
  object: WorkloadObject,
  template: PodSpec,
  claims: { read: readonly PersistentVolumeClaim[]; whole: boolean },
  dumped: DumpedKind,
): { guards: Guards; gaps: CoverageGap[] } {
  const { namespace } = ref;
  const gaps: CoverageGap[] = [];
  const missing = (about: keyof Guards, what?: string): undefined => {
    gaps.push(guardGap(about, namespace, 'not-in-dump', what));
    return undefined;
  };
  const here = <T extends { metadata: { namespace?: string } }>(items: T[]): T[] =>
    items.filter((o) => (o.metadata.namespace ?? namespace) === namespace);

  const pdbs = dumped<PodDisruptionBudget>('PodDisruptionBudget');
  const hpas = dumped<HorizontalPodAutoscaler>('HorizontalPodAutoscaler');
  const guards: Guards = {
    ...optional('podDisruptionBudgets', pdbs ? here(pdbs) : missing('podDisruptionBudgets')),
    ...optional(
      'horizontalPodAutoscalers',
      hpas ? autoscalersOf(ref, hpas) : missing('horizontalPodAutoscalers'),
    ),
    ...optional(
      'analysisRuns',
      workloadKind(ref.kind).analysisRuns ? rollouts(object, ref.kind, dumped, missing) : [],
    ),
  };
  if (!mountsClaims(template, object)) {
    return { guards: { ...guards, persistentVolumes: [], storageClasses: [] }, gaps };
  }
  const volumes = volumesIn(claims, dumped, missing);
  const classes = classesIn(object, claims, dumped, missing);
  return {
    guards: {
      ...guards,
      ...optional('persistentVolumes', volumes),
      ...optional('storageClasses', classes),
    },
    gaps,
  };
}

function optional<K extends keyof Guards>(key: K, value: Guards[K] | undefined): Partial<Guards> {
  return value === undefined ? {} : { [key]: value };
}

function rollouts(
  object: WorkloadObject,
  kind: WorkloadRef['kind'],
  dumped: DumpedKind,
  missing: (about: keyof Guards) => undefined,
): AnalysisRun[] | undefined {
  const runs = dumped<AnalysisRun>('AnalysisRun');
  return runs ? analysisRunsOf(object, runs, kind) : missing('analysisRuns');
}

/** Every bound claim's volume in the dump, or unknown: one claim's volume missing makes them all so. */
function volumesIn(
  claims: { read: readonly PersistentVolumeClaim[]; whole: boolean },
  dumped: DumpedKind,
  missing: (about: keyof Guards, what?: string) => undefined,
): PersistentVolume[] | undefined {
  if (!claims.whole) return missing('persistentVolumes', 'PersistentVolumes of claims not in the dump');
  const bound = claims.read.flatMap((c) => (c.spec.volumeName ? [c.spec.volumeName] : []));
  if (bound.length === 0) return [];
  const all = dumped<PersistentVolume>('PersistentVolume');
  if (!all) return missing('persistentVolumes');
  const found = volumesOfClaims(claims.read, all);
  const held = new Set(found.map((pv) => pv.metadata.name ?? ''));
  const absent = bound.filter((n) => !held.has(n));
  if (absent.length > 0) {
    return missing(
      'persistentVolumes',
      `PersistentVolumes ${absent.slice(0, 3).join(', ')}${absent.length > 3 ? ', …' : ''}`,
    );
  }
  return found;
}

function classesIn(
  object: WorkloadObject,
  claims: { read: readonly PersistentVolumeClaim[]; whole: boolean },
  dumped: DumpedKind,
  missing: (about: keyof Guards, what?: string) => undefined,
): StorageClass[] | undefined {
  if (!claims.whole) return missing('storageClasses', 'StorageClasses of claims not in the dump');
  const all = dumped<StorageClass>('StorageClass');
  if (!all) return missing('storageClasses');
  const wanted = classNamesOf(claims.read, claimTemplatesOf(object).classes);
  const found = classesOf(all, wanted);
  const held = new Set(found.map((c) => c.metadata.name ?? ''));
  const absent = [...wanted.names].filter((n) => !held.has(n));
  return absent.length > 0
    ? missing('storageClasses', `StorageClasses ${absent.slice(0, 3).join(', ')}`)
    : found;
}
