/**
 * The test's own moves on a simulator, sent over HTTP as a developer's kubectl would
 * (so they appear in the simulator's request record like any client's).
 */
import { expect } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import type { DaemonSet } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/** Rolls the seed tracker out to its next image and waits for the scheduler's first FailedScheduling. */
export async function shipTrackerImage(sim: Simulator, tracker: WorkloadRef): Promise<void> {
  const res = await fetch(
    `${sim.url}/apis/apps/v1/namespaces/${tracker.namespace}/deployments/${tracker.name}`,
    {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({
        spec: {
          template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } },
        },
      }),
    },
  );
  expect(res.status).toBe(200);
  await sim.waitFor(
    () => (sim.list('Event', tracker.namespace) as KubeEvent[]).some((e) => e.reason === 'FailedScheduling'),
    SIGNAL_WAIT_MS,
  );
}

/** The seed node agent (sim/scenarios/node-agent-surge.yaml): a hostPort DaemonSet with maxSurge 1. */
export const NODE_AGENT: WorkloadRef = { kind: 'DaemonSet', namespace: 'telemetry', name: 'node-agent' };

/** Waits until the DaemonSet's pod is available on every node it wants (its own status says so). */
export async function daemonSetSettled(sim: Simulator, ref: WorkloadRef = NODE_AGENT): Promise<void> {
  await sim.waitFor(() => {
    const status = (sim.get('DaemonSet', ref.namespace, ref.name) as DaemonSet | undefined)?.status;
    const desired = status?.desiredNumberScheduled ?? 0;
    return desired > 0 && status?.numberAvailable === desired && status.updatedNumberScheduled === desired;
  }, SIGNAL_WAIT_MS);
}

/**
 * Rolls a DaemonSet's container out to another image, as `kubectl set image ds/NAME`
 * does, and waits for the scheduler's first FailedScheduling in its namespace (the
 * surge pod refused on its node).
 */
export async function shipDaemonSetImage(
  sim: Simulator,
  ref: WorkloadRef = NODE_AGENT,
  container = 'agent',
  image = 'registry.example.com/telemetry/node-agent:1.9.0',
): Promise<void> {
  const res = await fetch(`${sim.url}/apis/apps/v1/namespaces/${ref.namespace}/daemonsets/${ref.name}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify({ spec: { template: { spec: { containers: [{ name: container, image }] } } } }),
  });
  expect(res.status).toBe(200);
  await sim.waitFor(
    () => (sim.list('Event', ref.namespace) as KubeEvent[]).some((e) => e.reason === 'FailedScheduling'),
    SIGNAL_WAIT_MS,
  );
}
