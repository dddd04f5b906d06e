/**
 * The early warning's list-then-watch over the real Kubernetes client and the
 * simulator: changes arrive as watch events; after the API server restarts the stream
 * resumes from its resourceVersion; when the server answers 410 Gone it re-lists and
 * carries on, and the tracker still raises the signal of a pod that changed meanwhile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { createKubeClient } from '../../src/kube/client.js';
import { SignalTracker, type Signal } from '../../src/worker/early-warning/signals.js';
import { emptyStats, kubeListWatch, runListWatch } from '../../src/worker/early-warning/stream.js';
import { waitUntil } from '../support/wait.js';

let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ew-stream-it-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/crashloop-node.yaml', controllers: false });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const until = (what: string, condition: () => boolean): Promise<true> => waitUntil(what, condition);

/** A pod of the checkout Deployment as the ReplicaSet controller creates it. */
function checkoutPod(name: string, restarts: number): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      labels: { app: 'checkout', 'pod-template-hash': '6b8f7d9c4' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'checkout-6b8f7d9c4',
          uid: 'rs-uid',
          controller: true,
        },
      ],
    },
    spec: { nodeName: 'node-b', containers: [{ name: 'checkout', image: 'shop/checkout:2.4.1' }] },
    status: {
      phase: 'Running',
      containerStatuses: [{ name: 'checkout', restartCount: restarts, ready: false, state: { running: {} } }],
    },
  };
}

describe('list-then-watch on the simulator', () => {
  it('resumes after an API server restart and re-lists after 410 Gone without losing a change', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file, retry: { attempts: 2, baseMs: 5, maxMs: 10 } });
    sim.apply(checkoutPod('checkout-6b8f7d9c4-t4k2p', 0));
    const tracker = new SignalTracker();
    const signals: Signal[] = [];
    let listed = false;
    const stats = emptyStats();
    const abort = new AbortController();
    const done = runListWatch(
      kubeListWatch(client),
      { resource: 'pods', namespace: 'shop' },
      {
        onListPage(items, first, last) {
          if (first) tracker.beginList();
          signals.push(...tracker.listPage(items, !listed));
          if (last) {
            tracker.endList('shop');
            listed = true;
          }
        },
        onEvent: (e) => signals.push(...tracker.onPod(e.type, e.object)),
      },
      {
        signal: abort.signal,
        stats,
        logger: { warn: () => undefined, debug: () => undefined },
        backoffMs: () => 20,
      },
    );
    try {
      await until('watching', () => stats.open === 1);
      expect(tracker.size).toBe(1);

      // A change arrives over the watch.
      sim.apply(checkoutPod('checkout-6b8f7d9c4-t4k2p', 1));
      await until('restart signal', () => signals.length === 1);
      expect(signals[0]).toMatchObject({ kind: 'Deployment', name: 'checkout', reason: 'Restarts' });

      // API server restart: the stream resumes from where it was, no list.
      await sim.restartApiServer({ downMs: 100 });
      await until('resumed', () => stats.watches >= 2 && stats.open === 1);
      expect(stats.lists).toBe(1);

      // The next watch is answered 410 Gone; meanwhile the pod crashed again.
      sim.addFault({ match: { verb: 'watch', resource: 'pods' }, status: 410, times: 1 });
      const restarting = sim.restartApiServer({ downMs: 300 });
      sim.apply(checkoutPod('checkout-6b8f7d9c4-t4k2p', 2));
      await restarting;
      await until('re-listed', () => stats.relists410 === 1 && stats.open === 1);
      expect(stats.lists).toBe(2);
      // The change made while the stream was away is raised from the re-list.
      await until('second restart signal', () => signals.length === 2);
      expect(signals[1]).toMatchObject({ pod: 'checkout-6b8f7d9c4-t4k2p', reason: 'Restarts' });
    } finally {
      abort.abort();
      await done;
    }
  });
});
