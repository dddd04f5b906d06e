import type { Analyzer } from '../analyzer.js';
import { crashPictures, templateLabel, type TemplateCrashPicture } from '../crash-distribution.js';
import type { Evidence, Finding } from '../finding.js';
import type { Node } from '../k8s.js';
import { diffNodes } from '../node-diff.js';
import type { WorkloadSnapshot } from '../snapshot.js';

/**
 * CrashLoopOnNode: the same pod template crashes on one node (or a few) and runs
 * Ready elsewhere. Crashes on every node, or next to a healthy sibling on the same
 * node, are CrashLoop instead (see crash-distribution.ts for the exact rule).
 */
export const crashLoopOnNode: Analyzer = {
  name: 'crash-loop-on-node',
  analyze(snapshot) {
    return crashPictures(snapshot)
      .filter((p) => p.nodeLocal)
      .map((p) => finding(snapshot, p));
  },
};

function finding(snapshot: WorkloadSnapshot, p: TemplateCrashPicture): Omit<Finding, 'remediations'> {
  const name = snapshot.target.name;
  const bad = nodesByName(snapshot.nodes, p.badNodes);
  const good = nodesByName(snapshot.nodes, p.goodNodes);
  const differences = diffNodes(bad, good);
  const badRows = p.rows.filter((r) => p.badNodes.includes(r.node));
  const exit = badRows.find((r) => r.lastExitCode !== undefined);
  const exitText = exit
    ? `; last exit code ${exit.lastExitCode}${exit.lastReason ? ` (${exit.lastReason})` : ''}`
    : '';
  const where =
    p.badNodes.length === 1 ? `only on node ${p.badNodes[0]}` : `only on nodes ${p.badNodes.join(', ')}`;
  const top = differences[0];
  const diffText = top
    ? ` ${plural(p.badNodes.length, 'That node differs', 'Those nodes differ')} in ${top.field}: ${top.bad} vs ${top.good}.`
    : '';
  const evidence: Evidence[] = [
    { type: 'crash-table', rows: p.rows },
    { type: 'node-diff', badNodes: p.badNodes, goodNodes: p.goodNodes, differences },
  ];
  for (const row of badRows) {
    const report = p.reports.find((r) => r.node === row.node && r.logTail);
    if (report?.logTail)
      evidence.push({ type: 'log', pod: report.pod, container: report.container, tail: report.logTail });
  }
  const missing = p.badNodes.filter((n) => !bad.some((node) => node.metadata.name === n));
  if (missing.length > 0) {
    evidence.push({
      type: 'note',
      text: `Node objects not collected for ${missing.join(', ')}: no comparison for them.`,
    });
  }
  return {
    code: 'CrashLoopOnNode',
    severity: 'critical',
    summary:
      `${name} crash-loops ${where} (${p.crashingPods.length} of ${p.crashingPods.length + p.healthyPods.length} pods${exitText}); ` +
      `the same template runs Ready on ${p.goodNodes.join(', ')}.${diffText}`,
    explanation:
      `Every pod here comes from ${templateLabel(p)}, so image, command and configuration are identical; ` +
      `they fail only where they land on ${p.badNodes.join(', ')}. Look at what differs on that node. ` +
      'The kubelet restarts a crashed container after a back-off of 10s, doubling up to 5 minutes, and resets it ' +
      'only after 10 minutes of clean running, so CrashLoopBackOff pods sit idle most of the time and a restart ' +
      'count that grows slowly is not a sign of recovery. Keeping the pods off the node with a required node ' +
      'affinity NotIn is a stopgap: repair or drain the node, then remove the exclusion.',
    evidence,
  };
}

function nodesByName(nodes: readonly Node[], names: readonly string[]): Node[] {
  return names.flatMap((n) => nodes.filter((node) => node.metadata.name === n));
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
