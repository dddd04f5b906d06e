/**
 * Small objects for stepped-simulator tests (sim/stepped.ts): a Ready node, and the one
 * stepped simulation a test may hold at a time, stopped after each test.
 */
import { afterEach } from 'vitest';
import { startStepped, type SteppedSim } from '../../sim/stepped.js';

/** A Ready node named `name` with a hostname label (and a zone when given), 16 cpu by default. */
export function readyNode(name: string, options: { cpu?: string; zone?: string } = {}): object {
  const resources = { cpu: options.cpu ?? '16', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        ...(options.zone ? { 'topology.kubernetes.io/zone': options.zone } : {}),
      },
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  };
}

/** Starts stepped simulations for a test file, one at a time, each stopped after its test. */
export function steppedSims(): (objects: readonly unknown[]) => SteppedSim {
  let current: SteppedSim | undefined;
  afterEach(() => {
    current?.stop();
    current = undefined;
  });
  return (objects) => {
    current?.stop();
    current = startStepped(objects);
    return current;
  };
}

/** Deployment shop/web: `replicas` pods labelled app=web, image shop/web:1, 100m cpu each. */
export function webDeployment(replicas: number): {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: { replicas: number; selector: object; template: object };
} {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ name: 'web', image: 'shop/web:1', resources: { requests: { cpu: '100m' } } }],
        },
      },
    },
  };
}
