/**
 * A crash loop explained by one Unhealthy GPU, for the simulator: Deployment
 * vision/detector (3 replicas, one per node by a required hostname anti-affinity),
 * each pod with a per-pod claim from ResourceClaimTemplate single-gpu. gpu-node-1
 * publishes gpu-0 and gpu-1, gpu-node-2 and gpu-node-3 one GPU each; the driver
 * reports gpu-node-1's gpu-0 Unhealthy (kube-sim devices.yaml), and the detector
 * crashes with a CUDA ECC error only on that device (a device-bound crash rule).
 */
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';

export const DETECTOR: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'detector' };
export const GPU_DRIVER = 'gpu.nvidia.com';
export const BAD_DEVICE = `${GPU_DRIVER}/gpu-node-1/gpu-0`;

function node(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'nvidia.com/gpu.present': 'true',
      },
    },
    status: {
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kernelVersion: '6.1.0-27-cloud-amd64',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: 'v1.37.0',
      },
    },
  };
}

function slice(nodeName: string, gpus: string[]) {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${nodeName}-${GPU_DRIVER}-x7k2p` },
    spec: {
      driver: GPU_DRIVER,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: gpus.map((name, i) => ({
        name,
        attributes: {
          productName: { string: 'NVIDIA L4' },
          uuid: { string: `GPU-${nodeName}-${i}` },
        },
        capacity: { memory: { value: '23034Mi' } },
      })),
    },
  };
}

export function deviceHealthScenario(): object[] {
  const devices = [
    { device: BAD_DEVICE, health: 'Unhealthy' },
    { device: `${GPU_DRIVER}/gpu-node-1/gpu-1`, health: 'Healthy' },
    { device: `${GPU_DRIVER}/gpu-node-2/gpu-0`, health: 'Healthy' },
    { device: `${GPU_DRIVER}/gpu-node-3/gpu-0`, health: 'Healthy' },
  ];
  const rules = [
    {
      node: 'gpu-node-1',
      image: 'registry.example/vision/detector',
      device: BAD_DEVICE,
      exitCode: 1,
      reason: 'Error',
      message: 'CUDA error: uncorrectable ECC error encountered',
      log: 'level=info msg="starting detector"\nlevel=fatal msg="cudaMalloc failed" error="uncorrectable ECC error encountered"',
    },
  ];
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
    node('gpu-node-1'),
    node('gpu-node-2'),
    node('gpu-node-3'),
    slice('gpu-node-1', ['gpu-0', 'gpu-1']),
    slice('gpu-node-2', ['gpu-0']),
    slice('gpu-node-3', ['gpu-0']),
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: GPU_DRIVER },
      spec: { selectors: [{ cel: { expression: `device.driver == "${GPU_DRIVER}"` } }] },
    },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'single-gpu', namespace: 'vision' },
      spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: GPU_DRIVER } }] } } },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-sim', namespace: 'kube-system' },
      data: { 'rules.yaml': JSON.stringify(rules), 'devices.yaml': JSON.stringify(devices) },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: DETECTOR.name, namespace: DETECTOR.namespace },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'detector' } },
        template: {
          metadata: { labels: { app: 'detector' } },
          spec: {
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  {
                    labelSelector: { matchLabels: { app: 'detector' } },
                    topologyKey: 'kubernetes.io/hostname',
                  },
                ],
              },
            },
            resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'single-gpu' }],
            containers: [
              {
                name: 'detector',
                image: 'registry.example/vision/detector:2.3.1',
                resources: { claims: [{ name: 'gpu' }] },
              },
            ],
          },
        },
      },
    },
  ];
}
