import type { Analyzer } from '../analyzer.js';
import { classifyContainers, type ContainerReport } from '../crash/container-failures.js';
import type { Evidence, Finding } from '../finding.js';
import type { Container, Probe } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { groupByContainer, podRows } from './report-groups.js';
import { podTemplateOf } from '../workloads/index.js';

/**
 * ProbeFailure: the kubelet kills containers because their liveness or startup probe
 * fails (Unhealthy and Killing events). The template's probes are checked for the
 * two usual mistakes behind it: a liveness probe that gives up sooner than the
 * readiness probe, and no startup probe for a container that is killed before it
 * ever becomes Ready.
 */
export const probeFailure: Analyzer = {
  name: 'probe-failure',
  analyze(ctx) {
    const { snapshot } = ctx;
    const failing = classifyContainers(ctx).filter((r) => r.failures.includes('probe-kill'));
    return [...groupByContainer(failing)].map(([name, reports]) => finding(snapshot, name, reports));
  },
};

/** Kubernetes probe defaults: periodSeconds 10, failureThreshold 3, initialDelaySeconds 0. */
function probeBudgetSeconds(probe: Probe): number {
  return (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3);
}

function finding(
  snapshot: WorkloadSnapshot,
  name: string,
  reports: ContainerReport[],
): Omit<Finding, 'remediations'> {
  const spec: Container | undefined = podTemplateOf(snapshot).spec.containers.find((c) => c.name === name);
  const probes = [...new Set(reports.flatMap((r) => r.probeKills.map((k) => k.probe)))];
  const kills = reports.reduce((sum, r) => sum + r.probeKills.reduce((s, k) => s + k.kills, 0), 0);
  const lastFailure = reports
    .flatMap((r) => r.probeKills.map((k) => k.lastFailure))
    .find((m) => m !== undefined);
  const problems = probeConfigProblems(spec, reports);
  const evidence: Evidence[] = [
    {
      type: 'pods',
      title: `Containers failing their ${probes.join('/')} probe`,
      pods: podRows(
        reports,
        (r) =>
          `restarts ${r.restartCount}, ready ${r.ready}; ` +
          r.probeKills
            .map((k) => `${k.probe}: ${k.kills} kill(s)${k.lastFailure ? `, ${k.lastFailure}` : ''}`)
            .join('; '),
      ),
    },
    ...problems.map((text) => ({ type: 'note' as const, text })),
  ];
  const killText = kills > 0 ? `killed ${kills} time(s)` : 'failing';
  return {
    code: 'ProbeFailure',
    severity: kills > 0 ? 'critical' : 'warning',
    summary:
      `Container ${name} of ${snapshot.target.name} is ${killText} by its ${probes.join('/')} probe` +
      `${lastFailure ? ` (${lastFailure})` : ''}${problems[0] ? `; ${problems[0]}` : ''}.`,
    explanation:
      'When a liveness or startup probe fails failureThreshold times in a row, the kubelet kills the container ' +
      '(exit code 137 or 143, not OOMKilled) and restarts it with the usual back-off, which shows as CrashLoopBackOff ' +
      'although the application never crashed by itself. Readiness failures only take the pod out of Service ' +
      'endpoints; they never restart it.',
    evidence,
  };
}

/** Human sentences for the probe settings that explain the kills; empty when the settings look sane. */
function probeConfigProblems(spec: Container | undefined, reports: readonly ContainerReport[]): string[] {
  const liveness = spec?.livenessProbe;
  const readiness = spec?.readinessProbe;
  const problems: string[] = [];
  if (liveness && readiness && probeBudgetSeconds(liveness) < probeBudgetSeconds(readiness)) {
    problems.push(
      `the liveness probe gives up after ${probeBudgetSeconds(liveness)}s but readiness after ` +
        `${probeBudgetSeconds(readiness)}s: a slow moment restarts the container instead of just taking it out of ` +
        'the Service; make liveness the more tolerant one',
    );
  }
  const killedByLiveness = reports.some((r) =>
    r.probeKills.some((k) => k.probe === 'liveness' && k.kills > 0),
  );
  const neverReady = reports.every((r) => !r.ready);
  if (liveness && !spec?.startupProbe && killedByLiveness && neverReady) {
    const delay = liveness.initialDelaySeconds ?? 0;
    problems.push(
      `no startup probe: liveness starts after initialDelaySeconds ${delay} and kills after about ` +
        `${delay + probeBudgetSeconds(liveness)}s, before the container ever became Ready; add a startupProbe ` +
        '(failureThreshold x periodSeconds covering the slowest start) instead of raising initialDelaySeconds',
    );
  }
  return problems;
}
