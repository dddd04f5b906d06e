/**
 * `scan --from-file`: the same verdicts as a live scan, from a saved dump. Every
 * Deployment of the scope that a live scan would diagnose (isInteresting: its rollout
 * is unfinished, or its template asks for something scarce) is assembled from the
 * dump, exactly as `diagnose --from-file` assembles it, and analysed; findings only,
 * no plans. What the dump lacks is IncompleteEvidence there as in diagnose.
 */
import { assembleSnapshot, newestTimestamp } from '../diagnosis/dump/assemble.js';
import type { Deployment, KubeObject } from '../diagnosis/k8s.js';
import { analyze } from '../diagnosis/analyzers/analyze.js';
import { isInteresting, type ScanReport } from '../kube/read/scan.js';
import { rolloutProgress } from '../kube/rollout-status.js';

export interface DumpScope {
  namespace?: string;
  allNamespaces: boolean;
}

/** The scan report of the Deployments in `objects` within `scope`. */
export function scanDump(objects: KubeObject[], scope: DumpScope): ScanReport {
  const inScope = (objects.filter((o) => o.kind === 'Deployment') as unknown as Deployment[]).filter(
    (d) => scope.allNamespaces || (d.metadata.namespace ?? scope.namespace) === scope.namespace,
  );
  const entries: ScanReport['entries'] = [];
  let diagnosed = 0;
  // The dump's time once for all its Deployments, not one walk of every object per Deployment.
  const capturedAt = newestTimestamp(objects);
  for (const deployment of inScope.filter(isInteresting)) {
    const namespace = deployment.metadata.namespace ?? scope.namespace ?? 'default';
    const name = deployment.metadata.name ?? '';
    const snapshot = assembleSnapshot({ kind: 'Deployment', namespace, name }, objects, { capturedAt });
    diagnosed += 1;
    const findings = analyze(snapshot)
      .findings.filter((f) => f.code !== 'AccessDenied')
      .map((f) => ({ code: f.code, severity: f.severity, summary: f.summary }));
    if (findings.length === 0) continue;
    const rollout = rolloutProgress(deployment);
    const onlyRisk = findings.every((f) => f.code === 'RolloutAtRisk');
    entries.push({
      namespace,
      name,
      state: rollout.state !== 'complete' && !onlyRisk ? 'stuck' : onlyRisk ? 'at-risk' : 'problems',
      rollout: rollout.progress.message,
      findings,
    });
  }
  const nodes = objects.some((o) => o.kind === 'Node');
  return {
    scope: {
      ...(scope.allNamespaces ? {} : { namespace: scope.namespace ?? 'default' }),
      allNamespaces: scope.allNamespaces,
    },
    scanned: inScope.length,
    diagnosed,
    entries,
    nodesComplete: nodes,
    accessProblems: [],
  };
}
