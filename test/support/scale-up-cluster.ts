/**
 * A cluster that can add nodes, as check reads it (src/check/scale-up.ts): GPU nodes of
 * an EKS-style node group, another team's pods holding their GPUs, and the cluster
 * autoscaler's status ConfigMap naming the group's size and bounds.
 */

export const POOL_LABEL = 'eks.amazonaws.com/nodegroup';

/** A Ready node with 8 cpu, 32Gi and `gpus` GPUs, labelled `labels`. */
export function gpuNode(name: string, labels: Record<string, string>, gpus = 1): object {
  const resources = { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': String(gpus) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A pod of another team (namespace `other`) holding one GPU of the node. */
export function gpuHolder(name: string, nodeName: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'other' },
    spec: {
      nodeName,
      containers: [{ name: 'a', image: 'a:1', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** One node group of the status: `target` nodes of at most `max`, its scale-up state. */
export function nodeGroup(name: string, target: number, max: number, scaleUp = 'NoActivity'): string {
  return [
    `- name: ${name}`,
    '  health:',
    '    status: Healthy',
    '    nodeCounts: {registered: {total: 1, ready: 1}}',
    `    cloudProviderTarget: ${target}`,
    '    minSize: 1',
    `    maxSize: ${max}`,
    '  scaleUp:',
    `    status: ${scaleUp}`,
    '',
  ].join('\n');
}

/** kube-system/cluster-autoscaler-status with these node groups. */
export function autoscalerStatus(groups: string): object {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' },
    data: {
      status: `time: 2026-11-27 10:00:00 +0000 UTC\nautoscalerStatus: Running\nnodeGroups:\n${groups}`,
    },
  };
}
