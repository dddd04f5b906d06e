import { describe, expect, it } from 'vitest';
import { diffNodes } from '../../src/diagnosis/node-diff.js';
import { makeNode } from '../support/k8s-builders.js';

describe('diffNodes', () => {
  it('ranks architecture, OS image, kernel and runtime before conditions, taints and labels', () => {
    const bad = makeNode('node-b', {
      arch: 'arm64',
      osImage: 'Bottlerocket OS 1.20.0 (aws-k8s-1.29)',
      kernelVersion: '6.1.82',
      containerRuntimeVersion: 'containerd://1.6.31+bottlerocket',
      ready: false,
      taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      labels: { 'node.kubernetes.io/instance-type': 'm7g.large' },
    });
    const good = ['node-a', 'node-c'].map((n) =>
      makeNode(n, { labels: { 'node.kubernetes.io/instance-type': 'm6i.large' } }),
    );
    expect(diffNodes([bad], good)).toEqual([
      { field: 'architecture', bad: 'arm64', good: 'amd64' },
      { field: 'osImage', bad: 'Bottlerocket OS 1.20.0 (aws-k8s-1.29)', good: 'Ubuntu 22.04.4 LTS' },
      { field: 'kernelVersion', bad: '6.1.82', good: '5.15.0-105-generic' },
      {
        field: 'containerRuntimeVersion',
        bad: 'containerd://1.6.31+bottlerocket',
        good: 'containerd://1.7.13',
      },
      { field: 'condition Ready', bad: 'False', good: 'True' },
      { field: 'taints', bad: 'node.kubernetes.io/not-ready:NoExecute', good: '(none)' },
      { field: 'label node.kubernetes.io/instance-type', bad: 'm7g.large', good: 'm6i.large' },
    ]);
  });

  it('reports a field only when no bad value appears on a good node', () => {
    const bad = [
      makeNode('node-b', { kernelVersion: '6.8.0-1009-aws', kubeletVersion: 'v1.30.1' }),
      makeNode('node-d', { kernelVersion: '6.8.0-1009-aws', kubeletVersion: 'v1.29.4' }),
    ];
    const good = [makeNode('node-a'), makeNode('node-c', { kubeletVersion: 'v1.30.1' })];
    expect(diffNodes(bad, good)).toEqual([
      { field: 'kernelVersion', bad: '6.8.0-1009-aws', good: '5.15.0-105-generic' },
    ]);
  });

  it('lists distinct bad values when the bad nodes differ among themselves but all differ from the good ones', () => {
    const bad = [
      makeNode('node-b', { kernelVersion: '6.8.0' }),
      makeNode('node-d', { kernelVersion: '6.9.1' }),
    ];
    const good = [makeNode('node-a')];
    expect(diffNodes(bad, good)).toEqual([
      { field: 'kernelVersion', bad: '6.8.0, 6.9.1', good: '5.15.0-105-generic' },
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
