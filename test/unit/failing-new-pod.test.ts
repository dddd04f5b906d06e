/**
 * A new pod whose readiness probe keeps failing holds the rollout: the controller counts it
 * unavailable (rolling.go reconcileOldReplicaSets for a Deployment with maxUnavailable 0;
 * daemon/update.go rollingUpdate for a DaemonSet), so no old pod goes. It read "No problem
 * found", exit 0 (a DaemonSet has no progress deadline, so nothing else ever says so). Now
 * RolloutStuck names the pod and the probe's failure; a pod that becomes Ready, or one still
 * starting without any failure, is not called stuck.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = { findings: { code: string; severity: string; summary: string }[] };

const deployment = fixtureDump('readiness-failing-new-pod.json');
const daemonSet = fixtureDump('daemonset-readiness-failing.json');

const diagnose = async (
  dump: ReturnType<typeof fixtureDump>,
  ref: string,
  namespace: string,
  edit?: (items: DumpItem[]) => DumpItem[],
) => {
  const { status, stdout } = await dump.cli(['diagnose', ref, '-n', namespace, '-o', 'json'], edit);
  return { status, report: JSON.parse(stdout) as Report };
};

/** The probe passes at last: web-n2-x is Ready, and no failure event is left. */
const becameReady = (items: DumpItem[]): DumpItem[] =>
  items
    .filter((i) => !(i.kind === 'Event' && (i as { reason?: string }).reason === 'Unhealthy'))
    .map((i) => {
      if (i.metadata.name !== 'web-n2-x') return i;
      const status = i.status as { conditions: { type: string; status: string }[] };
      return {
        ...i,
        status: {
          ...status,
          conditions: status.conditions.map((c) =>
            c.type === 'PodScheduled' ? c : { ...c, status: 'True' },
          ),
        },
      };
    });

/** web-n2-x started a minute before the read, not Ready yet, and no probe has failed yet. */
const justStarted = (items: DumpItem[]): DumpItem[] =>
  JSON.parse(
    JSON.stringify(
      items.filter((i) => !(i.kind === 'Event' && (i as { reason?: string }).reason === 'Unhealthy')),
    ).replaceAll('02:52:00Z', '02:59:00Z'),
  ) as DumpItem[];

/**
 * web-n2-x started 30 s before the read and its readiness probe failed twice since (attack
 * round 12): a start-up, not a failure; the kubelet only marks it unready.
 */
const youngWithFailures = (items: DumpItem[]): DumpItem[] =>
  JSON.parse(
    JSON.stringify(items)
      .replaceAll('02:52:00Z', '02:59:30Z')
      .replace('"count": 46', '"count": 2')
      .replace('"count":46', '"count":2'),
  ) as DumpItem[];

describe('a new pod that does not become Ready', () => {
  it('a Deployment: RolloutStuck names the pod and its failing readiness probe', async () => {
    const { status, report } = await diagnose(deployment, 'deployment/web', 'shop');
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toBe(
      'Rollout of web is held by new pod web-n2-x: not Ready for 8m, its readiness probe keeps failing (46 times: "Readiness probe failed: HTTP probe failed with statuscode: 503"); the controller counts it unavailable and goes no further until it is Ready.',
    );
    expect(status).toBe(1);
  });

  it('a DaemonSet, which has no progress deadline: the same', async () => {
    const { status, report } = await diagnose(daemonSet, 'daemonset/nx', 'mon');
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('held by new pod nx-new-a: not Ready for 35m');
    expect(status).toBe(1);
  });

  it('not once it is Ready, nor while it is still starting, with or without a readiness failure', async () => {
    for (const edit of [becameReady, justStarted, youngWithFailures]) {
      const { report } = await diagnose(deployment, 'deployment/web', 'shop', edit);
      expect(report.findings.map((f) => f.code)).not.toContain('RolloutStuck');
    }
  });
});
