import { describe, expect, it } from 'vitest';
import {
  classifyContainers,
  findMissingConfig,
  isCrashLooping,
  isHealthyPod,
} from '../../src/diagnosis/crash/container-failures.js';
import type { ContainerStatus, Pod } from '../../src/diagnosis/k8s.js';
import { logKey } from '../../src/diagnosis/snapshot/types.js';
import {
  NOW,
  makeDeployment,
  makeEvent,
  makePod,
  makeReplicaSet,
  makeSnapshot,
  type PodState,
} from '../support/k8s-builders.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { crashPictures } from '../../src/diagnosis/crash/crash-distribution.js';

const deployment = makeDeployment('detector', { namespace: 'vision', replicas: 1 });
const rs = makeReplicaSet(deployment, '7c9d8f5b6');

function pod(state: PodState, suffix = 'x2k9p'): Pod {
  return makePod(rs, suffix, 'node-a', state);
}

function status(p: Pod): ContainerStatus {
  const s = p.status?.containerStatuses?.[0];
  if (!s) throw new Error('fixture has no container status');
  return s;
}

function kubeletEvent(p: Pod, reason: string, message: string, count = 1) {
  return makeEvent(
    { kind: 'Pod', name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid },
    reason,
    message,
    { component: 'kubelet', fieldPath: 'spec.containers{detector}', host: 'node-a', count },
  );
}

function classify(
  p: Pod,
  events = [] as ReturnType<typeof kubeletEvent>[],
  logs: Record<string, string> = {},
) {
  const [report] = classifyContainers(
    new AnalysisContext(makeSnapshot({ deployment, pods: [p], events, logs })),
  );
  if (!report) throw new Error('no report');
  return report;
}

describe('classifyContainers', () => {
  it('flags CrashLoopBackOff as a crash loop with the last termination', () => {
    const report = classify(pod({ phase: 'CrashLoopBackOff', restarts: 6, exitCode: 1 }));
    expect(report.failures).toEqual(['crash-loop']);
    expect(report.lastTermination?.exitCode).toBe(1);
    expect(report.node).toBe('node-a');
    expect(report.templateHash).toBe('7c9d8f5b6');
  });

  it('flags OOMKilled only with the OOMKilled reason, not a bare exit 137', () => {
    const oom = classify(pod({ phase: 'CrashLoopBackOff', restarts: 4, exitCode: 137, reason: 'OOMKilled' }));
    expect(oom.failures).toEqual(['crash-loop', 'oom-killed']);
    const sigkill = classify(pod({ phase: 'CrashLoopBackOff', restarts: 4, exitCode: 137, reason: 'Error' }));
    expect(sigkill.failures).toEqual(['crash-loop']);
  });

  it('reads a running container by its last termination alone (no event, no log, nothing waiting)', () => {
    const restarted = classify(
      pod({
        phase: 'Running',
        restarts: 3,
        lastExit: { exitCode: 137, reason: 'OOMKilled' },
        startedAt: '2026-11-22T02:58:00Z',
      }),
    );
    expect(restarted.failures).toEqual(['crash-loop', 'oom-killed']);
    expect(restarted.lastTermination?.reason).toBe('OOMKilled');
    const quiet = classify(pod({ phase: 'Running' }));
    expect(quiet).toMatchObject({ failures: [], missingConfig: [], probeKills: [], ready: true });
    expect(quiet.lastTermination).toBeUndefined();
  });

  it('finds exec format error in the previous-container log tail', () => {
    const p = pod({ phase: 'CrashLoopBackOff', restarts: 5, exitCode: 255 });
    const logs = { [logKey(p.metadata.name ?? '', 'detector')]: 'exec /app/detector: exec format error\n' };
    const report = classify(p, [], logs);
    expect(report.failures).toContain('exec-format-error');
    expect(report.execFormatEvidence).toContain('exec format error');
    expect(report.logTail).toBe(logs[logKey(p.metadata.name ?? '', 'detector')]);
  });

  it('finds exec format error in a StartError termination message and counts it as a failed start', () => {
    const p = pod({
      phase: 'CrashLoopBackOff',
      restarts: 3,
      exitCode: 128,
      reason: 'StartError',
      message:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
        'unable to start container process: exec /app/detector: exec format error: unknown',
    });
    expect(classify(p).failures).toEqual(['crash-loop', 'exec-format-error', 'start-error']);
  });

  it('reads missing ConfigMap keys and Secrets from the waiting message and kubelet events', () => {
    const p = pod({
      phase: 'Waiting',
      reason: 'CreateContainerConfigError',
      message: "couldn't find key DB_HOST in ConfigMap vision/app-config",
    });
    const report = classify(p, [kubeletEvent(p, 'Failed', 'Error: secret "db-creds" not found', 7)]);
    expect(report.failures).toEqual(['config-error']);
    expect(report.missingConfig).toEqual([
      { kind: 'ConfigMap', namespace: 'vision', name: 'app-config', key: 'DB_HOST' },
      { kind: 'Secret', name: 'db-creds' },
    ]);
  });

  it('takes the image pull error from the kubelet Failed event', () => {
    const p = pod({
      phase: 'Waiting',
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "registry.example/vision/detector:2.4.0"',
    });
    const pullMessage =
      'Failed to pull image "registry.example/vision/detector:2.4.0": rpc error: code = NotFound desc = failed to pull and ' +
      'unpack image "registry.example/vision/detector:2.4.0": failed to resolve reference ' +
      '"registry.example/vision/detector:2.4.0": registry.example/vision/detector:2.4.0: not found';
    const report = classify(p, [
      kubeletEvent(p, 'Failed', pullMessage),
      kubeletEvent(p, 'Failed', 'Error: ErrImagePull'),
    ]);
    expect(report.failures).toEqual(['image-pull']);
    expect(report.pullError).toBe(pullMessage);
  });

  it('counts liveness probe kills from Killing events (summing count) and keeps the last Unhealthy message', () => {
    const p = pod({ phase: 'Running', ready: false, restarts: 5, lastExit: { exitCode: 137 } });
    const report = classify(p, [
      kubeletEvent(p, 'Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 503', 15),
      kubeletEvent(p, 'Killing', 'Container detector failed liveness probe, will be restarted', 5),
      kubeletEvent(p, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 20),
    ]);
    expect(report.failures).toContain('probe-kill');
    expect(report.probeKills).toEqual([
      {
        probe: 'liveness',
        kills: 5,
        lastFailure: 'Liveness probe failed: HTTP probe failed with statuscode: 503',
      },
    ]);
  });

  it('counts startup probe errors (the probe could not run) like failures', () => {
    const p = pod({ phase: 'Running', ready: false, restarts: 2, lastExit: { exitCode: 143 } });
    const report = classify(p, [
      kubeletEvent(
        p,
        'Unhealthy',
        'Startup probe errored: rpc error: code = Unknown desc = command timed out',
        4,
      ),
      kubeletEvent(p, 'Killing', 'Container detector failed startup probe, will be restarted', 2),
    ]);
    expect(report.probeKills).toEqual([
      {
        probe: 'startup',
        kills: 2,
        lastFailure: 'Startup probe errored: rpc error: code = Unknown desc = command timed out',
      },
    ]);
  });

  it('ignores events about another pod or another container', () => {
    const p = pod({ phase: 'Running' });
    const other = pod({ phase: 'Running' }, 'zzzzz');
    const sidecar = makeEvent(
      { kind: 'Pod', name: p.metadata.name, namespace: 'vision', uid: p.metadata.uid },
      'Killing',
      'Container sidecar failed liveness probe, will be restarted',
      { component: 'kubelet', fieldPath: 'spec.containers{sidecar}' },
    );
    expect(
      classify(p, [
        kubeletEvent(other, 'Killing', 'Container detector failed liveness probe, will be restarted'),
        sidecar,
      ]).failures,
    ).toEqual([]);
  });
});

describe('crashPictures', () => {
  it('pictures a container that fails to start before any restart (no crash loop yet)', () => {
    const failing = makePod(rs, 'a1b2c', 'node-a', {
      phase: 'Waiting',
      reason: 'RunContainerError',
      message: 'failed to create containerd task: no such device',
    });
    const healthy = makePod(rs, 'd3e4f', 'node-b', { phase: 'Running' });
    const ctx = new AnalysisContext(makeSnapshot({ deployment, pods: [failing, healthy] }));
    expect(classifyContainers(ctx).map((r) => r.failures)).toEqual([['start-error'], []]);
    const [picture, ...rest] = crashPictures(ctx);
    expect(rest).toEqual([]);
    expect(picture).toMatchObject({ badNodes: ['node-a'], goodNodes: ['node-b'] });
  });

  it('has no picture when nothing crashes', () => {
    const ctx = new AnalysisContext(
      makeSnapshot({ deployment, pods: [pod({ phase: 'Running' }), pod({ phase: 'Pending' }, 'q7w8e')] }),
    );
    expect(crashPictures(ctx)).toEqual([]);
  });
});

describe('isCrashLooping (kubelet back-off resets after 10 minutes of clean running)', () => {
  const now = Date.parse(NOW);
  const restarted = (restarts: number, startedAt: string) =>
    status(pod({ phase: 'Running', restarts, lastExit: { exitCode: 1 }, startedAt }));

  it('is true while the last restart is recent', () => {
    expect(isCrashLooping(restarted(3, '2026-11-22T02:58:00Z'), now)).toBe(true);
  });

  it('is false after more than 10 minutes of clean running', () => {
    expect(isCrashLooping(restarted(3, '2026-11-22T02:49:00Z'), now)).toBe(false);
  });

  it('is false after a single restart that is running again', () => {
    expect(isCrashLooping(restarted(1, '2026-11-22T02:59:00Z'), now)).toBe(false);
  });

  // The builder's last run lasted one minute (02:50 to 02:51).
  it('is history once Ready for five minutes and twice as long as its last run lasted (restarts and lastState kept)', () => {
    expect(isCrashLooping(restarted(7, '2026-11-22T02:55:00Z'), now)).toBe(false);
    const notReady = restarted(7, '2026-11-22T02:55:00Z');
    notReady.ready = false;
    expect(isCrashLooping(notReady, now)).toBe(true);
  });

  it('still loops when it crashes after minutes each time and has not run twice that long yet', () => {
    const slow = restarted(7, '2026-11-22T02:54:00Z');
    const last = slow.lastState?.terminated;
    if (!last) throw new Error('no last termination');
    last.startedAt = '2026-11-22T02:40:00Z';
    last.finishedAt = '2026-11-22T02:44:00Z';
    expect(isCrashLooping(slow, now)).toBe(true);
  });
});

describe('isHealthyPod', () => {
  it('needs Running, Ready and no crash loop', () => {
    const healthy = pod({ phase: 'Running' });
    const notReady = pod({ phase: 'Running', ready: false });
    const crashing = pod({ phase: 'CrashLoopBackOff', restarts: 3 });
    const snapshot = makeSnapshot({ deployment, pods: [healthy, notReady, crashing] });
    const reports = classifyContainers(new AnalysisContext(snapshot));
    expect([healthy, notReady, crashing].map((p) => isHealthyPod(p, reports))).toEqual([true, false, false]);
  });
});

describe('findMissingConfig', () => {
  it('parses the FailedMount wording for a missing ConfigMap volume', () => {
    expect(
      findMissingConfig('MountVolume.SetUp failed for volume "config" : configmap "app-config" not found'),
    ).toEqual([{ kind: 'ConfigMap', name: 'app-config' }]);
  });

  it('parses a missing key in a Secret', () => {
    expect(findMissingConfig("Error: couldn't find key password in Secret vision/db-creds")).toEqual([
      { kind: 'Secret', namespace: 'vision', name: 'db-creds', key: 'password' },
    ]);
  });

  it('returns nothing for unrelated text', () => {
    expect(findMissingConfig('Back-off restarting failed container detector')).toEqual([]);
  });
});
