/**
 * check judges a template that may go anywhere on a sample of the nodes first: only a
 * "finishes" stands on the sample. Here the nodes a sample takes first are full and the
 * room is past them: the answer must still be "finishes" (asked again on every node),
 * and a cluster with no room anywhere "can never finish". The webhook's cached view
 * serves the last window's reads while the next window reads in the background.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RENEW_UNUSED_MS, cachedView } from '../../src/admission/cached-source.js';
import { checkOne } from '../../src/check/check.js';
import { liveSource } from '../../src/check/live-source.js';
import { SAMPLE_NODES } from '../../src/check/sampling.js';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';

let sim: SimClient | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const NODES = SAMPLE_NODES + 10;

function node(name: string): object {
  const resources = { cpu: '2', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function filler(name: string, nodeName: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'other' },
    spec: { nodeName, containers: [{ name: 'a', image: 'a:1', resources: { requests: { cpu: '2' } } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** Every node full but the last `free` (by name: the ones a sample takes last). */
function cluster(free: number): object[] {
  const names = Array.from({ length: NODES }, (_, i) => `node-${String(i).padStart(3, '0')}`);
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
    ...names.map(node),
    ...names.slice(0, NODES - free).map((n, i) => filler(`filler-${i}`, n)),
  ];
}

const web: WorkloadObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'a', image: 'web:1', resources: { requests: { cpu: '1' } } }] },
    },
  },
} as unknown as WorkloadObject;

describe('check on a sample of the nodes', () => {
  it('finds the room past the sample: a "no" on the sample is asked again on every node', async () => {
    sim = await startSimClient({ scenario: cluster(1), controllers: false }, 'sampling');
    const result = await checkOne(
      { kind: 'Deployment', object: web, isNew: true },
      liveSource(sim.client),
      'shop',
    );
    expect(result.verdict).toBe('finishes');
  });

  it('with no room anywhere, can never finish', async () => {
    sim = await startSimClient({ scenario: cluster(0), controllers: false }, 'sampling');
    const result = await checkOne(
      { kind: 'Deployment', object: web, isNew: true },
      liveSource(sim.client),
      'shop',
    );
    expect(result.verdict).toBe('never-finishes');
    expect(result.findings[0]?.code).toBe('Unschedulable');
  });
});

describe("the webhook's cached view", () => {
  it('serves the last reads while the next window reads, then the new ones; never older than two windows', async () => {
    sim = await startSimClient({ scenario: cluster(1), controllers: false }, 'sampling');
    let now = 0;
    const view = cachedView(sim.client, 1000, () => now);
    await view.warmUp();
    const first = view.source();
    view.touch('shop'); // as a review of the namespace does
    await first.snapshot('Deployment', web, { sample: true });
    now = 1500;
    sim.sim.clearRequests();
    // The window is over: this review is still judged on the first reads, and the next window reads.
    expect(view.source()).toBe(first);
    await sim.sim.waitFor(() => view.source() !== first);
    const second = view.source();
    // The next window read what the first did (nodes, the namespace, the sample's pods) before taking over.
    expect(sim.sim.requests.some((r) => r.resource === 'nodes')).toBe(true);
    expect(sim.sim.requests.some((r) => r.resource === 'pods' && r.namespace === 'shop')).toBe(true);
    sim.sim.clearRequests();
    await second.snapshot('Deployment', web, { sample: true });
    expect(sim.sim.requests).toEqual([]);
  });

  it('renews only the namespaces reviewed lately: one nobody applied to for minutes is not read again', async () => {
    sim = await startSimClient({ scenario: cluster(1), controllers: false }, 'sampling');
    let now = 0;
    const view = cachedView(sim.client, RENEW_UNUSED_MS, () => now);
    await view.warmUp();
    view.touch('shop');
    const first = view.source();
    await first.snapshot('Deployment', web, { sample: true });
    now = RENEW_UNUSED_MS + 1;
    sim.sim.clearRequests();
    expect(view.source()).toBe(first);
    await sim.sim.waitFor(() => view.source() !== first);
    expect(sim.sim.requests.some((r) => r.resource === 'nodes')).toBe(true);
    expect(sim.sim.requests.filter((r) => r.namespace === 'shop')).toEqual([]);
  });
});
