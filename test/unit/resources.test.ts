import { describe, expect, it } from 'vitest';
import type { PodSpec } from '../../src/diagnosis/k8s.js';
import {
  containerRequests,
  isExtendedResource,
  nodeAllocatable,
  podRequests,
} from '../../src/diagnosis/base/resources.js';
import { makeNode } from '../support/k8s-builders.js';

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
