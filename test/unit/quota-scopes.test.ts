/**
 * A ResourceQuota's scopes as kube-apiserver's pod evaluator matches them
 * (pkg/quota/v1/evaluator/core/pods.go podMatchesScopeFunc), one row per arm; and check
 * judging a change against a scoped quota that takes its new pods in, and one that does not.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quotaTakesIn } from '../../src/diagnosis/base/quota-scopes.js';
import type { ResourceQuota } from '../../src/diagnosis/k8s-policy.js';
import type { PodSpec } from '../../src/diagnosis/k8s.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const quota = (spec: ResourceQuota['spec']): ResourceQuota => ({ metadata: { name: 'q' }, spec });
const pod = (over: Partial<PodSpec> = {}, resources?: object): PodSpec => ({
  containers: [{ name: 'app', image: 'app:1', ...(resources ? { resources } : {}) }],
  ...over,
});
const cpu = { requests: { cpu: '1' } };
const byClass = (operator: string, values?: string[]): ResourceQuota =>
  quota({
    scopeSelector: {
      matchExpressions: [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }],
    },
  });

describe('quotaTakesIn', () => {
  it.each([
    ['no scope', quota({}), pod(), true],
    ['BestEffort, no request', quota({ scopes: ['BestEffort'] }), pod(), true],
    ['BestEffort, a request', quota({ scopes: ['BestEffort'] }), pod({}, cpu), false],
    ['NotBestEffort, a request', quota({ scopes: ['NotBestEffort'] }), pod({}, cpu), true],
    [
      'NotBestEffort, a limit only',
      quota({ scopes: ['NotBestEffort'] }),
      pod({}, { limits: { memory: '1Gi' } }),
      true,
    ],
    ['NotBestEffort, nothing set', quota({ scopes: ['NotBestEffort'] }), pod(), false],
    // ComputePodQOS counts only cpu and memory above zero.
    [
      'BestEffort, a GPU only',
      quota({ scopes: ['BestEffort'] }),
      pod({}, { limits: { 'nvidia.com/gpu': '1' } }),
      true,
    ],
    ['BestEffort, cpu 0', quota({ scopes: ['BestEffort'] }), pod({}, { requests: { cpu: '0' } }), true],
    ['Terminating, a deadline', quota({ scopes: ['Terminating'] }), pod({ activeDeadlineSeconds: 60 }), true],
    ['Terminating, none', quota({ scopes: ['Terminating'] }), pod(), false],
    ['NotTerminating, none', quota({ scopes: ['NotTerminating'] }), pod(), true],
    [
      'NotTerminating, a deadline',
      quota({ scopes: ['NotTerminating'] }),
      pod({ activeDeadlineSeconds: 60 }),
      false,
    ],
    ['PriorityClass In, named', byClass('In', ['high']), pod({ priorityClassName: 'high' }), true],
    ['PriorityClass In, other', byClass('In', ['high']), pod({ priorityClassName: 'low' }), false],
    ['PriorityClass NotIn, other', byClass('NotIn', ['high']), pod({ priorityClassName: 'low' }), true],
    ['PriorityClass Exists, none', byClass('Exists'), pod(), false],
    ['PriorityClass DoesNotExist, none', byClass('DoesNotExist'), pod(), true],
    ['two scopes, one fails', quota({ scopes: ['NotBestEffort', 'Terminating'] }), pod({}, cpu), false],
    ['a scope this version does not know', quota({ scopes: ['Someday'] }), pod(), 'unknown'],
    [
      'CrossNamespacePodAffinity, a namespace selector',
      quota({ scopes: ['CrossNamespacePodAffinity'] }),
      pod({
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x', namespaceSelector: {} }],
          },
        },
      }),
      true,
    ],
    ['CrossNamespacePodAffinity, none', quota({ scopes: ['CrossNamespacePodAffinity'] }), pod(), false],
  ] as const)('%s', (_name, q, spec, expected) => {
    expect(quotaTakesIn(q, spec)).toBe(expected);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'rd-quota-scopes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two nodes, deployment ml/web (2 replicas of 1 cpu) and a 2-cpu pod beside it; quota `compute` of 4 cpu with `scopes`. */
function dump(scopes: string[]): string {
  const node = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      allocatable: { cpu: '16', memory: '64Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  });
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'app:1', resources: { requests: { cpu: '1' } } }] },
  };
  const running = (name: string, labels: object, cpuAsked: string, owner?: object) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ml',
      uid: `uid-${name}`,
      labels,
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    spec: {
      nodeName: 'n-0',
      containers: [{ name: 'app', image: 'app:1', resources: { requests: { cpu: cpuAsked } } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-aaa', uid: 'uid-rs', controller: true };
  const items = [
    node('n-0'),
    node('n-1'),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'ml', uid: 'uid-web', generation: 1 },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-aaa',
        namespace: 'ml',
        uid: 'uid-rs',
        labels: { app: 'web', 'pod-template-hash': 'aaa' },
        annotations: { 'deployment.kubernetes.io/revision': '1' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true },
        ],
      },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': 'aaa' } }, template },
      status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 },
    },
    running('web-aaa-1', { app: 'web', 'pod-template-hash': 'aaa' }, '1', rs),
    running('web-aaa-2', { app: 'web', 'pod-template-hash': 'aaa' }, '1', rs),
    running('batch-1', { app: 'batch' }, '2'),
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'dns', namespace: 'kube-system' },
      spec: { nodeName: 'n-1', containers: [{ name: 'dns', image: 'dns' }] },
      status: { phase: 'Running' },
    },
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'none', namespace: 'other' },
      spec: { limits: [] },
    },
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'compute', namespace: 'ml' },
      spec: { hard: { 'requests.cpu': '4' }, scopes },
      status: { hard: { 'requests.cpu': '4' }, used: { 'requests.cpu': '4' } },
    },
  ];
  const file = join(dir, `dump-${scopes.join('-') || 'none'}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return file;
}

/** web at 2 cpu a pod, rolled out old pod first: 2 + 2×2 = 6 of 4 cpu wherever the quota charges it. */
function manifest(): string {
  const file = join(dir, 'web.yaml');
  writeFileSync(
    file,
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - {name: app, image: 'app:1', resources: {requests: {cpu: "2"}}}
`,
  );
  return file;
}

async function verdict(scopes: string[]): Promise<{ status: number; verdict: string; code?: string }> {
  const io = fakeIo();
  const status = await runCli(['check', '-f', manifest(), '--from-file', dump(scopes), '-o', 'json'], io.io);
  const result = (JSON.parse(io.stdout()) as { results: { verdict: string; findings: { code: string }[] }[] })
    .results[0];
  return {
    status,
    verdict: result?.verdict ?? '',
    ...(result?.findings[0] ? { code: result.findings[0].code } : {}),
  };
}

describe('check against a scoped quota', () => {
  it('NotBestEffort takes in pods that ask for cpu: their bigger requests never fit', async () => {
    expect(await verdict(['NotBestEffort'])).toMatchObject({
      status: 1,
      verdict: 'never-finishes',
      code: 'QuotaExceeded',
    });
  });

  it('BestEffort takes in none of them: the quota does not hold the rollout', async () => {
    expect(await verdict(['BestEffort'])).toMatchObject({ status: 0, verdict: 'finishes' });
  });
});
