/**
 * The simulated kubelet's graceful stop, pinned against kubelet kuberuntime_container.go
 * killContainer: the preStop hook runs first and is cut off when the grace period ends
 * (executePreStopHook), what it used comes off the grace period, and the container then
 * gets SIGTERM with at least minimumGracePeriodInSeconds (2) left. Until it has stopped the
 * pod stays Terminating and holds its node's room.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { stopSeconds } from '../../sim/controllers/kubelet.js';
import { startStepped } from '../../sim/stepped.js';

const pod = (preStop?: object, containers = 1): Pod =>
  ({
    metadata: { name: 'p' },
    spec: {
      containers: Array.from({ length: containers }, (_, i) => ({
        name: `c${i}`,
        image: 'x:1',
        ...(preStop && i === 0 ? { lifecycle: { preStop } } : {}),
      })),
    },
  }) as Pod;

describe('graceful stop in the simulated kubelet', () => {
  it('runs the preStop hook inside the grace period, then gives SIGTERM at least 2 s', () => {
    // No hook: the app stops in 2 s, or is killed when the grace runs out.
    expect(stopSeconds(pod(), 30)).toBe(2);
    expect(stopSeconds(pod(), 1)).toBe(1);
    // sleep action and exec `sleep N` alike; the hook's time comes off the grace period.
    expect(stopSeconds(pod({ sleep: { seconds: 40 } }), 90)).toBe(42);
    expect(stopSeconds(pod({ exec: { command: ['sleep', '40'] } }), 90)).toBe(42);
    expect(stopSeconds(pod({ exec: { command: ['/bin/sh', '-c', 'echo bye'] } }), 90)).toBe(2);
    // A hook longer than the grace period is cut off there; SIGTERM still gets its 2 s floor.
    expect(stopSeconds(pod({ sleep: { seconds: 240 } }), 90)).toBe(92);
    // Containers stop in parallel: the pod takes as long as its slowest.
    expect(stopSeconds(pod({ sleep: { seconds: 15 } }, 3), 90)).toBe(17);
    // A forced delete (no grace left) stops at once.
    expect(stopSeconds(pod({ sleep: { seconds: 15 } }), 0)).toBe(0);
  });

  it('keeps a deleted pod Terminating, holding its host port, until its preStop hook and stop are done', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n', labels: { 'kubernetes.io/hostname': 'n' } },
        status: {
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'old', namespace: 'shop' },
        spec: {
          nodeName: 'n',
          terminationGracePeriodSeconds: 90,
          containers: [
            {
              name: 'web',
              image: 'web:1',
              ports: [{ containerPort: 8080, hostPort: 8080 }],
              lifecycle: { preStop: { sleep: { seconds: 40 } } },
            },
          ],
        },
      },
    ]);
    try {
      sim.advance(10);
      sim.delete('Pod', 'shop', 'old');
      sim.advance(41);
      const held = sim.get('Pod', 'shop', 'old') as Pod | undefined;
      expect(held?.metadata.deletionTimestamp).toBeDefined();
      sim.advance(2);
      expect(sim.get('Pod', 'shop', 'old')).toBeUndefined();
    } finally {
      sim.stop();
    }
  });
});
