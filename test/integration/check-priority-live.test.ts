/**
 * check reads the PriorityClass a manifest's template names from a live cluster (the
 * simulator, through the same client and RBAC-shaped reads as the webhook): a raised
 * priority finishes by preempting the old pod, said as the outage it is; with the list
 * of priorityclasses refused, not known, never the old priority.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-priority-'));
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
    capacity: { cpu: '2', memory: '8Gi', pods: '110' },
    allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
};

const HIGH = {
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name: 'high' },
  value: 1000000,
};

/** `web`, one replica of 1500m cpu on a 2-cpu node: a surge pod fits only where the old pod is. */
function deployment(image: string, className?: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          ...(className ? { priorityClassName: className } : {}),
          containers: [
            { name: 'web', image, resources: { requests: { cpu: '1500m' }, limits: { cpu: '1500m' } } },
          ],
        },
      },
    },
  };
}

async function started(className?: string): Promise<SimClient> {
  sim = await startSimClient(
    {
      scenario: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
        NODE,
        HIGH,
        deployment('web:1', className),
      ],
      timeScale: 50,
    },
    'check-priority',
  );
  const s = sim;
  await s.sim.settle();
  await s.sim.waitFor(
    () => ((s.sim.get('Deployment', 'shop', 'web') as Json)['status']?.['availableReplicas'] ?? 0) === 1,
    SIGNAL_WAIT_MS,
  );
  return s;
}

async function check(s: SimClient): Promise<{ code: number; result: Json }> {
  const file = join(dir, 'web.yaml');
  writeFileSync(file, stringify(deployment('web:2', 'high')));
  const io = fakeIo();
  const code = await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig, '-o', 'json'], io.io);
  const report = JSON.parse(io.stdout()) as Json;
  return { code, result: report['results'][0] as Json };
}

describe('check: the priority a live cluster gives the new pods', () => {
  it('a raised priority finishes by preempting the only old pod: will finish, the outage said', async () => {
    const { code, result } = await check(await started());
    expect(result['verdict']).toBe('finishes');
    expect(result['findings'][0]['code']).toBe('PreemptionUnderWay');
    expect(result['findings'][0]['summary']).toContain('1 of its 1 old pod(s) stop serving');
    expect(code).toBe(0);
  });

  it('the PriorityClasses cannot be listed: not known', async () => {
    const s = await started();
    s.sim.addFault({ match: { verb: 'list', resource: 'priorityclasses' }, status: 403 });
    const { code, result } = await check(s);
    expect(result['verdict']).toBe('unknown');
    expect(result['findings'][0]['summary']).toContain('PriorityClass high was not read');
    expect(code).toBe(1);
  });
});

describe('diagnose: the PriorityClass a live template names', () => {
  const web = { kind: 'Deployment', namespace: 'shop', name: 'web' } as const;

  it('is read with the workload, so a pod not made yet is admitted at its priority', async () => {
    const s = await started('high');
    const snapshot = await collectSnapshot(s.client, web);
    expect(snapshot.priorityClasses?.map((c) => c.metadata.name)).toContain('high');
    expect(s.sim.requests.some((r) => r.resource === 'priorityclasses')).toBe(true);
  });

  it('is not read for a template naming no class, and a refused read leaves it not read', async () => {
    const plain = await started();
    expect((await collectSnapshot(plain.client, web)).priorityClasses).toBeUndefined();
    expect(plain.sim.requests.some((r) => r.resource === 'priorityclasses')).toBe(false);
    await plain.close();
    sim = undefined;
    const refused = await started('high');
    refused.sim.addFault({ match: { verb: 'list', resource: 'priorityclasses' }, status: 403 });
    expect((await collectSnapshot(refused.client, web)).priorityClasses).toBeUndefined();
  });
});
