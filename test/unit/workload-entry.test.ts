/**
 * Every way a DaemonSet or a StatefulSet enters (issue 30.4): the slash command,
 * kube-prometheus' alerts through to the diagnose job, the early warning's pod owner,
 * the Re-run button and the job id, none of which may fall back to a Deployment.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_MAP } from '../../src/config/alert-map.js';
import { parseCommand } from '../../src/chat/use-cases/command-parse.js';
import { mapNotification } from '../../src/app/alerts/targets.js';
import { alertDiagnoseJob } from '../../src/app/alerts/app-intake.js';
import { parseRerunValue, rerunValue } from '../../src/chat/slack/blocks/action-ids.js';
import { diagnoseJobId } from '../../src/queue/job-ids.js';
import { workloadOfPod } from '../../src/diagnosis/workloads/index.js';
import { alert, notification } from '../support/alert-payloads.js';
import { makeControllerRevision, makeDaemonPod, makeDaemonSet } from '../support/daemonset-builders.js';
import { makeStatefulSet, makeStsPod, makeStsRevision } from '../support/statefulset-builders.js';

const options = { alertMap: DEFAULT_ALERT_MAP, defaultCluster: 'default', clusters: ['default'] };

describe('a DaemonSet or a StatefulSet from every entry', () => {
  it.each(['daemonset/node-agent', 'ds/node-agent', 'daemonsets.apps/node-agent'])(
    'the slash command takes %s',
    (text) => {
      expect(
        parseCommand(`${text} -n telemetry`, { clusters: ['default'], defaultCluster: 'default' }),
      ).toMatchObject({
        kind: 'diagnose',
        workload: 'DaemonSet',
        namespace: 'telemetry',
        name: 'node-agent',
      });
    },
  );

  it.each(['KubeDaemonSetRolloutStuck', 'KubeDaemonSetNotScheduled', 'KubeDaemonSetMisScheduled'])(
    '%s names the DaemonSet through its daemonset label, and the diagnose job is about a DaemonSet',
    (alertname) => {
      const mapped = mapNotification(
        notification([alert({ alertname, namespace: 'telemetry', daemonset: 'node-agent' })]),
        options,
      );
      const [target] = mapped.targets;
      expect(target?.workload).toMatchObject({ kind: 'DaemonSet', name: 'node-agent' });
      const job = alertDiagnoseJob('default', {
        workload: {
          cluster: 'default',
          namespace: 'telemetry',
          deployment: 'node-agent',
          kind: 'DaemonSet',
          guessed: false,
          pods: [],
        },
        reply: { groupHash: 'a'.repeat(16), workloadHash: target?.workloadHash ?? '' },
      } as never);
      expect(job).toMatchObject({
        target: { kind: 'DaemonSet', namespace: 'telemetry', name: 'node-agent' },
      });
    },
  );

  it('keeps a DaemonSet and a Deployment of one name apart in job ids and Re-run buttons', () => {
    expect(diagnoseJobId('telemetry', 'agent', 'DaemonSet')).not.toBe(diagnoseJobId('telemetry', 'agent'));
    expect(diagnoseJobId('telemetry', 'agent', 'Deployment')).toBe('diagnose.telemetry.agent');
    const value = rerunValue('prod', { namespace: 'telemetry', name: 'agent', kind: 'DaemonSet' });
    expect(parseRerunValue(value)).toEqual({
      cluster: 'prod',
      namespace: 'telemetry',
      name: 'agent',
      kind: 'DaemonSet',
    });
    // A button posted before kinds: a Deployment.
    expect(parseRerunValue('prod/telemetry/agent')).toMatchObject({ kind: 'Deployment' });
    expect(parseRerunValue('prod/telemetry/agent/cronjob')).toBeNull();
  });

  it.each(['statefulset/ledger', 'sts/ledger', 'statefulsets.apps/ledger'])(
    'the slash command takes %s',
    (text) => {
      expect(
        parseCommand(`${text} -n payments`, { clusters: ['default'], defaultCluster: 'default' }),
      ).toMatchObject({
        kind: 'diagnose',
        workload: 'StatefulSet',
        name: 'ledger',
      });
    },
  );

  it.each([
    'KubeStatefulSetReplicasMismatch',
    'KubeStatefulSetUpdateNotRolledOut',
    'KubeStatefulSetGenerationMismatch',
  ])('%s names the StatefulSet through its statefulset label', (alertname) => {
    const mapped = mapNotification(
      notification([alert({ alertname, namespace: 'payments', statefulset: 'ledger' })]),
      options,
    );
    expect(mapped.targets[0]?.workload).toMatchObject({ kind: 'StatefulSet', name: 'ledger' });
  });

  it("the early warning knows a StatefulSet's pod by its owner reference", () => {
    const sts = makeStatefulSet('ledger');
    const pod = makeStsPod(sts, makeStsRevision(sts, '65f9b98df4', 1), 0, 'node-a', { phase: 'Running' });
    expect(workloadOfPod(pod)).toEqual({ kind: 'StatefulSet', name: 'ledger' });
  });

  it("the early warning knows a DaemonSet's pod by its owner reference", () => {
    const ds = makeDaemonSet('node-agent', { namespace: 'telemetry' });
    const pod = makeDaemonPod(ds, makeControllerRevision(ds, '6d5cb9ff66', 1), 'x7k2p', 'node-a', {
      phase: 'Running',
    });
    expect(workloadOfPod(pod)).toEqual({ kind: 'DaemonSet', name: 'node-agent' });
  });
});
