/**
 * ResourceQuota and LimitRange admission as kube-apiserver words it (DESIGN.md §4b):
 * the quota plugin's refusal, the ReplicaSet controller's FailedCreate event and
 * ReplicaFailure condition (copied to the Deployment), client-go's "(combined from
 * similar events)" aggregation, quota status, and LimitRanger defaults and bounds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { formatQuantity, parseQuantity, addQuantities } from '../../sim/admission/quantity.js';
import type { Condition, KubeEvent } from '../../src/diagnosis/k8s.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } },
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } },
};

const quota = (hard: Record<string, string>, name = 'compute'): object => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name, namespace: 'ns' },
  spec: { hard },
});

const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns' },
  spec: {
    replicas: 2,
    strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'web:1',
            resources: { requests: { cpu: '500m' }, limits: { memory: '512Mi' } },
          },
        ],
      },
    },
  },
};

async function send(s: Simulator, method: string, path: string, body?: unknown, type = 'application/json') {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'Content-Type': type },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const rsConditions = (rs: ReplicaSet | undefined): Condition[] | undefined =>
  (rs?.status as { conditions?: Condition[] } | undefined)?.conditions;
const failure = (conditions: Condition[] | undefined): Condition | undefined =>
  conditions?.find((c) => c.type === 'ReplicaFailure');

describe('resource.Quantity as the API server prints it', () => {
  it.each([
    ['500m', '500m'],
    ['1.5', '1500m'],
    ['2000m', '2'],
    ['1000', '1k'],
    ['1536Mi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['512', '512'],
    ['1e3', '1e3'],
  ])('%s prints as %s', (input, printed) => {
    expect(formatQuantity(parseQuantity(input))).toBe(printed);
  });

  it('adds in the first operand’s format, or the second’s when the first is zero', () => {
    expect(formatQuantity(addQuantities(parseQuantity('512Mi'), parseQuantity('512Mi')))).toBe('1Gi');
    expect(formatQuantity(addQuantities(parseQuantity('0'), parseQuantity('512Mi')))).toBe('512Mi');
    expect(formatQuantity(addQuantities(parseQuantity('500m'), parseQuantity('500m')))).toBe('1');
  });
});

describe('ResourceQuota admission', () => {
  it('refuses the surge pod with the quota plugin’s text; the ReplicaSet and the Deployment say so', async () => {
    const s = await startSimulator({
      scenario: [node, quota({ 'requests.cpu': '1', 'limits.memory': '1Gi', pods: '10' }), web],
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => (s.get('Deployment', 'ns', 'web') as Deployment).status?.availableReplicas === 2);
    await s.settle();
    const q = s.get('ResourceQuota', 'ns', 'compute') as { status?: { hard?: object; used?: object } };
    expect(q.status).toEqual({
      hard: { 'requests.cpu': '1', 'limits.memory': '1Gi', pods: '10' },
      used: { 'requests.cpu': '1', 'limits.memory': '1Gi', pods: '2' },
    });
    const image = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'web:2' }];
    const patched = await send(
      s,
      'PATCH',
      '/apis/apps/v1/namespaces/ns/deployments/web',
      image,
      'application/json-patch+json',
    );
    expect(patched.status).toBe(200);
    const newRS = (): ReplicaSet | undefined =>
      (s.list('ReplicaSet', 'ns') as ReplicaSet[]).find(
        (rs) => rs.spec.template?.spec?.containers[0]?.image === 'web:2',
      );
    await s.waitFor(() => failure(rsConditions(newRS())) !== undefined);
    const rsName = newRS()?.metadata.name ?? '';
    const expected = new RegExp(
      `^pods "${rsName}-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: limits\\.memory=512Mi,requests\\.cpu=500m, used: limits\\.memory=1Gi,requests\\.cpu=1, limited: limits\\.memory=1Gi,requests\\.cpu=1$`,
    );
    const rsFailure = failure(rsConditions(newRS()));
    expect(rsFailure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    expect(rsFailure?.message).toMatch(expected);
    const warnings = (s.list('Event', 'ns') as KubeEvent[]).filter(
      (e) => e.reason === 'FailedCreate' && e.involvedObject.name === rsName,
    );
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ type: 'Warning', source: { component: 'replicaset-controller' } });
    expect(warnings[0]?.message).toMatch(new RegExp(`^Error creating: ${expected.source.slice(1)}`));
    expect(s.list('Pod', 'ns')).toHaveLength(2);
    await s.waitFor(
      () => failure((s.get('Deployment', 'ns', 'web') as Deployment).status?.conditions) !== undefined,
    );
    const copied = failure((s.get('Deployment', 'ns', 'web') as Deployment).status?.conditions);
    expect(copied).toMatchObject({ status: 'True', reason: 'FailedCreate', message: rsFailure?.message });
    expect(copied?.lastUpdateTime).toBe(rsFailure?.lastTransitionTime);
  });

  it('folds the 10th distinct refusal within 10 minutes into "(combined from similar events)" (client-go EventAggregator)', async () => {
    const s = await startSimulator({
      scenario: [node, quota({ pods: '0' }), { ...web, spec: { ...web.spec, replicas: 1 } }],
      timeScale: 50,
    });
    sim = s;
    const failed = (): KubeEvent[] =>
      (s.list('Event', 'ns') as KubeEvent[]).filter((e) => e.reason === 'FailedCreate');
    await s.waitFor(
      () => failed().some((e) => (e.count ?? 0) >= 2 && e.message?.startsWith('(combined')),
      SIGNAL_WAIT_MS,
    );
    const plain = failed().filter((e) => !e.message?.startsWith('(combined'));
    const combined = failed().filter((e) => e.message?.startsWith('(combined'));
    expect(plain).toHaveLength(9);
    expect(new Set(plain.map((e) => e.message)).size).toBe(9);
    expect(combined).toHaveLength(1);
    expect(combined[0]?.message).toMatch(
      /^\(combined from similar events\): Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=0, limited: pods=0$/,
    );
  });

  it('asks every container for cpu when a quota limits it, answers 403, and charges nothing for a dry run', async () => {
    const s = await startSimulator({
      scenario: [node, quota({ 'requests.cpu': '1', 'count/configmaps': '1' })],
    });
    sim = s;
    await s.settle();
    const pod = (name: string, resources: object) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns' },
      spec: {
        containers: [
          { name: 'a', image: 'x:1', resources },
          { name: 'b', image: 'x:1' },
        ],
      },
    });
    const bare = await send(
      s,
      'POST',
      '/api/v1/namespaces/ns/pods',
      pod('bare', { requests: { cpu: '100m' } }),
    );
    expect(bare.status).toBe(403);
    expect(bare.json).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "bare" is forbidden: failed quota: compute: must specify requests.cpu for: b',
    });
    const dry = await send(s, 'POST', '/api/v1/namespaces/ns/pods?dryRun=All', {
      ...pod('dry', { requests: { cpu: '600m' } }),
      spec: { containers: [{ name: 'a', image: 'x:1', resources: { requests: { cpu: '600m' } } }] },
    });
    expect(dry.status).toBe(201);
    expect(
      (s.get('ResourceQuota', 'ns', 'compute') as { status: { used: object } }).status.used,
    ).toMatchObject({
      'requests.cpu': '0',
    });
    const cm = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'ns' },
    });
    expect((await send(s, 'POST', '/api/v1/namespaces/ns/configmaps', cm('one'))).status).toBe(201);
    const two = await send(s, 'POST', '/api/v1/namespaces/ns/configmaps', cm('two'));
    expect(two.status).toBe(403);
    expect(two.json['message']).toBe(
      'configmaps "two" is forbidden: exceeded quota: compute, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1',
    );
  });
});

describe('LimitRange admission', () => {
  const limits = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults', namespace: 'ns' },
    spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, max: { memory: '1Gi' } }] },
  };

  it('defaults requests and limits (annotated), then refuses a container over max', async () => {
    const s = await startSimulator({ scenario: [node, limits], controllers: false });
    sim = s;
    const stored = s.get('LimitRange', 'ns', 'defaults') as { spec: { limits: object[] } };
    // SetDefaults_LimitRangeItem: default limit from max, default request from the default limit.
    expect(stored.spec.limits[0]).toMatchObject({
      default: { cpu: '500m', memory: '1Gi' },
      defaultRequest: { cpu: '500m', memory: '1Gi' },
    });
    const pod = (name: string, resources: object) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns' },
      spec: { containers: [{ name: 'app', image: 'x:1', resources }] },
    });
    const small = await send(
      s,
      'POST',
      '/api/v1/namespaces/ns/pods',
      pod('small', { requests: { memory: '256Mi' } }),
    );
    expect(small.status).toBe(201);
    expect(small.json).toMatchObject({
      metadata: {
        annotations: {
          'kubernetes.io/limit-ranger':
            'LimitRanger plugin set: cpu request for container app; cpu, memory limit for container app',
        },
      },
      spec: {
        containers: [
          {
            resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
          },
        ],
      },
      status: { qosClass: 'Burstable' },
    });
    const big = await send(
      s,
      'POST',
      '/api/v1/namespaces/ns/pods',
      pod('big', { limits: { memory: '2Gi' } }),
    );
    expect(big.status).toBe(403);
    expect(big.json['message']).toBe(
      'pods "big" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi.',
    );
  });
});
