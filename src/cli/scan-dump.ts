/**
 * `scan --from-file`: the same verdicts as a live scan, from a saved dump. Every
 * workload of the scope that a live scan would diagnose (isInteresting: its rollout
 * is unfinished, or its template asks for something scarce) is assembled from the
 * dump, exactly as `diagnose --from-file` assembles it, and analysed; findings only,
 * no plans. What the dump lacks is IncompleteEvidence there as in diagnose.
 */
import { assembleSnapshot, newestTimestamp } from '../diagnosis/snapshot/dump/assemble.js';
import type { KubeObject } from '../diagnosis/k8s.js';
import { analyze } from '../diagnosis/analyzers/analyze.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import { kindsPhrase, WORKLOAD_KINDS, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { isInteresting, scanEntry, unjudgedWorkload, type ScanReport } from '../kube/read/scan.js';
import { liveExclusionOf, scanExclusion, type ScanExclusion } from '../kube/read/exclusion-reads.js';
import { DumpError } from '../diagnosis/snapshot/dump/dump.js';

export interface DumpScope {
  namespace?: string;
  allNamespaces: boolean;
}

/**
 * What a dump says nothing about is not empty (DESIGN.md §2): a namespace it holds no
 * object of was not read, and a dump with no workload of any kind was not made with
 * the workloads; either is a DumpError (exit 2) naming what the dump holds, never "no
 * stuck or at-risk workloads".
 */
function checkScope(objects: readonly KubeObject[], scope: DumpScope): void {
  const workloads = objects.filter((o) => (WORKLOAD_KINDS as readonly string[]).includes(o.kind ?? ''));
  if (workloads.length === 0)
    throw new DumpError(
      `holds no ${kindsPhrase('', 'or')}: nothing to scan (dump them with kubectl get deploy,ds,sts,rollouts,rs,pods,events,nodes -o yaml)`,
    );
  if (scope.allNamespaces) return;
  const namespace = scope.namespace ?? 'default';
  if (objects.some((o) => o.metadata?.namespace === namespace)) return;
  const held = [
    ...new Set(workloads.map((o) => o.metadata?.namespace).filter((n): n is string => !!n)),
  ].sort();
  throw new DumpError(
    `holds nothing in namespace ${namespace}${held.length > 0 ? `; its workloads are in ${held.slice(0, 10).join(', ')}${held.length > 10 ? ', …' : ''} (-n NAMESPACE, or -A)` : ''}`,
  );
}

/** The scan report of the workloads in `objects` within `scope`. */
export function scanDump(objects: KubeObject[], scope: DumpScope): ScanReport {
  checkScope(objects, scope);
  const entries: ScanReport['entries'] = [];
  let scanned = 0;
  let diagnosed = 0;
  const exclusions: ScanExclusion[] = [];
  // The dump's time once for all its workloads, not one walk of every object per workload.
  const capturedAt = newestTimestamp(objects);
  for (const kind of WORKLOAD_KINDS) {
    const inScope = ofKind(objects, kind).filter(
      (d) => scope.allNamespaces || (d.metadata.namespace ?? scope.namespace) === scope.namespace,
    );
    scanned += inScope.length;
    // Exclusions as of the dump's time (its age and end then, not now).
    for (const object of inScope) {
      const live = liveExclusionOf(kind, object);
      if (live) exclusions.push(scanExclusion(live, Date.parse(capturedAt)));
    }
    for (const object of inScope.filter((o) => isInteresting(kind, o))) {
      const namespace = object.metadata.namespace ?? scope.namespace ?? 'default';
      const name = object.metadata.name ?? '';
      let snapshot;
      try {
        snapshot = assembleSnapshot({ kind, namespace, name }, objects, { capturedAt });
      } catch (error) {
        // A Rollout whose template lives in a Deployment the dump lacks: said, not judged.
        if (!(error instanceof DumpError) || !workloadKind(kind).templateRef) throw error;
        entries.push(unjudgedWorkload(kind, object, error.message));
        continue;
      }
      diagnosed += 1;
      const entry = scanEntry(kind, object, namespace, analyze(snapshot).findings);
      if (entry) entries.push(entry);
    }
  }
  const nodes = objects.some((o) => o.kind === 'Node');
  return {
    scope: {
      ...(scope.allNamespaces ? {} : { namespace: scope.namespace ?? 'default' }),
      allNamespaces: scope.allNamespaces,
    },
    scanned,
    diagnosed,
    entries,
    nodesComplete: nodes,
    accessProblems: [],
    exclusions,
  };
}

function ofKind(objects: readonly KubeObject[], kind: WorkloadKind): WorkloadObject[] {
  return objects.filter((o) => o.kind === kind) as unknown as WorkloadObject[];
}
