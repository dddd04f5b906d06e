import type { Analyzer } from '../analyzer.js';
import { classifyContainers, type ContainerReport } from '../crash/container-failures.js';
import type { Finding } from '../finding.js';
import type { Container, Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { groupByContainer, podRows } from './report-groups.js';
import { podTemplateOf } from '../workloads/index.js';

/**
 * OOMKilled: the kernel killed the container for memory (termination reason
 * OOMKilled, normally exit code 137 = 128 + SIGKILL). Exit 137 without that reason is
 * some other SIGKILL (a liveness kill, the grace period running out) and is not
 * reported here.
 */
export const oomKilled: Analyzer = {
  name: 'oom-killed',
  analyze(ctx) {
    const { snapshot } = ctx;
    const reports = classifyContainers(ctx).filter((r) => r.failures.includes('oom-killed'));
    return [...groupByContainer(reports)].map(([container, group]) => finding(snapshot, container, group));
  },
};

function finding(
  snapshot: WorkloadSnapshot,
  container: string,
  reports: ContainerReport[],
): Omit<Finding, 'remediations'> {
  const spec = containerSpec(snapshot, reports, container);
  const limit = spec?.resources?.limits?.memory;
  const request = spec?.resources?.requests?.memory ?? limit;
  const restarts = reports.reduce((sum, r) => sum + r.restartCount, 0);
  const exitCode = reports.find((r) => r.lastTermination)?.lastTermination?.exitCode;
  const limitText =
    limit !== undefined
      ? `it hit its memory limit of ${String(limit)}${request !== undefined ? ` (request ${String(request)})` : ''}`
      : 'it has no memory limit, so the node itself ran out of memory';
  return {
    code: 'OOMKilled',
    severity: 'critical',
    summary: `Container ${container} of ${snapshot.target.name} was OOMKilled in ${reports.length} pod(s): ${limitText}.`,
    explanation:
      `The kernel killed the process for using more memory than allowed (reason OOMKilled, exit code ${exitCode ?? 137}). ` +
      'Memory is not throttled like CPU: crossing the limit kills the container, and the kubelet restarts it with ' +
      'the usual back-off (10s doubling to 5 minutes). Raise the memory limit to what the process really needs, ' +
      'or make it use less (for a JVM, size the heap from the container limit).',
    evidence: [
      {
        type: 'pods',
        title: 'OOMKilled containers',
        pods: podRows(
          reports,
          (r) => `restarts ${r.restartCount}, last exit ${r.lastTermination?.exitCode ?? '?'} OOMKilled`,
        ),
      },
      {
        type: 'note',
        text:
          `memory limit: ${limit === undefined ? 'none' : String(limit)}; memory request: ` +
          `${request === undefined ? 'none' : String(request)}${spec?.resources?.requests?.memory === undefined && limit !== undefined ? ' (defaults to the limit)' : ''}; ` +
          `total restarts: ${restarts}`,
      },
    ],
  };
}

function containerSpec(
  snapshot: WorkloadSnapshot,
  reports: ContainerReport[],
  name: string,
): Container | undefined {
  const pod: Pod | undefined = snapshot.pods.find((p) => p.metadata.name === reports[0]?.pod);
  const spec = pod?.spec ?? podTemplateOf(snapshot).spec;
  return [...spec.containers, ...(spec.initContainers ?? [])].find((c) => c.name === name);
}
