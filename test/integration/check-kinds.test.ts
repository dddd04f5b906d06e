/**
 * `check` on StatefulSets and Argo Rollouts (issue 56 items 1 and 2: every kind judged
 * as Deployments are, through the same forward model), against the simulator with its
 * controllers: a StatefulSet whose next pod cannot fit on the node it is pinned to
 * (full, OrderedReady) can never finish and no strategy helps; its image bump, whose new
 * pod takes the old one's room, finishes. The seed incident as an Argo canary: the
 * canary pod needs the GPU the stable pod holds (a surge deadlock, with the canary's
 * bounds as the fix); with those bounds it finishes; a canary asking for more GPUs than
 * the node has fits nowhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import { kubectlIn } from '../support/kubectl-run.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { answerReview } from '../../src/admission/review-handler.js';
import { createAdmissionMetrics } from '../../src/admission/metrics.js';
import { liveSource } from '../../src/check/live-source.js';
import { createLogger } from '../../src/logger.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-kinds-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(name: string, cpu: string): Json {
  const resources = { cpu, memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** A pod of another team that takes `cpu` on `nodeName`. */
function neighbour(name: string, nodeName: string, cpu: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'other' },
    spec: { nodeName, containers: [{ name: 'a', image: 'other:1', resources: { requests: { cpu } } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** `ledger`: 2 replicas pinned to node-a (4 CPU, 1 taken by a neighbour), 1 CPU each, OrderedReady. */
function statefulSet(cpu = '1', image = 'ledger:1'): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'ledger', namespace: 'bank' },
    spec: {
      replicas: 2,
      serviceName: 'ledger',
      selector: { matchLabels: { app: 'ledger' } },
      template: {
        metadata: { labels: { app: 'ledger' } },
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'node-a' },
          containers: [{ name: 'ledger', image, resources: { requests: { cpu } } }],
        },
      },
    },
  };
}

function write(name: string, manifest: Json): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(manifest));
  return file;
}

async function check(file: string): Promise<{ code: number; report: Json; stderr: string }> {
  const io = fakeIo('');
  const kubeconfig = sim?.kubeconfig ?? '';
  const code = await runCli(['check', '-f', file, '--kubeconfig', kubeconfig, '-o', 'json'], io.io);
  return { code, report: JSON.parse(io.stdout() || '{}') as Json, stderr: io.stderr() };
}

function only(report: Json): Json {
  expect(report['results']).toHaveLength(1);
  return report['results'][0] as Json;
}

describe('check: StatefulSets', () => {
  async function started(): Promise<SimClient> {
    sim = await startSimClient(
      {
        scenario: [
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bank' } },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
          node('node-a', '4'),
          node('node-b', '4'),
          neighbour('batch', 'node-a', '1'),
          statefulSet(),
        ],
        timeScale: 50,
      },
      'check-kinds',
    );
    const s = sim.sim;
    await s.settle();
    await s.waitFor(
      () => ((s.get('StatefulSet', 'bank', 'ledger') as Json)['status']?.['readyReplicas'] ?? 0) === 2,
    );
    return sim;
  }

  it('a next pod that cannot fit on the full node it is pinned to: can never finish, no strategy helps', async () => {
    await started();
    // 2 CPU each: the first new pod takes its old pod's room and one more CPU, the last; the second finds none.
    const { code, report } = await check(write('ledger-bigger.yaml', statefulSet('2', 'ledger:2')));
    expect(code).toBe(1);
    const result = only(report);
    expect(result['target']).toEqual({ kind: 'StatefulSet', namespace: 'bank', name: 'ledger' });
    expect(result['verdict']).toBe('never-finishes');
    expect(result['findings'][0]['code']).toBe('Unschedulable');
    expect(result['fix']).toBeUndefined();
  });

  it('its image bump, whose new pods take the old ones’ room one by one, finishes (exit 0)', async () => {
    await started();
    const { code, report } = await check(write('ledger-image.yaml', statefulSet('1', 'ledger:2')));
    expect(only(report)['verdict']).toBe('finishes');
    expect(code).toBe(0);
  });
});

describe('check: Argo Rollouts (basic canary)', () => {
  async function started(): Promise<SimClient> {
    sim = await startSimClient(
      { scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 50 },
      'kinds',
    );
    const s = sim.sim;
    await s.settle();
    await s.waitFor(() => {
      const rollout = s.list('Rollout', 'vision')[0] as Json | undefined;
      return (rollout?.['status']?.['availableReplicas'] ?? 0) === 1;
    });
    return sim;
  }

  /** The live Rollout as its manifest: the image bumped, the rest as `change` makes it. */
  function bumped(change: (r: Json) => void = () => undefined): Json {
    const live = structuredClone(sim?.sim.list('Rollout', 'vision')[0]) as Json;
    const manifest: Json = {
      apiVersion: live['apiVersion'],
      kind: 'Rollout',
      metadata: { name: live['metadata']['name'], namespace: 'vision' },
      spec: live['spec'],
    };
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    change(manifest);
    return manifest;
  }

  it('the canary pod needs the GPU the stable pod holds: a surge deadlock, with the canary bounds as the fix', async () => {
    await started();
    const { code, report } = await check(write('rollout-bump.yaml', bumped()));
    expect(code).toBe(1);
    const result = only(report);
    expect(result['target']['kind']).toBe('Rollout');
    expect(result['verdict']).toBe('never-finishes');
    expect(result['findings'][0]['code']).toBe('RolloutSurgeDeadlock');
    expect(result['fix']['words']).toBe('canary maxSurge 0, maxUnavailable 1');
    expect(result['fix']['patch']['body']).toEqual({
      spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } },
    });
  });

  it('with the bounds it prints, the same bump finishes (exit 0)', async () => {
    await started();
    const safe = bumped((m) =>
      Object.assign(m['spec']['strategy']['canary'], { maxSurge: 0, maxUnavailable: 1 }),
    );
    const { code, report } = await check(write('rollout-safe.yaml', safe));
    expect(only(report)['verdict']).toBe('finishes');
    expect(code).toBe(0);
  });

  it('the admission webhook warns about the same bump, naming the canary fix', async () => {
    const s = await started();
    const live = structuredClone(s.sim.list('Rollout', 'vision')[0]) as Json;
    const metrics = createAdmissionMetrics();
    const answer = await answerReview(
      {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'argo-1',
          kind: { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout' },
          resource: { group: 'argoproj.io', version: 'v1alpha1', resource: 'rollouts' },
          namespace: 'vision',
          operation: 'UPDATE',
          object: { ...live, spec: bumped()['spec'] },
          oldObject: live,
        },
      },
      {
        source: () => liveSource(s.client),
        refuses: () => Promise.resolve(false),
        budgetMs: 10_000,
        metrics,
        logger: createLogger({ level: 'silent', name: 'check-kinds' }),
      },
    );
    expect(answer.outcome).toBe('warned');
    const warnings = (answer.body as { response: { warnings: string[] } }).response.warnings;
    expect(warnings[0]).toMatch(
      /^rollout-doctor: rollout of rollout\/\S+ can never finish; canary maxSurge 0/,
    );
  });

  it('canary pods asking for more GPUs than any node has fit nowhere: no strategy helps', async () => {
    await started();
    const greedy = bumped((m) => {
      const container = m['spec']['template']['spec']['containers'][0];
      container['resources'] = { limits: { 'nvidia.com/gpu': '2' }, requests: { 'nvidia.com/gpu': '2' } };
    });
    const { code, report } = await check(write('rollout-greedy.yaml', greedy));
    expect(code).toBe(1);
    const result = only(report);
    expect(result['verdict']).toBe('never-finishes');
    expect(result['findings'][0]['code']).toBe('Unschedulable');
    expect(result['fix']).toBeUndefined();
  });
});

describe('check: Argo Rollouts (blue-green)', () => {
  /** The seed tracker as a blue-green Rollout: the preview pod needs the GPU the active one holds. */
  function scenario(): Json[] {
    const docs = parseAllDocuments(readFileSync('sim/scenarios/gpu-deadlock-rollout.yaml', 'utf8'))
      .map((d) => d.toJS() as Json)
      .filter((d) => d && typeof d === 'object');
    const rollout = docs.find((d) => d['kind'] === 'Rollout') as Json;
    rollout['spec']['strategy'] = { blueGreen: { activeService: 'tracker', autoPromotionEnabled: true } };
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'tracker', namespace: 'vision' },
      spec: { selector: { app: 'vision-object-tracker' }, ports: [{ port: 80, targetPort: 8004 }] },
    };
    return [...docs, service];
  }

  it('its preview pod needs the GPU the active pod keeps until promotion: can never finish, and no canary block as the fix', async () => {
    sim = await startSimClient({ scenario: scenario(), timeScale: 50 }, 'kinds-bg');
    const s = sim;
    await s.sim.settle();
    await s.sim.waitFor(
      () =>
        ((s.sim.list('Rollout', 'vision')[0] as Json | undefined)?.['status']?.['availableReplicas'] ?? 0) ===
        1,
    );
    const live = structuredClone(s.sim.list('Rollout', 'vision')[0]) as Json;
    const manifest: Json = {
      apiVersion: live['apiVersion'],
      kind: 'Rollout',
      metadata: { name: live['metadata']['name'], namespace: 'vision' },
      spec: live['spec'],
    };
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    const file = write('rollout-bg.yaml', manifest);
    const { code, report } = await check(file);
    expect(code).toBe(1);
    const result = only(report);
    expect(result['verdict']).toBe('never-finishes');
    expect(result['fix']).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain('canary');
    expect(result['findings'][0]['summary']).toContain(
      'with blue-green every stable pod stays until the new revision is promoted',
    );

    // Applied, the preview pod waits for the GPU the active pod keeps.
    const run = await kubectlIn(s.kubeconfig, 'vision', ['apply', '-f', file]);
    expect(run.code).toBe(0);
    await s.sim.waitFor(
      () =>
        (s.sim.list('Pod', 'vision') as Json[]).some(
          (p) =>
            !p['spec']['nodeName'] &&
            p['spec']['containers'][0]['image'] === 'vision/boost-track-app:1.1' &&
            /Insufficient nvidia.com\/gpu/.test(
              (p['status']?.['conditions'] ?? []).find((c: Json) => c['type'] === 'PodScheduled')?.[
                'message'
              ] ?? '',
            ),
        ),
      SIGNAL_WAIT_MS,
    );
  });
});
