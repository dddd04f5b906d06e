/**
 * A live diagnosis reads the Deployment of a neighbour mid-rollout (collector.ts round 5,
 * neighbour-deployments-read.ts), as a dump holds it: whether it is paused decides whether
 * its old pods go (forward/job-wait.ts). Read, the verdict waits for it without a hedge;
 * paused short of its replicas, it promises no wait; refused, it says the Deployment was
 * not read. A neighbour not mid-rollout costs no request.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../sim/index.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { createKubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/neighbour-rollout-under-way.json');
const ALPHA: WorkloadRef = { kind: 'Deployment', namespace: 'ml', name: 'alpha' };
const dir = mkdtempSync(join(tmpdir(), 'rd-neighbour-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = { kind: string; metadata: { name?: string }; spec?: Record<string, unknown> };

const items = (edit: (items: Item[]) => Item[] = (i) => i): object[] =>
  edit((JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Item[] }).items);
const isBeta = (i: Item): boolean => i.kind === 'Deployment' && i.metadata.name === 'beta';

/**
 * Collects alpha live from a simulator holding `scenario`; `refuse` answers beta's GET with
 * 403. `gets`: the GETs of `resource` (the kind of neighbour read).
 */
async function live(
  scenario: object[],
  refuse = false,
  resource: 'deployments' | 'rollouts' = 'deployments',
) {
  const sim = await startSimulator({ scenario, controllers: false });
  try {
    const file = join(dir, `kubeconfig-${String(Math.random()).slice(2)}`);
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file, retry: { attempts: 1, baseMs: 5, maxMs: 5 } });
    if (refuse) sim.addFault({ match: { verb: 'get', resource, name: 'beta' }, status: 403 });
    sim.clearRequests();
    const snapshot = await collectSnapshot(client, ALPHA);
    const gets = sim.requests
      .filter((r) => r.verb === 'get' && r.resource === resource)
      .map((r) => `${r.namespace ?? ''}/${r.name ?? ''}`);
    const lead = diagnose(snapshot).findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    return { snapshot, gets, lead };
  } finally {
    await sim.close();
  }
}

describe('a neighbour Deployment mid-rollout, diagnosed live', () => {
  it('is read with one GET and the wait is said without the not-read hedge, as from a dump', async () => {
    const { snapshot, gets, lead } = await live(items());
    expect(gets).toEqual(['ml/alpha', 'ml/beta']);
    expect(snapshot.neighbourDeployments).toEqual([{ name: 'ml/beta', paused: false, replicas: 1 }]);
    expect(lead?.waitsFor).toEqual({ holders: 'rollouts', names: ['ml/beta'], some: false });
    expect(lead?.summary).not.toContain('not read');
  });

  it('paused with its newest ReplicaSet short of its replicas: no wait is promised', async () => {
    const paused = items((all) =>
      all.map((i) => (isBeta(i) ? { ...i, spec: { ...i.spec, paused: true, replicas: 2 } } : i)),
    );
    const { lead } = await live(paused);
    expect(lead?.waitsFor).toBeUndefined();
    expect(lead?.summary).toContain('can never finish');
  });

  it('refused: an access problem, and the words say its Deployment was not read', async () => {
    const { snapshot, lead } = await live(items(), true);
    expect(snapshot.neighbourDeployments).toEqual([]);
    expect(snapshot.accessProblems).toMatchObject([{ verb: 'get', resource: 'deployments', status: 403 }]);
    expect(lead?.summary).toContain('its Deployment was not read');
  });

  it('a neighbour with pods of one ReplicaSet is read too (it may be scaling down); none read costs no request', async () => {
    // beta's old ReplicaSet and pod gone: its rollout is over, its spec asks for its one pod.
    const done = items((all) =>
      all.filter((i) => !['beta-b1', 'beta-b1-x1'].includes(i.metadata.name ?? '')),
    );
    const { snapshot, gets, lead } = await live(done);
    expect(gets).toEqual(['ml/alpha', 'ml/beta']);
    expect(snapshot.neighbourDeployments).toEqual([{ name: 'ml/beta', paused: false, replicas: 1 }]);
    expect(lead?.waitsFor).toBeUndefined();
    // No neighbour pod at all: nothing to read.
    const alone = items((all) => all.filter((i) => !(i.metadata.name ?? '').startsWith('beta')));
    const quiet = await live(alone);
    expect(quiet.gets).toEqual(['ml/alpha']);
    expect(quiet.snapshot.neighbourDeployments).toBeUndefined();
  });
});

describe('a neighbour Argo Rollout mid-update, diagnosed live', () => {
  const ARGO = join(import.meta.dirname, '../fixtures/dumps/neighbour-argo-rollout-under-way.json');
  const argoItems = (): object[] => (JSON.parse(readFileSync(ARGO, 'utf8')) as { items: object[] }).items;
  const liveArgo = (refuse: boolean) => live(argoItems(), refuse, 'rollouts');

  it('is read with one GET, and its update, which waits for nobody, is waited for', async () => {
    const { snapshot, gets, lead } = await liveArgo(false);
    expect(gets).toEqual(['ml/beta']);
    expect(snapshot.neighbourRollouts).toEqual([
      { name: 'ml/beta', endsByItself: true, replicas: 1, currentPodHash: 'b2' },
    ]);
    expect(lead?.waitsFor).toEqual({
      holders: 'rollouts',
      names: ['ml/beta'],
      some: false,
      argo: ['ml/beta'],
    });
  });

  it('refused: an access problem, and a Rollout not read frees nothing', async () => {
    const { snapshot, lead } = await liveArgo(true);
    expect(snapshot.neighbourRollouts).toEqual([]);
    expect(snapshot.accessProblems).toMatchObject([{ verb: 'get', resource: 'rollouts', status: 403 }]);
    expect(lead?.waitsFor).toBeUndefined();
    expect(lead?.summary).toContain('can never finish');
  });
});

describe('a neighbour Deployment scaling down, diagnosed live', () => {
  const DOWN = join(import.meta.dirname, '../fixtures/dumps/neighbour-scaling-down.json');
  const downItems = (): Item[] => (JSON.parse(readFileSync(DOWN, 'utf8')) as { items: Item[] }).items;
  const hpa = (min: number, max: number): object => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'beta', namespace: 'ml', uid: 'hpa-beta' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'beta' },
      minReplicas: min,
      maxReplicas: max,
    },
  });

  it('its Deployment is read with one GET and the scale-down is waited for, as from a dump', async () => {
    const { snapshot, lead } = await live(downItems());
    expect(snapshot.neighbourDeployments).toEqual([{ name: 'ml/beta', paused: false, replicas: 1 }]);
    expect(snapshot.neighbourAutoscalers).toEqual([]);
    expect(lead?.waitsFor).toMatchObject({ holders: 'scale-downs', names: ['ml/beta'] });
  });

  it('its autoscaler, read from the namespace, bounds what stays: up to its max, whatever the spec says', async () => {
    // maxReplicas 2: it may raise the spec back to both pods at any sync, so nothing is promised.
    const raised = await live([...downItems(), hpa(1, 2)]);
    expect(raised.snapshot.neighbourAutoscalers).toEqual([{ target: 'ml/beta', min: 1, max: 2 }]);
    expect(raised.lead?.waitsFor).toBeUndefined();
    expect(raised.lead?.summary).toContain('can never finish');
    // maxReplicas 1 with the spec at both pods: the autoscaler lowers it at its next sync.
    const lowered = await live([
      ...downItems().map((i) =>
        i.kind === 'Deployment' && i.metadata.name === 'beta'
          ? { ...i, spec: { ...i.spec, replicas: 2 } }
          : i,
      ),
      hpa(1, 1),
    ]);
    expect(lowered.lead?.waitsFor).toMatchObject({ holders: 'scale-downs', names: ['ml/beta'] });
  });
});
