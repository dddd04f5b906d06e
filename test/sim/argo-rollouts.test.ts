/**
 * The Argo Rollouts CRD and controller of the simulator against argoproj/argo-rollouts
 * (DESIGN.md §4b): discovery only while the CRD is stored, CRUD, watch, the patch types
 * a custom resource takes, the scale subresource; the basic canary's arithmetic
 * (utils/replicaset/canary.go's own examples), its steps and pauses, the GPU surge
 * deadlock and abort through the status subresource; blue-green with preview replicas,
 * a manual promotion and the delayed scale-down; workloadRef and InvalidSpec.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { basicCanaryCounts } from '../../sim/controllers/argo/canary-math.js';
import type { Rollout, RolloutStatus, RS } from '../../sim/controllers/argo/types.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const RO = '/apis/argoproj.io/v1alpha1';

async function call(s: Simulator, method: string, path: string, body?: unknown, type = 'application/json') {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'Content-Type': type },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const node = (name: string, allocatable: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '110', ...allocatable } },
});

const rollout = (name: string, strategy: object, replicas = 4): object => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name, namespace: 'web' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    strategy,
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: 'web:1' }] },
    },
  },
});

const ro = (s: Simulator, name: string, ns = 'web'): Rollout => s.get('Rollout', ns, name) as Rollout;
const status = (s: Simulator, name: string, ns = 'web'): RolloutStatus => ro(s, name, ns).status ?? {};
const condition = (st: RolloutStatus, type: string) => st.conditions?.find((c) => c.type === type);
const sets = (s: Simulator, ns = 'web'): ReplicaSet[] =>
  (s.list('ReplicaSet', ns) as ReplicaSet[]).sort(
    (a, b) =>
      Number(a.metadata.annotations?.['rollout.argoproj.io/revision']) -
      Number(b.metadata.annotations?.['rollout.argoproj.io/revision']),
  );
const sizes = (s: Simulator, ns = 'web'): number[] => sets(s, ns).map((rs) => rs.spec.replicas ?? 0);
const setImage = (
  s: Simulator,
  name: string,
  image: string,
  extra: Record<string, unknown> = {},
  ns = 'web',
) =>
  call(
    s,
    'PATCH',
    `${RO}/namespaces/${ns}/rollouts/${name}`,
    [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
      ...Object.entries(extra).map(([k, value]) => ({ op: 'add', path: `/spec/${k}`, value })),
    ],
    'application/json-patch+json',
  );
const patchStatus = (s: Simulator, name: string, body: string, ns = 'web') =>
  call(s, 'PATCH', `${RO}/namespaces/${ns}/rollouts/${name}/status`, body, 'application/merge-patch+json');
const events = (s: Simulator, reason: string, ns = 'web'): KubeEvent[] =>
  (s.list('Event', ns) as KubeEvent[]).filter(
    (e) => e.reason === reason && e.involvedObject.kind === 'Rollout',
  );

describe('the Rollout CRD as the API server serves it', () => {
  it('is not in discovery without its CRD; with it: rollouts, short name ro, status and scale', async () => {
    const without = await startSimulator({ scenario: [node('n1')], controllers: false });
    try {
      const groups = ((await call(without, 'GET', '/apis')).json['groups'] as { name: string }[]).map(
        (g) => g.name,
      );
      expect(groups).not.toContain('argoproj.io');
      expect((await call(without, 'GET', RO)).status).toBe(404);
      expect((await call(without, 'GET', `${RO}/namespaces/web/rollouts`)).status).toBe(404);
    } finally {
      await without.close();
    }
    const s = await startSimulator({
      scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml',
      controllers: false,
    });
    sim = s;
    const list = (await call(s, 'GET', RO)).json;
    expect(list['resources']).toEqual([
      expect.objectContaining({
        name: 'rollouts',
        singularName: 'rollout',
        kind: 'Rollout',
        namespaced: true,
        shortNames: ['ro'],
      }),
      expect.objectContaining({ name: 'rollouts/status', kind: 'Rollout' }),
      expect.objectContaining({ name: 'rollouts/scale', kind: 'Scale', group: 'autoscaling', version: 'v1' }),
    ]);
    expect(s.get('CustomResourceDefinition', undefined, 'rollouts.argoproj.io')).toBeDefined();
  });

  it('creates, watches, patches (JSON and merge; strategic merge is 415), dry-runs and deletes with its ReplicaSets', async () => {
    const s = await startSimulator({
      scenario: [node('n1'), rollout('api', { canary: {} }, 2)],
      timeScale: 50,
    });
    sim = s;
    const path = `${RO}/namespaces/web/rollouts`;
    const watch = await fetch(`${s.url}${path}?watch=1&timeoutSeconds=1`);
    const dry = await call(s, 'POST', `${path}?dryRun=All`, {
      ...rollout('dry', { canary: {} }),
      metadata: { name: 'dry' },
    });
    expect(dry.status).toBe(201);
    expect(s.get('Rollout', 'web', 'dry')).toBeUndefined();
    const created = await call(s, 'POST', path, {
      ...rollout('shop', { canary: {} }),
      metadata: { name: 'shop' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { generation: 1 },
    });
    const lines = (await watch.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(lines.filter((l) => l.type === 'ADDED').map((l) => l.object.metadata.name)).toEqual(
      expect.arrayContaining(['api', 'shop']),
    );
    const merge = await call(
      s,
      'PATCH',
      `${path}/shop`,
      { spec: { replicas: 3 } },
      'application/merge-patch+json',
    );
    expect(merge.json).toMatchObject({ spec: { replicas: 3 }, metadata: { generation: 2 } });
    const json = await call(
      s,
      'PATCH',
      `${path}/shop`,
      [{ op: 'replace', path: '/spec/replicas', value: 1 }],
      'application/json-patch+json',
    );
    expect(json.status).toBe(200);
    const smp = await call(
      s,
      'PATCH',
      `${path}/shop`,
      { spec: { replicas: 2 } },
      'application/strategic-merge-patch+json',
    );
    expect(smp.status).toBe(415);
    expect(smp.json['message']).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
    await s.waitFor(() => status(s, 'api').phase === 'Healthy');
    const scale = await call(s, 'GET', `${path}/api/scale`);
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'app=api' },
    });
    // Only the status subresource writes status; the main resource keeps it.
    const put = await call(
      s,
      'PATCH',
      `${path}/api`,
      { status: { phase: 'Bogus' } },
      'application/merge-patch+json',
    );
    expect((put.json['status'] as RolloutStatus).phase).toBe('Healthy');
    expect((await call(s, 'DELETE', `${path}/api`)).status).toBe(200);
    await s.waitFor(() =>
      (s.list('ReplicaSet', 'web') as ReplicaSet[]).every((rs) => !rs.metadata.name?.startsWith('api-')),
    );
  });
});

const rsOf = (name: string, replicas: number, available: number): RS =>
  ({
    metadata: { name },
    spec: { replicas },
    status: { replicas, availableReplicas: available },
  }) as unknown as RS;

describe('CalculateReplicaCountsForBasicCanary (cases of utils/replicaset/canary_test.go)', () => {
  // [name, replicas, setWeight, maxSurge, maxUnavailable, stable spec/available, canary spec/available, older, expected stable, expected canary]
  type Case = [
    string,
    number,
    number,
    number | string,
    number | string,
    [number, number],
    [number, number],
    [number, number] | undefined,
    number,
    number,
  ];
  const cases: Case[] = [
    [
      'Do not add extra RSs in scaleDownCount when .Spec.Replica < AvailableReplicas',
      10,
      100,
      3,
      0,
      [7, 8],
      [6, 3],
      undefined,
      7,
      6,
    ],
    ['Use Max Surge and Max Unavailable', 10, 50, 2, 1, [10, 10], [0, 0], undefined, 9, 2],
    ['Use max surge percentage to scale down stableRS', 10, 20, 0, '20%', [10, 10], [0, 0], undefined, 8, 0],
    ['Scale down canaryRS and stable', 10, 30, 0, 3, [8, 5], [4, 4], undefined, 7, 3],
    ['Scale down stable and canary available', 10, 100, 1, 0, [10, 2], [10, 8], undefined, 2, 9],
    ['Scale up Stable before canaryRS', 10, 30, 1, 0, [1, 1], [0, 0], [3, 3], 7, 1],
    [
      'Do not round past maxSurge with uneven setWeight divisor (part 2)',
      10,
      5,
      0,
      1,
      [9, 9],
      [0, 0],
      undefined,
      9,
      1,
    ],
    [
      'Scale stableRS down to zero on >=50 weight without surge',
      1,
      51,
      0,
      1,
      [1, 1],
      [0, 0],
      undefined,
      0,
      0,
    ],
    ['Do not scale canaryRS down to zero on non-zero weight', 1, 20, 1, 0, [1, 1], [0, 0], undefined, 1, 1],
  ];
  it.each(cases)(
    '%s',
    (_name, replicas, weight, maxSurge, maxUnavailable, stable, canary, older, wantStable, wantCanary) => {
      const r = {
        kind: 'Rollout',
        metadata: { name: 'r' },
        spec: {
          replicas,
          strategy: { canary: { maxSurge, maxUnavailable, steps: [{ setWeight: weight }] } },
        },
        status: { stableRS: 'stable', currentPodHash: 'canary', currentStepIndex: 0 },
      } as Rollout;
      const others = older ? [rsOf('older', older[0], older[1])] : [];
      expect(basicCanaryCounts(r, rsOf('canary', ...canary), rsOf('stable', ...stable), others)).toEqual([
        wantCanary,
        wantStable,
      ]);
    },
  );
});

describe('basic canary', () => {
  it('walks setWeight and pause steps: paused until promoted, a timed pause ends by itself, then Healthy', async () => {
    const steps = [{ setWeight: 25 }, { pause: {} }, { setWeight: 75 }, { pause: { duration: '10s' } }];
    const s = await startSimulator({
      scenario: [node('n1'), node('n2'), rollout('web', { canary: { steps } })],
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => status(s, 'web').phase === 'Healthy');
    expect((await setImage(s, 'web', 'web:2')).status).toBe(200);
    await s.waitFor(() => status(s, 'web').phase === 'Paused');
    const paused = status(s, 'web');
    expect(paused).toMatchObject({
      message: 'CanaryPauseStep',
      currentStepIndex: 1,
      controllerPause: true,
      pauseConditions: [{ reason: 'CanaryPauseStep', startTime: expect.any(String) }],
    });
    expect(condition(paused, 'Paused')).toMatchObject({
      status: 'True',
      reason: 'RolloutPaused',
      message: 'Rollout is paused',
    });
    // 25% of 4: one canary beside three stable (maxSurge 25%: one pod over, maxUnavailable 25%: one under).
    expect(sizes(s)).toEqual([3, 1]);
    expect(sets(s).map((rs) => rs.metadata.labels?.['rollouts-pod-template-hash'])).toEqual([
      paused.stableRS,
      paused.currentPodHash,
    ]);
    expect(events(s, 'RolloutStepCompleted').map((e) => e.message)).toEqual([
      'Rollout step 1/4 completed (setWeight: 25)',
    ]);
    // kubectl argo rollouts promote clears the pause condition.
    expect((await patchStatus(s, 'web', '{"status":{"pauseConditions":null}}')).status).toBe(200);
    await s.waitFor(() => status(s, 'web').phase === 'Healthy', SIGNAL_WAIT_MS);
    const done = status(s, 'web');
    expect(done).toMatchObject({
      currentStepIndex: 4,
      stableRS: done.currentPodHash,
      replicas: 4,
      availableReplicas: 4,
    });
    expect(sizes(s)).toEqual([0, 4]);
    expect(condition(done, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });
    expect(events(s, 'RolloutCompleted').at(-1)?.message).toBe(
      `Rollout completed update to revision 2 (${done.currentPodHash ?? ''}): Completed all 4 canary steps`,
    );
  });

  it('deadlocks on the GPU the stable pod holds, is Degraded past the deadline, and aborts through the status', async () => {
    const s = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 100 });
    sim = s;
    const name = 'vision-object-tracker';
    await s.waitFor(() => status(s, name, 'vision').phase === 'Healthy');
    const stable = status(s, name, 'vision').stableRS;
    const set = await setImage(
      s,
      name,
      'vision/boost-track-app:1.1',
      { progressDeadlineSeconds: 120 },
      'vision',
    );
    expect(set.status).toBe(200);
    await s.waitFor(() => status(s, name, 'vision').phase === 'Degraded', SIGNAL_WAIT_MS);
    const stuck = status(s, name, 'vision');
    const canaryRS = sets(s, 'vision').at(-1);
    expect(stuck).toMatchObject({
      stableRS: stable,
      currentStepIndex: 0,
      message: `ProgressDeadlineExceeded: ReplicaSet "${canaryRS?.metadata.name ?? ''}" has timed out progressing.`,
    });
    expect(condition(stuck, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    });
    expect(sizes(s, 'vision')).toEqual([1, 1]);
    expect(canaryRS?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Rollout',
      name,
      controller: true,
    });
    const pending = (s.list('Pod', 'vision') as Pod[]).filter((p) => !p.spec.nodeName);
    expect(pending).toHaveLength(1);
    const failed = (s.list('Event', 'vision') as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === pending[0]?.metadata.name,
    );
    expect(failed?.message).toContain('Insufficient nvidia.com/gpu');
    // kubectl argo rollouts abort: a merge patch of {"status":{"abort":true}} on the status subresource.
    expect((await patchStatus(s, name, '{"status":{"abort":true}}', 'vision')).status).toBe(200);
    await s.waitFor(() => status(s, name, 'vision').message?.startsWith('RolloutAborted') === true);
    await s.waitFor(() => sizes(s, 'vision')[1] === 0);
    const aborted = status(s, name, 'vision');
    expect(aborted).toMatchObject({
      abort: true,
      phase: 'Degraded',
      message: 'RolloutAborted: Rollout aborted update to revision 2',
      abortedAt: expect.any(String),
    });
    expect(events(s, 'RolloutAborted', 'vision')[0]).toMatchObject({
      type: 'Warning',
      message: 'Rollout aborted update to revision 2',
    });
    await s.waitFor(() => (s.list('Pod', 'vision') as Pod[]).length === 1);
  });
});

describe('blue-green', () => {
  const svc = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  });
  const strategy = {
    blueGreen: {
      activeService: 'active',
      previewService: 'preview',
      previewReplicaCount: 1,
      autoPromotionEnabled: false,
    },
  };
  const selectorOf = (s: Simulator, name: string) =>
    (s.get('Service', 'web', name) as { spec: { selector: Record<string, string> } }).spec.selector[
      'rollouts-pod-template-hash'
    ];

  it('previews one pod, pauses until promoted, switches the active Service, scales the old set down after the delay', async () => {
    const s = await startSimulator({
      scenario: [node('n1'), svc('active'), svc('preview'), rollout('web', strategy, 2)],
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => status(s, 'web').phase === 'Healthy');
    const blue = status(s, 'web').stableRS;
    expect(selectorOf(s, 'active')).toBe(blue);
    expect(await setImage(s, 'web', 'web:2')).toMatchObject({ status: 200 });
    await s.waitFor(() => status(s, 'web').phase === 'Paused');
    const green = status(s, 'web').currentPodHash;
    expect(status(s, 'web')).toMatchObject({
      message: 'BlueGreenPause',
      blueGreen: { activeSelector: blue, previewSelector: green },
      stableRS: blue,
    });
    expect(sizes(s)).toEqual([2, 1]);
    expect(selectorOf(s, 'preview')).toBe(green);
    expect((await patchStatus(s, 'web', '{"status":{"pauseConditions":null}}')).status).toBe(200);
    await s.waitFor(() => selectorOf(s, 'active') === green);
    await s.waitFor(() => status(s, 'web').stableRS === green);
    // The old set keeps its pods for scaleDownDelaySeconds (30 s) after the switch.
    expect(sets(s)[0]?.metadata.annotations?.['scale-down-deadline']).toEqual(expect.any(String));
    expect(sizes(s)).toEqual([2, 2]);
    await s.waitFor(() => sizes(s)[0] === 0, SIGNAL_WAIT_MS);
    expect(status(s, 'web')).toMatchObject({
      phase: 'Healthy',
      blueGreen: { activeSelector: green, previewSelector: green },
    });
    expect(events(s, 'SwitchService').map((e) => e.message)).toContain(
      `Switched selector for service 'active' from '${blue ?? ''}' to '${green ?? ''}'`,
    );
  });
});

describe('workloadRef and invalid specs', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'legacy', namespace: 'web' },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'legacy' } },
      template: {
        metadata: { labels: { app: 'legacy' } },
        spec: { containers: [{ name: 'c', image: 'legacy:1' }] },
      },
    },
  };
  const byRef = (name: string, target: string) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name, namespace: 'web' },
    spec: {
      replicas: 1,
      workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      strategy: { canary: {} },
    },
  });

  it('takes the template and selector of the Deployment a workloadRef names; a missing one is InvalidSpec', async () => {
    const s = await startSimulator({
      scenario: [node('n1'), deployment, byRef('migrated', 'legacy'), byRef('broken', 'missing')],
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => status(s, 'migrated').phase === 'Healthy');
    expect(status(s, 'migrated').workloadObservedGeneration).toBe('1');
    expect(ro(s, 'migrated').metadata.annotations?.['rollout.argoproj.io/workload-generation']).toBe('1');
    const rs = (s.list('ReplicaSet', 'web') as ReplicaSet[]).find(
      (r) => r.metadata.ownerReferences?.[0]?.name === 'migrated',
    );
    expect(rs?.spec.template?.spec?.containers[0]?.image).toBe('legacy:1');
    await s.waitFor(() => status(s, 'broken').phase === 'Degraded');
    expect(status(s, 'broken').message).toBe(
      'InvalidSpec: The Rollout "broken" is invalid: spec.workloadRef: Invalid value: v1alpha1.ObjectRef{APIVersion:"apps/v1", Kind:"Deployment", Name:"missing", ScaleDown:""}: deployments.apps "missing" not found',
    );
  });

  it('refuses a blue-green Rollout whose active Service does not exist', async () => {
    const s = await startSimulator({
      scenario: [node('n1'), rollout('web', { blueGreen: { activeService: 'nope' } }, 1)],
      timeScale: 50,
    });
    sim = s;
    await s.waitFor(() => status(s, 'web').phase === 'Degraded');
    expect(condition(status(s, 'web'), 'InvalidSpec')).toMatchObject({
      status: 'True',
      reason: 'InvalidSpec',
      message:
        'The Rollout "web" is invalid: spec.strategy.blueGreen.activeService: Invalid value: "nope": service "nope" not found',
    });
    expect(s.list('ReplicaSet', 'web')).toEqual([]);
  });
});
