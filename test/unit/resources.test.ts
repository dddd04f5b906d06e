import { describe, expect, it } from 'vitest';
import type { PodSpec } from '../../src/diagnosis/k8s.js';
import {
  containerRequests,
  isExtendedResource,
  nodeAllocatable,
  podRequests,
} from '../../src/diagnosis/base/resources.js';
import { quotaCharge } from '../../src/diagnosis/base/quota-charge.js';
import { makeNode } from '../support/k8s-builders.js';

describe('pod-level resources (PodLevelResources, on by default since 1.34)', () => {
  const app = { name: 'app', resources: { requests: { cpu: '100m', memory: '64Mi', 'nvidia.com/gpu': 1 } } };
  it('take the place of the containers for cpu and memory; extended resources stay the containers', () => {
    const spec: PodSpec = { containers: [app], resources: { requests: { cpu: '1', memory: '1Gi' } } };
    expect(podRequests(spec)).toEqual({ cpu: 1000, memory: 1024 ** 3, 'nvidia.com/gpu': 1 });
  });
  it('a pod-level limit alone is the request where no container requests it, else the containers sum', () => {
    const limitOnly: PodSpec = {
      containers: [{ name: 'app', resources: { requests: { memory: '64Mi' } } }],
      resources: { limits: { cpu: '2', memory: '1Gi' } },
    };
    expect(podRequests(limitOnly)).toEqual({ cpu: 2000, memory: 64 * 1024 ** 2 });
  });
  it('the other arm: without spec.resources the containers and the overhead count, as before', () => {
    expect(podRequests({ containers: [app], overhead: { cpu: '250m' } })).toEqual({
      cpu: 350,
      memory: 64 * 1024 ** 2,
      'nvidia.com/gpu': 1,
    });
    expect(
      podRequests({ containers: [app], overhead: { cpu: '250m' }, resources: { requests: { cpu: '1' } } })
        .cpu,
    ).toBe(1250);
  });
  it('a quota counts the pod-level limit as the pod limit', () => {
    const spec: PodSpec = { containers: [app], resources: { limits: { cpu: '3' } } };
    expect(quotaCharge(spec, 'limits.cpu')).toBe(3000);
    expect(quotaCharge({ containers: [app] }, 'limits.cpu')).toBe(0);
  });
});

describe('pod effective requests', () => {
  it('requests default to limits (extended resources and cpu/memory)', () => {
    expect(
      containerRequests({
        name: 'a',
        resources: { limits: { 'nvidia.com/gpu': 1, cpu: '2', memory: '1Gi' } },
      }),
    ).toEqual({
      'nvidia.com/gpu': 1,
      cpu: 2000,
      memory: 1024 ** 3,
    });
    expect(
      containerRequests({ name: 'a', resources: { limits: { cpu: '2' }, requests: { cpu: '500m' } } }),
    ).toEqual({ cpu: 500 });
  });

  it('is max(sum of containers, largest init container) plus overhead', () => {
    const spec: PodSpec = {
      containers: [
        { name: 'a', resources: { requests: { cpu: '500m', memory: '256Mi' } } },
        { name: 'b', resources: { requests: { cpu: '250m' } } },
      ],
      initContainers: [
        { name: 'migrate', resources: { requests: { cpu: '2', memory: '128Mi' } } },
        { name: 'warm', resources: { requests: { memory: '1Gi' } } },
      ],
      overhead: { cpu: '100m', memory: '10Mi' },
    };
    expect(podRequests(spec)).toEqual({ cpu: 2100, memory: 1024 ** 3 + 10 * 1024 ** 2 });
  });

  it('counts sidecars (restartable init containers) with the app and with later init steps', () => {
    const spec: PodSpec = {
      containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }],
      initContainers: [
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } },
        { name: 'setup', resources: { requests: { cpu: '3' } } },
      ],
    };
    expect(podRequests(spec)).toEqual({ cpu: 3200 });
  });

  it('reads node allocatable and recognises extended resources', () => {
    expect(nodeAllocatable(makeNode('n', { allocatable: { 'nvidia.com/gpu': '4' } }))).toMatchObject({
      cpu: 8000,
      'nvidia.com/gpu': 4,
      pods: 110,
    });
    expect(isExtendedResource('nvidia.com/gpu')).toBe(true);
    expect(isExtendedResource('example.com/foo')).toBe(true);
    expect(isExtendedResource('cpu')).toBe(false);
    expect(isExtendedResource('hugepages-2Mi')).toBe(false);
    expect(isExtendedResource('kubernetes.io/batch')).toBe(false);
  });
});
