/**
 * The test's own moves on a simulator, sent over HTTP as a developer's kubectl would
 * (so they appear in the simulator's request record like any client's).
 */
import { expect } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import type { KubeEvent } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot.js';

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
    15_000,
  );
}
