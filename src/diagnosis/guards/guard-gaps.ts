/**
 * The coverage gap a guard read leaves when it did not happen (forbidden, failed, capped,
 * a dump without it), in one wording for every path, and the line that names it in a
 * report: "PodDisruptionBudgets: not read (forbidden): grant list on
 * poddisruptionbudgets.policy in checkout". A guard not read is unknown, never "none".
 */
import type { Coverage, CoverageGap, GuardKind } from '../snapshot/types.js';
import { DIAGNOSIS_SENTENCES as S } from '../sentences.js';

interface GuardRead {
  /** What people call them: "PodDisruptionBudgets". */
  title: string;
  /** RBAC's resource.group, as a grant names it. */
  resource: string;
  /** kubectl's resource name for the dump recipe. */
  kubectl: string;
  verb: 'list' | 'get';
  clusterScoped: boolean;
}

const GUARD_READS: Readonly<Record<GuardKind, GuardRead>> = {
  podDisruptionBudgets: {
    title: 'PodDisruptionBudgets',
    resource: 'poddisruptionbudgets.policy',
    kubectl: 'poddisruptionbudgets',
    verb: 'list',
    clusterScoped: false,
  },
  horizontalPodAutoscalers: {
    title: 'HorizontalPodAutoscalers',
    resource: 'horizontalpodautoscalers.autoscaling',
    kubectl: 'horizontalpodautoscalers',
    verb: 'list',
    clusterScoped: false,
  },
  persistentVolumes: {
    title: 'PersistentVolumes',
    resource: 'persistentvolumes',
    kubectl: 'persistentvolumes',
    verb: 'get',
    clusterScoped: true,
  },
  storageClasses: {
    title: 'StorageClasses',
    resource: 'storageclasses.storage.k8s.io',
    kubectl: 'storageclasses',
    verb: 'list',
    clusterScoped: true,
  },
  analysisRuns: {
    title: 'AnalysisRuns',
    resource: 'analysisruns.argoproj.io',
    kubectl: 'analysisruns.argoproj.io',
    verb: 'list',
    clusterScoped: false,
  },
};

const GUARD_KINDS = new Set<string>(Object.keys(GUARD_READS));

function isGuardGap(gap: CoverageGap): gap is CoverageGap & { about: GuardKind } {
  return GUARD_KINDS.has(gap.about);
}

/**
 * The gap for one guard: `what` names the objects ("PodDisruptionBudgets in shop",
 * "PersistentVolumes of claims data-ledger-0, …"), `settle` the grant or the read.
 */
export function guardGap(
  about: GuardKind,
  namespace: string,
  reason: CoverageGap['reason'],
  what?: string,
): CoverageGap {
  const read = GUARD_READS[about];
  const where = read.clusterScoped ? '(cluster-wide)' : `in ${namespace}`;
  const grant = { verb: read.verb, resource: read.resource };
  const settle =
    reason === 'forbidden'
      ? read.clusterScoped
        ? S.grantClusterWide.en(grant)
        : S.grantIn.en({ ...grant, namespace })
      : reason === 'not-served'
        ? S.notInstalled.en({ resource: read.resource })
        : S.dumpRecipe.en({
            command: `kubectl get ${read.kubectl}${read.clusterScoped ? '' : ` -n ${namespace}`} -o yaml`,
          });
  return { about, what: what ?? `${read.title} ${where}`, reason, settle };
}

const REASON_WORDS: Record<CoverageGap['reason'], string> = {
  forbidden: S.forbidden.en(),
  capped: S.capped.en(),
  'not-in-dump': S.notInDump.en(),
  failed: S.readFailed.en(),
  'not-served': S.notServed.en(),
  'not-found': S.notFound.en(),
};

/** "PodDisruptionBudgets: not read (forbidden): grant list on poddisruptionbudgets.policy in shop". */
function guardGapLine(gap: CoverageGap & { about: GuardKind }): string {
  return S.guardUnread.en({
    title: GUARD_READS[gap.about].title,
    reason: REASON_WORDS[gap.reason],
    settle: gap.settle,
  });
}

/** Every guard the snapshot could not read, as report lines, each once. */
export function unreadGuardLines(coverage: Pick<Coverage, 'gaps'>): string[] {
  return [...new Set(coverage.gaps.filter(isGuardGap).map(guardGapLine))];
}
