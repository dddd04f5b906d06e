import { describe, expect, it } from 'vitest';
import { accessDenied } from '../../src/diagnosis/analyzers/access-denied.js';
import { configError } from '../../src/diagnosis/analyzers/config-error.js';
import { execFormatError } from '../../src/diagnosis/analyzers/exec-format-error.js';
import { imagePullFailure } from '../../src/diagnosis/analyzers/image-pull-failure.js';
import { analyzers } from '../../src/diagnosis/analyzers/index.js';
import { oomKilled } from '../../src/diagnosis/analyzers/oom-killed.js';
import { probeFailure } from '../../src/diagnosis/analyzers/probe-failure.js';
import { progressDeadline } from '../../src/diagnosis/analyzers/progress-deadline.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { logKey } from '../../src/diagnosis/snapshot/types.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
  type DeploymentOptions,
  type PodState,
} from '../support/k8s-builders.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

function setup(options: DeploymentOptions = {}) {
  const deployment = makeDeployment('detector', { namespace: 'vision', replicas: 2, ...options });
  const rs = makeReplicaSet(deployment, '7c9d8f5b6', { revision: 2 });
  const pod = (suffix: string, node: string | undefined, state: PodState) => makePod(rs, suffix, node, state);
  return { deployment, rs, pod };
}

function kubeletEvent(p: Pod, reason: string, message: string, count = 1) {
  return makeEvent(
    { kind: 'Pod', name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid },
    reason,
    message,
    { component: 'kubelet', fieldPath: 'spec.containers{detector}', count },
  );
}

describe('OOMKilled', () => {
  it('reports the memory limit and request', () => {
    const { deployment, rs, pod } = setup({
      resources: { requests: { memory: '256Mi' }, limits: { memory: '512Mi' } },
    });
    const pods = [
      pod('a1a1a', 'node-a', { phase: 'CrashLoopBackOff', restarts: 7, exitCode: 137, reason: 'OOMKilled' }),
      pod('b2b2b', 'node-b', { phase: 'CrashLoopBackOff', restarts: 5, exitCode: 137, reason: 'OOMKilled' }),
    ];
    const [finding, ...rest] = oomKilled.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods })),
    );
    expect(rest).toEqual([]);
    expect(finding?.code).toBe('OOMKilled');
    expect(finding?.summary).toBe(
      'Container detector of detector was OOMKilled in 2 pod(s): it hit its memory limit of 512Mi (request 256Mi).',
    );
    expect(finding?.evidence).toContainEqual({
      type: 'note',
      text: 'memory limit: 512Mi; memory request: 256Mi; total restarts: 12',
    });
  });

  it('says so when there is no memory limit, and ignores exit 137 without the OOMKilled reason', () => {
    const { deployment, rs, pod } = setup();
    const oom = pod('a1a1a', 'node-a', {
      phase: 'CrashLoopBackOff',
      restarts: 2,
      exitCode: 137,
      reason: 'OOMKilled',
    });
    const [finding] = oomKilled.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [oom] })),
    );
    expect(finding?.summary).toContain('no memory limit');
    const killed = pod('c3c3c', 'node-a', {
      phase: 'CrashLoopBackOff',
      restarts: 2,
      exitCode: 137,
      reason: 'Error',
    });
    expect(
      oomKilled.analyze(new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [killed] }))),
    ).toEqual([]);
  });
});

describe('ExecFormatError', () => {
  it('names the arm64 node and the amd64 nodes where the image runs', () => {
    const { deployment, rs, pod } = setup({ image: 'registry.example/vision/detector:2.3.1' });
    const bad = pod('a1a1a', 'node-arm', { phase: 'CrashLoopBackOff', restarts: 9, exitCode: 255 });
    const good = pod('b2b2b', 'node-a', { phase: 'Running' });
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [bad, good],
      nodes: [makeNode('node-a'), makeNode('node-arm', { arch: 'arm64' })],
      logs: {
        [logKey(bad.metadata.name ?? '', 'detector')]: 'exec /usr/local/bin/detector: exec format error\n',
      },
    });
    const [finding] = execFormatError.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('ExecFormatError');
    expect(finding?.summary).toBe(
      'Image registry.example/vision/detector:2.3.1 has no arm64 build (it runs on amd64 nodes: node-a): ' +
        'exec format error on node-arm (arm64).',
    );
    expect(finding?.evidence).toContainEqual({
      type: 'note',
      text: 'node architecture (kubernetes.io/arch): arm64; image runs on: amd64',
    });
  });

  it('reports nothing for an ordinary crash', () => {
    const { deployment, rs, pod } = setup();
    const crash = pod('a1a1a', 'node-a', {
      phase: 'CrashLoopBackOff',
      restarts: 9,
      exitCode: 1,
      message: 'panic: nil map',
    });
    expect(
      execFormatError.analyze(
        new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [crash] })),
      ),
    ).toEqual([]);
  });
});

describe('ConfigError', () => {
  it('names the missing ConfigMap key', () => {
    const { deployment, rs, pod } = setup();
    const p = pod('a1a1a', 'node-a', {
      phase: 'Waiting',
      reason: 'CreateContainerConfigError',
      message: "couldn't find key DB_HOST in ConfigMap vision/app-config",
    });
    const events = [
      kubeletEvent(p, 'Failed', "Error: couldn't find key DB_HOST in ConfigMap vision/app-config", 12),
    ];
    const [finding] = configError.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p], events })),
    );
    expect(finding?.summary).toBe(
      'detector: 1 pod(s) cannot start their containers: key DB_HOST is missing from ConfigMap vision/app-config.',
    );
  });

  it('names a missing Secret', () => {
    const { deployment, rs, pod } = setup();
    const p = pod('a1a1a', 'node-a', {
      phase: 'Waiting',
      reason: 'CreateContainerConfigError',
      message: 'secret "db-creds" not found',
    });
    const [finding] = configError.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p] })),
    );
    expect(finding?.summary).toContain('Secret db-creds does not exist');
  });
});

describe('ImagePullFailure', () => {
  it('reads the cause from the Failed event', () => {
    const { deployment, rs, pod } = setup({ image: 'registry.example/vision/detector:2.4.0' });
    const p = pod('a1a1a', 'node-a', {
      phase: 'Waiting',
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "registry.example/vision/detector:2.4.0"',
    });
    const events = [
      kubeletEvent(
        p,
        'Failed',
        'Failed to pull image "registry.example/vision/detector:2.4.0": rpc error: code = NotFound desc = failed to pull ' +
          'and unpack image "registry.example/vision/detector:2.4.0": failed to resolve reference ' +
          '"registry.example/vision/detector:2.4.0": registry.example/vision/detector:2.4.0: not found',
      ),
    ];
    const [finding] = imagePullFailure.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p], events })),
    );
    expect(finding?.summary).toBe(
      "Image registry.example/vision/detector:2.4.0 can't be pulled (ImagePullBackOff): the image or tag does not exist.",
    );
  });

  it('recognises missing credentials and invalid names', () => {
    const { deployment, rs, pod } = setup({ image: 'registry.example/private/detector:2.4.0' });
    const denied = pod('a1a1a', 'node-a', { phase: 'Waiting', reason: 'ErrImagePull' });
    const events = [
      kubeletEvent(
        denied,
        'Failed',
        'Failed to pull image "registry.example/private/detector:2.4.0": rpc error: code = Unknown desc = failed to pull and ' +
          'unpack image: failed to resolve reference: pull access denied, repository does not exist or may require authorization: ' +
          'server message: insufficient_scope: authorization failed',
      ),
    ];
    const [finding] = imagePullFailure.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [denied], events })),
    );
    expect(finding?.summary).toContain('the registry refused the credentials');
    const invalid = pod('b2b2b', 'node-a', { phase: 'Waiting', reason: 'InvalidImageName' });
    const [second] = imagePullFailure.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [invalid] })),
    );
    expect(second?.summary).toContain('not a valid reference');
  });
});

describe('ProbeFailure', () => {
  const slowStarter: DeploymentOptions = {
    container: {
      livenessProbe: {
        httpGet: { path: '/healthz', port: 8080 },
        initialDelaySeconds: 5,
        periodSeconds: 5,
        failureThreshold: 3,
      },
      readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 10, failureThreshold: 6 },
    },
  };

  it('reports liveness kills, a liveness stricter than readiness, and the missing startup probe', () => {
    const { deployment, rs, pod } = setup(slowStarter);
    const p = pod('a1a1a', 'node-a', {
      phase: 'Running',
      ready: false,
      restarts: 6,
      lastExit: { exitCode: 137 },
    });
    const events = [
      kubeletEvent(
        p,
        'Unhealthy',
        'Liveness probe failed: Get "http://10.0.1.5:8080/healthz": dial tcp 10.0.1.5:8080: connect: connection refused',
        18,
      ),
      kubeletEvent(p, 'Killing', 'Container detector failed liveness probe, will be restarted', 6),
    ];
    const [finding] = probeFailure.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p], events })),
    );
    expect(finding?.code).toBe('ProbeFailure');
    expect(finding?.severity).toBe('critical');
    expect(finding?.summary).toMatch(
      /^Container detector of detector is killed 6 time\(s\) by its liveness probe/,
    );
    const notes = finding?.evidence
      .filter((e) => e.type === 'note')
      .map((e) => (e.type === 'note' ? e.text : ''));
    expect(notes).toEqual([
      expect.stringContaining('liveness probe gives up after 15s but readiness after 60s'),
      expect.stringContaining(
        'no startup probe: liveness starts after initialDelaySeconds 5 and kills after about 20s',
      ),
    ]);
  });

  it('does not blame the probe settings when a startup probe exists and liveness is the more tolerant', () => {
    const { deployment, rs, pod } = setup({
      container: {
        startupProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10, failureThreshold: 30 },
        livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
        readinessProbe: { httpGet: { path: '/ready', port: 8080 } },
      },
    });
    const p = pod('a1a1a', 'node-a', {
      phase: 'Running',
      ready: false,
      restarts: 2,
      lastExit: { exitCode: 137 },
    });
    const events = [
      kubeletEvent(p, 'Killing', 'Container detector failed startup probe, will be restarted', 2),
    ];
    const [finding] = probeFailure.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p], events })),
    );
    expect(finding?.summary).toContain('by its startup probe');
    expect(finding?.evidence.filter((e) => e.type === 'note')).toEqual([]);
  });

  it('ignores readiness-only failures (they never restart a container)', () => {
    const { deployment, rs, pod } = setup();
    const p = pod('a1a1a', 'node-a', { phase: 'Running', ready: false });
    const events = [
      kubeletEvent(p, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 40),
    ];
    expect(
      probeFailure.analyze(
        new AnalysisContext(makeSnapshot({ deployment, replicaSets: [rs], pods: [p], events })),
      ),
    ).toEqual([]);
  });
});

describe('ProgressDeadlineExceeded', () => {
  function stalled(): Deployment {
    return makeDeployment('detector', {
      namespace: 'vision',
      replicas: 3,
      status: {
        observedGeneration: 2,
        replicas: 4,
        updatedReplicas: 1,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 1,
        conditions: [
          { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'ReplicaSet "detector-7c9d8f5b6" has timed out progressing.',
          },
        ],
      },
    });
  }

  it('names the ReplicaSet that did not progress', () => {
    const deployment = stalled();
    const newRs = makeReplicaSet(deployment, '7c9d8f5b6', { revision: 2, replicas: 1 });
    if (newRs.status) newRs.status.readyReplicas = 0;
    const oldRs = makeReplicaSet(deployment, '5f6b7c8d9', { revision: 1 });
    const [finding] = progressDeadline.analyze(
      new AnalysisContext(makeSnapshot({ deployment, replicaSets: [newRs, oldRs] })),
    );
    expect(finding?.summary).toBe(
      'Rollout of detector stalled: ReplicaSet detector-7c9d8f5b6 made no progress for 600s (0 of 3 new pods ready).',
    );
    expect(finding?.evidence[0]).toMatchObject({
      type: 'condition',
      condition: 'Progressing',
      status: 'False',
    });
  });

  it('stays quiet while the rollout progresses', () => {
    expect(
      progressDeadline.analyze(new AnalysisContext(makeSnapshot({ deployment: makeDeployment('detector') }))),
    ).toEqual([]);
  });
});

describe('AccessDenied', () => {
  it('says which permission is missing, one warning per problem', () => {
    const snapshot = makeSnapshot({
      deployment: makeDeployment('detector', { namespace: 'vision' }),
      accessProblems: [
        {
          verb: 'list',
          resource: 'events',
          namespace: 'vision',
          status: 403,
          message: 'events is forbidden',
        },
        { verb: 'list', resource: 'nodes', status: 403, message: 'nodes is forbidden' },
      ],
    });
    const findings = accessDenied.analyze(new AnalysisContext(snapshot));
    expect(findings.map((f) => [f.code, f.severity, f.summary])).toEqual([
      ['AccessDenied', 'warning', 'cannot list events in namespace vision: grant list on events'],
      ['AccessDenied', 'warning', 'cannot list nodes (cluster-wide): grant list on nodes'],
    ]);
  });
});

describe('registry', () => {
  it('lists the lifecycle analyzers in reporting order, AccessDenied then Unavailable (which judges what is left) last', () => {
    const names = analyzers.map((a) => a.name);
    const mine = [
      'crash-loop-on-node',
      'oom-killed',
      'exec-format-error',
      'config-error',
      'image-pull-failure',
      'probe-failure',
      'crash-loop',
      'progress-deadline',
      'access-denied',
    ];
    expect(names.filter((n) => mine.includes(n))).toEqual(mine);
    expect(names.slice(-2)).toEqual(['access-denied', 'unavailable']);
  });

  it('finds nothing wrong with a healthy Deployment', () => {
    const { deployment, rs, pod } = setup();
    const pods = [pod('a1a1a', 'node-a', { phase: 'Running' }), pod('b2b2b', 'node-b', { phase: 'Running' })];
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods,
      nodes: [makeNode('node-a'), makeNode('node-b')],
    });
    expect(analyzers.flatMap((a) => a.analyze(new AnalysisContext(snapshot)))).toEqual([]);
  });
});
