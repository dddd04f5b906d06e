/**
 * check judges the new pods through admission (issue 64.1): a template a ResourceQuota
 * refuses outright (no `requests.cpu` where the quota limits it) can never finish, the
 * quota named, unless a LimitRange's default sets the request first; a LimitRange that
 * refuses it (a limit past its max) likewise, the LimitRange named; with the LimitRanges
 * not readable, not known. Each against the simulator with the real kubectl: what check
 * says, then `kubectl apply` of the same manifest, and the ReplicaSet's FailedCreate (or
 * the finished rollout) as check said.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { kubectlIn } from '../support/kubectl-run.js';
import { runCli } from '../../src/cli/run-cli.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-admission-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-a', labels: { 'kubernetes.io/hostname': 'node-a', 'kubernetes.io/os': 'linux' } },
  status: {
    capacity: { cpu: '8', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '8', memory: '16Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
};

const QUOTA = {
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'compute', namespace: 'shop' },
  spec: { hard: { 'requests.cpu': '4', pods: '10' } },
};

function limitRange(item: Json): Json {
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'bounds', namespace: 'shop' },
    spec: { limits: [{ type: 'Container', ...item }] },
  };
}

/** `web`: 1 replica; `resources` as given (none: no requests at all). */
function deployment(image: string, resources?: Json): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image, ...(resources ? { resources } : {}) }] },
      },
    },
  };
}

const LIVE = deployment('web:1', { requests: { cpu: '500m' }, limits: { cpu: '500m' } });

function write(name: string, object: Json): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(object));
  return file;
}

/**
 * The cluster, and `web` created by `kubectl apply` (so its last-applied configuration
 * lists the requests, and a manifest that drops them removes them, as check judges).
 */
async function started(extra: Json[]): Promise<SimClient> {
  sim = await startSimClient(
    {
      scenario: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, NODE, QUOTA, ...extra],
      timeScale: 50,
    },
    'check-admission',
  );
  const s = sim;
  await s.sim.settle();
  await apply(s, write('web-live.yaml', LIVE));
  await s.sim.waitFor(
    () => ((s.sim.get('Deployment', 'shop', 'web') as Json)['status']?.['availableReplicas'] ?? 0) === 1,
    SIGNAL_WAIT_MS,
  );
  return s;
}

async function check(s: SimClient, file: string): Promise<{ code: number; result: Json }> {
  const io = fakeIo();
  const code = await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig, '-o', 'json'], io.io);
  const report = JSON.parse(io.stdout()) as Json;
  expect(report['results']).toHaveLength(1);
  return { code, result: report['results'][0] as Json };
}

async function apply(s: SimClient, file: string): Promise<void> {
  const run = await kubectlIn(s.kubeconfig, 'shop', ['apply', '-f', file]);
  if (run.code !== 0) throw new Error(`kubectl apply: ${run.stderr}`);
}

function failedCreate(s: SimClient, text: string): boolean {
  return (s.sim.list('Event', 'shop') as Json[]).some(
    (e) => e['reason'] === 'FailedCreate' && String(e['message']).includes(text),
  );
}

function runsImage(s: SimClient, image: string): boolean {
  const d = s.sim.get('Deployment', 'shop', 'web') as Json;
  const pods = (s.sim.list('Pod', 'shop') as Json[]).filter((p) => !p['metadata']['deletionTimestamp']);
  return (
    d['status']?.['updatedReplicas'] === 1 &&
    d['status']?.['availableReplicas'] === 1 &&
    pods.length === 1 &&
    pods[0]?.['spec']['containers'][0]['image'] === image
  );
}

describe('check: new pods through admission', () => {
  it('a template without requests.cpu where a quota limits it: refused by the quota, and the apply fails to create', async () => {
    const s = await started([]);
    const file = write('web-no-requests.yaml', deployment('web:2'));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('AdmissionDenied');
    expect(result['findings'][0]['summary']).toContain(
      'ResourceQuota compute refuses every new pod (failed quota: compute: must specify requests.cpu for: web)',
    );
    expect(result['fix']).toBeUndefined();

    await apply(s, file);
    await s.sim.waitFor(
      () => failedCreate(s, 'failed quota: compute: must specify requests.cpu'),
      SIGNAL_WAIT_MS,
    );
  });

  it('the same template where a LimitRange defaults the request: finishes, and the apply rolls out', async () => {
    const s = await started([limitRange({ defaultRequest: { cpu: '250m' }, default: { cpu: '500m' } })]);
    const file = write('web-defaulted.yaml', deployment('web:2'));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('finishes');
    expect(code).toBe(0);

    await apply(s, file);
    await s.sim.waitFor(() => runsImage(s, 'web:2'), SIGNAL_WAIT_MS);
  });

  it('a LimitRange default the quota cannot hold beside the old pod: the default counted, a surge deadlock on the quota', async () => {
    const s = await started([limitRange({ defaultRequest: { cpu: '3800m' }, default: { cpu: '3800m' } })]);
    const file = write('web-big-default.yaml', deployment('web:2'));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('RolloutSurgeDeadlock');
    expect(result['fix']['words']).toBe('maxSurge 0, maxUnavailable 1');

    await apply(s, file);
    await s.sim.waitFor(() => failedCreate(s, 'exceeded quota: compute'), SIGNAL_WAIT_MS);
  });

  it('a limit past the LimitRange max: refused by the LimitRange, and the apply fails to create', async () => {
    const s = await started([limitRange({ max: { cpu: '1' } })]);
    const file = write('web-big.yaml', deployment('web:2', { requests: { cpu: '2' }, limits: { cpu: '2' } }));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('AdmissionDenied');
    expect(result['findings'][0]['summary']).toContain(
      'LimitRange bounds refuses every new pod (maximum cpu usage per Container is 1, but limit is 2.)',
    );

    await apply(s, file);
    await s.sim.waitFor(
      () => failedCreate(s, 'maximum cpu usage per Container is 1, but limit is 2'),
      SIGNAL_WAIT_MS,
    );
  });

  it('a LimitRange default limit below the request the template sets: every new pod invalid, the LimitRange named, and the apply fails to create', async () => {
    const s = await started([limitRange({ default: { cpu: '500m' } })]);
    const file = write('web-over-default.yaml', deployment('web:2', { requests: { cpu: '1' } }));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('AdmissionDenied');
    expect(result['findings'][0]['summary']).toContain(
      'LimitRange bounds refuses every new pod (Pod is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m)',
    );

    await apply(s, file);
    await s.sim.waitFor(
      () =>
        failedCreate(
          s,
          'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
        ),
      SIGNAL_WAIT_MS,
    );
  });

  it('the same request under a default limit above it: finishes, and the apply rolls out', async () => {
    const s = await started([limitRange({ default: { cpu: '2' } })]);
    const file = write('web-under-default.yaml', deployment('web:2', { requests: { cpu: '1' } }));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('finishes');
    expect(code).toBe(0);

    await apply(s, file);
    await s.sim.waitFor(() => runsImage(s, 'web:2'), SIGNAL_WAIT_MS);
  });

  it('the LimitRanges cannot be read: not known, never "will finish"', async () => {
    const s = await started([]);
    s.sim.addFault({ match: { verb: 'list', resource: 'limitranges' }, status: 403 });
    const { code, result } = await check(s, write('web-unread.yaml', deployment('web:2')));
    expect(result['verdict']).toBe('unknown');
    expect(result['findings'][0]['summary']).toContain(
      'ResourceQuota compute requires requests.cpu for: web',
    );
    expect(code).not.toBe(0);
  });
});
