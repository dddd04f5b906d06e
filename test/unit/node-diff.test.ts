import { describe, expect, it } from 'vitest';
import { diffNodes, findSeparator } from '../../src/diagnosis/crash/node-diff.js';
import { makeNode } from '../support/k8s-builders.js';

describe('diffNodes', () => {
  it('ranks a bad condition, then architecture, kernel, runtime and OS image, then taints, then labels', () => {
    const bad = makeNode('node-b', {
      arch: 'arm64',
      osImage: 'Bottlerocket OS 1.20.0 (aws-k8s-1.29)',
      kernelVersion: '6.1.82',
      containerRuntimeVersion: 'containerd://1.6.31+bottlerocket',
      ready: false,
      taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      labels: { 'node.kubernetes.io/instance-type': 'm7g.large', 'example.com/team': 'vision' },
    });
    const good = ['node-a', 'node-c'].map((n) =>
      makeNode(n, {
        labels: { 'node.kubernetes.io/instance-type': 'm6i.large', 'example.com/team': 'core' },
      }),
    );
    expect(diffNodes([bad], good)).toEqual([
      { field: 'condition Ready', bad: 'False', good: 'True', category: 'condition' },
      { field: 'architecture', bad: 'arm64', good: 'amd64', category: 'cpu' },
      { field: 'kernelVersion', bad: '6.1.82', good: '5.15.0-105-generic', category: 'kernel' },
      {
        field: 'containerRuntimeVersion',
        bad: 'containerd://1.6.31+bottlerocket',
        good: 'containerd://1.7.13',
        category: 'runtime',
      },
      {
        field: 'osImage',
        bad: 'Bottlerocket OS 1.20.0 (aws-k8s-1.29)',
        good: 'Ubuntu 22.04.4 LTS',
        category: 'os',
      },
      { field: 'taints', bad: 'node.kubernetes.io/not-ready:NoExecute', good: '(none)', category: 'taints' },
      { field: 'label example.com/team', bad: 'vision', good: 'core', category: 'label' },
      // Coincidental: the kind of machine, not what runs on it.
      {
        field: 'label node.kubernetes.io/instance-type',
        bad: 'm7g.large',
        good: 'm6i.large',
        category: 'coincidental',
      },
    ]);
  });

  it('reports a field only when no bad value appears on a good node', () => {
    const bad = [
      makeNode('node-b', { kernelVersion: '6.8.0-1009-aws', kubeletVersion: 'v1.30.1' }),
      makeNode('node-d', { kernelVersion: '6.8.0-1009-aws', kubeletVersion: 'v1.29.4' }),
    ];
    const good = [makeNode('node-a'), makeNode('node-c', { kubeletVersion: 'v1.30.1' })];
    expect(diffNodes(bad, good)).toEqual([
      { field: 'kernelVersion', bad: '6.8.0-1009-aws', good: '5.15.0-105-generic', category: 'kernel' },
    ]);
  });

  it('lists distinct bad values when the bad nodes differ among themselves but all differ from the good ones', () => {
    const bad = [
      makeNode('node-b', { kernelVersion: '6.8.0' }),
      makeNode('node-d', { kernelVersion: '6.9.1' }),
    ];
    const good = [makeNode('node-a')];
    expect(diffNodes(bad, good)).toEqual([
      { field: 'kernelVersion', bad: '6.8.0, 6.9.1', good: '5.15.0-105-generic', category: 'kernel' },
    ]);
  });

  it('reads every condition: a node-problem-detector KernelDeadlock comes first, above the instance type and OS image', () => {
    const bad = makeNode('gpu-7', {
      osImage: 'Ubuntu 24.04.1 LTS',
      labels: { 'node.kubernetes.io/instance-type': 'g6.xlarge' },
    });
    bad.status?.conditions?.push(
      {
        type: 'KernelDeadlock',
        status: 'True',
        reason: 'DockerHung',
        message: 'task docker:7 blocked for more than 120 seconds.',
      },
      { type: 'ReadonlyFilesystem', status: 'False', reason: 'FilesystemIsNotReadOnly' },
    );
    const good = ['gpu-1', 'gpu-2'].map((n) => {
      const node = makeNode(n, { labels: { 'node.kubernetes.io/instance-type': 'g5.xlarge' } });
      node.status?.conditions?.push(
        { type: 'KernelDeadlock', status: 'False', reason: 'KernelHasNoDeadlock' },
        { type: 'ReadonlyFilesystem', status: 'False', reason: 'FilesystemIsNotReadOnly' },
      );
      return node;
    });
    expect(diffNodes([bad], good).map((d) => `${d.field}=${d.bad}`)).toEqual([
      'condition KernelDeadlock=True',
      'osImage=Ubuntu 24.04.1 LTS',
      'label node.kubernetes.io/instance-type=g6.xlarge',
    ]);
  });

  it('ranks CPU feature labels (node-feature-discovery) with the architecture, before the kernel', () => {
    const bad = makeNode('node-old', {
      kernelVersion: '6.8.0-1009-aws',
      labels: { 'feature.node.kubernetes.io/cpu-cpuid.AVX': 'true' },
    });
    const good = makeNode('node-new', {
      labels: {
        'feature.node.kubernetes.io/cpu-cpuid.AVX': 'true',
        'feature.node.kubernetes.io/cpu-cpuid.AVX2': 'true',
      },
    });
    expect(diffNodes([bad], [good])).toEqual([
      {
        field: 'label feature.node.kubernetes.io/cpu-cpuid.AVX2',
        bad: '(none)',
        good: 'true',
        category: 'cpu',
      },
      { field: 'kernelVersion', bad: '6.8.0-1009-aws', good: '5.15.0-105-generic', category: 'kernel' },
    ]);
  });

  it('skips the hostname and labels that name each node (instance ids)', () => {
    const nodes = ['node-a', 'node-b', 'node-c'].map((n, i) =>
      makeNode(n, { labels: { 'example.com/instance-id': `i-0${i}` } }),
    );
    const [bad, ...good] = nodes;
    expect(diffNodes(bad ? [bad] : [], good)).toEqual([]);
  });

  it('notices a pressure condition and a cordon', () => {
    const bad = makeNode('node-b', { unschedulable: true });
    bad.status?.conditions?.push({ type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure' });
    const good = makeNode('node-a');
    good.status?.conditions?.push({
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
    });
    expect(diffNodes([bad], [good]).map((d) => `${d.field}=${d.bad}`)).toEqual([
      'condition DiskPressure=True',
      'unschedulable=true',
    ]);
  });

  it('returns nothing without nodes on both sides', () => {
    expect(diffNodes([makeNode('node-b', { arch: 'arm64' })], [])).toEqual([]);
  });
});

describe('findSeparator', () => {
  it('names the best ranked attribute, and the separating label to exclude by', () => {
    const bad = ['n-1', 'n-2', 'n-3'].map((n) =>
      makeNode(n, { osImage: 'Ubuntu 24.04.1 LTS', labels: { 'example.com/image': 'ubuntu-2404-v3' } }),
    );
    const good = [makeNode('n-4', { labels: { 'example.com/image': 'ubuntu-2204-v9' } })];
    expect(findSeparator(bad, good)).toEqual({
      fields: ['osImage'],
      bad: [['Ubuntu 24.04.1 LTS']],
      good: [['Ubuntu 22.04.4 LTS']],
      category: 'os',
      label: { key: 'example.com/image', values: ['ubuntu-2404-v3'] },
      // The label separates as well: named with it (issue 29.5).
      also: [{ field: 'label example.com/image', bad: ['ubuntu-2404-v3'], good: ['ubuntu-2204-v9'] }],
    });
    expect(findSeparator(bad, good, (f) => f.startsWith('label '))).toEqual({
      fields: ['label example.com/image'],
      bad: [['ubuntu-2404-v3']],
      good: [['ubuntu-2204-v9']],
      category: 'label',
      label: { key: 'example.com/image', values: ['ubuntu-2404-v3'] },
      also: [{ field: 'osImage', bad: ['Ubuntu 24.04.1 LTS'], good: ['Ubuntu 22.04.4 LTS'] }],
    });
  });

  it('finds a pair when no single attribute separates (arm64 with the new kernel), and none when only identity differs', () => {
    const bad = [
      makeNode('a-1', { arch: 'arm64', kernelVersion: '6.8.0' }),
      makeNode('a-2', { arch: 'arm64', kernelVersion: '6.8.0' }),
    ];
    const good = [
      makeNode('a-3', { arch: 'arm64', kernelVersion: '6.1.0' }),
      makeNode('x-1', { arch: 'amd64', kernelVersion: '6.8.0' }),
    ];
    expect(findSeparator(bad, good)?.fields).toEqual(['architecture', 'kernelVersion']);
    // A label absent from a bad node cannot be excluded with NotIn; a zone is not a cause.
    const zoned = bad.map((n, i) =>
      makeNode(n.metadata.name ?? '', {
        osImage: 'Ubuntu 24.04.1 LTS',
        labels: {
          'topology.kubernetes.io/zone': 'eu-west-1b',
          ...(i === 0 ? { 'example.com/tier': 'x' } : {}),
        },
      }),
    );
    const other = makeNode('z-1', { labels: { 'topology.kubernetes.io/zone': 'eu-west-1a' } });
    const found = findSeparator(zoned, [other]);
    expect(found?.fields).toEqual(['osImage']);
    expect(found?.label).toBeUndefined();
    const same = ['s-1', 's-2', 's-3', 's-4'].map((n) => makeNode(n));
    expect(findSeparator(same.slice(0, 3), same.slice(3))).toBeUndefined();
  });
});
