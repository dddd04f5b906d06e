/**
 * `scan --from-file`: the same verdicts as a live scan, from a saved dump. Every
 * workload of the scope that a live scan would diagnose (isInteresting: its rollout
 * is unfinished, or its template asks for something scarce) is assembled from the
 * dump, exactly as `diagnose --from-file` assembles it, and analysed; findings only,
 * no plans. What the dump lacks is IncompleteEvidence there as in diagnose.
 */
import { assembleSnapshot, newestTimestamp } from '../diagnosis/snapshot/dump/assemble.js';
import type { ArgoRollout, KubeObject } from '../diagnosis/k8s.js';
import { analyze } from '../diagnosis/analyzers/analyze.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import { WORKLOAD_KINDS, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { isInteresting, scanEntry, unjudgedRollout, type ScanReport } from '../kube/read/scan.js';
import { DumpError } from '../diagnosis/snapshot/dump/dump.js';

export interface DumpScope {
  namespace?: string;
  allNamespaces: boolean;
}

/** The scan report of the workloads in `objects` within `scope`. */
export function scanDump(objects: KubeObject[], scope: DumpScope): ScanReport {
  const entries: ScanReport['entries'] = [];
  let scanned = 0;
  let diagnosed = 0;
  // The dump's time once for all its workloads, not one walk of every object per workload.
  const capturedAt = newestTimestamp(objects);
  for (const kind of WORKLOAD_KINDS) {
    const inScope = ofKind(objects, kind).filter(
      (d) => scope.allNamespaces || (d.metadata.namespace ?? scope.namespace) === scope.namespace,
    );
    scanned += inScope.length;
    for (const object of inScope.filter((o) => isInteresting(kind, o))) {
      const namespace = object.metadata.namespace ?? scope.namespace ?? 'default';
      const name = object.metadata.name ?? '';
      let snapshot;
      try {
        snapshot = assembleSnapshot({ kind, namespace, name }, objects, { capturedAt });
      } catch (error) {
        // A Rollout whose template lives in a Deployment the dump lacks: said, not judged.
        if (!(error instanceof DumpError) || kind !== 'Rollout') throw error;
        entries.push(unjudgedRollout(object as ArgoRollout, error.message));
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
  };
}

function ofKind(objects: readonly KubeObject[], kind: WorkloadKind): WorkloadObject[] {
  return objects.filter((o) => o.kind === kind) as unknown as WorkloadObject[];
}
