/**
 * Real-shaped resource.k8s.io/v1 objects (DeviceClass, ResourceClaimTemplate,
 * ResourceClaim, ResourceSlice) and the DRA twin of seed incident A: the vision
 * tracker pinned to one GPU node whose single GPU comes through a claim. Shapes follow
 * the upstream API types and the NVIDIA DRA driver's published attributes.
 */
import type {
  DeviceClass,
  DeviceRequest,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
} from '../../src/diagnosis/k8s-dra.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import {
  fullCoverage,
  type DraCoverage,
  type DeploymentSnapshot,
} from '../../src/diagnosis/snapshot/types.js';
import { makeNode, makeSnapshot, uid } from './k8s-builders.js';
import { rollout, unschedulablePod } from './rollout-scenarios.js';

export const DRIVER = 'gpu.nvidia.com';
export const A100 = 'NVIDIA A100-SXM4-40GB';
export const DRA_SEED_MESSAGE =
  "0/3 nodes are available: 1 cannot allocate all claims, 2 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";

export function deviceClass(options: { extendedResourceName?: string } = {}): DeviceClass {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: DRIVER, uid: uid('deviceclass'), creationTimestamp: '2026-11-01T09:00:00Z' },
    spec: {
      selectors: [{ cel: { expression: `device.driver == "${DRIVER}"` } }],
      ...(options.extendedResourceName ? { extendedResourceName: options.extendedResourceName } : {}),
    },
  };
}

export function gpuRequest(
  options: { count?: number; selectors?: string[]; allocationMode?: string } = {},
): DeviceRequest {
  return {
    name: 'gpu',
    exactly: {
      deviceClassName: DRIVER,
      allocationMode: options.allocationMode ?? 'ExactCount',
      ...(options.allocationMode === 'All' ? {} : { count: options.count ?? 1 }),
      ...(options.selectors
        ? { selectors: options.selectors.map((expression) => ({ cel: { expression } })) }
        : {}),
    },
  };
}

export function claimTemplate(
  namespace: string,
  request: DeviceRequest = gpuRequest(),
): ResourceClaimTemplate {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name: 'single-gpu', namespace, uid: uid('rct'), creationTimestamp: '2026-11-20T09:00:00Z' },
    spec: { spec: { devices: { requests: [request] } } },
  };
}

/** A node's GPUs as the NVIDIA DRA driver publishes them (one pool per node). */
export function gpuSlice(
  node: string,
  gpus: { name: string; productName?: string; memory?: string }[],
): ResourceSlice {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: {
      name: `${node}-${DRIVER}-q7w2x`,
      uid: uid('slice'),
      creationTimestamp: '2026-11-01T09:05:00Z',
    },
    spec: {
      driver: DRIVER,
      nodeName: node,
      pool: { name: node, generation: 1, resourceSliceCount: 1 },
      devices: gpus.map((gpu, index) => ({
        name: gpu.name,
        attributes: {
          type: { string: 'gpu' },
          productName: { string: gpu.productName ?? A100 },
          architecture: { string: 'Ampere' },
          index: { int: index },
          uuid: { string: `GPU-4b0c2e1a-9d3f-4c7e-8a51-6f2d9b0e1c${String(index).padStart(2, '0')}` },
          driverVersion: { version: '550.127.8' },
          cudaComputeCapability: { version: '8.0.0' },
        },
        capacity: { memory: { value: gpu.memory ?? '40Gi' } },
      })),
    },
  };
}

/** A claim, allocated to `device` on `node` and reserved for `pods` when given. */
export function claim(
  name: string,
  namespace: string,
  options: {
    request?: DeviceRequest;
    device?: string;
    node?: string;
    pods?: Pod[];
    owner?: Pod;
    annotations?: Record<string, string>;
  } = {},
): ResourceClaim {
  const allocated = options.device !== undefined && options.node !== undefined;
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name,
      namespace,
      uid: uid('claim'),
      creationTimestamp: '2026-11-20T10:00:05Z',
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ...(allocated ? { finalizers: ['resource.kubernetes.io/delete-protection'] } : {}),
      ...(options.owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'Pod',
                name: options.owner.metadata.name ?? '',
                uid: options.owner.metadata.uid ?? '',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { devices: { requests: [options.request ?? gpuRequest()] } },
    ...(allocated
      ? {
          status: {
            allocation: {
              devices: {
                results: [
                  { request: 'gpu', driver: DRIVER, pool: options.node ?? '', device: options.device ?? '' },
                ],
              },
              nodeSelector: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [options.node ?? ''] }] },
                ],
              },
              allocationTimestamp: '2026-11-20T10:00:07Z',
            },
            reservedFor: (options.pods ?? []).map((p) => ({
              resource: 'pods',
              name: p.metadata.name ?? '',
              uid: p.metadata.uid ?? '',
            })),
          },
        }
      : {}),
  };
}

export interface DraScenario {
  snapshot: DeploymentSnapshot;
  oldPod: Pod;
  newPod: Pod;
  nodes: Node[];
}

export interface DraScenarioOptions {
  /** How the pods get their GPU. */
  mode?: 'template' | 'shared' | 'extended';
  /** The new template's request (template mode). */
  newRequest?: DeviceRequest;
  /** GPUs on gpu-node-1. */
  gpus?: { name: string; productName?: string; memory?: string }[];
  /** The old pod holds no GPU (its template had no claim). */
  oldHoldsNothing?: boolean;
  /** Extra claims (other tenants). */
  claims?: ResourceClaim[];
  dra?: Partial<DraCoverage>;
  message?: string;
}

/**
 * The DRA twin of incident A: Deployment vision/tracker, replicas 1, no strategy,
 * pinned to gpu-node-1, whose only GPU gpu-0 is held through the old pod's claim.
 */
export function draSeed(options: DraScenarioOptions = {}): DraScenario {
  const mode = options.mode ?? 'template';
  const claimRef =
    mode === 'shared'
      ? [{ name: 'gpu', resourceClaimName: 'shared-gpu' }]
      : mode === 'template'
        ? [{ name: 'gpu', resourceClaimTemplateName: 'single-gpu' }]
        : [];
  const parts = rollout('tracker', {
    oldNodes: ['gpu-node-1'],
    podSpec: {
      nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
      ...(claimRef.length > 0 ? { resourceClaims: claimRef } : {}),
    },
    ...(mode === 'extended'
      ? { resources: { limits: { 'nvidia.com/gpu': '1' } } }
      : { container: { resources: { claims: [{ name: 'gpu' }] } } }),
    ...(options.oldHoldsNothing
      ? {
          oldTemplate: (t) => {
            delete t.spec.resourceClaims;
            for (const c of t.spec.containers) delete c.resources;
          },
        }
      : {}),
  });
  const oldPod = parts.oldPods[0] as Pod;
  const newPod = parts.newPods[0] as Pod;
  const ns = 'vision';
  const claims: ResourceClaim[] = [...(options.claims ?? [])];
  if (!options.oldHoldsNothing) {
    if (mode === 'template') {
      const name = `${oldPod.metadata.name ?? ''}-gpu-m4zk7`;
      claims.push(claim(name, ns, { device: 'gpu-0', node: 'gpu-node-1', pods: [oldPod], owner: oldPod }));
      oldPod.status = { ...oldPod.status, resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: name }] };
    } else if (mode === 'shared') {
      claims.push(claim('shared-gpu', ns, { device: 'gpu-0', node: 'gpu-node-1', pods: [oldPod] }));
    } else {
      const name = `${oldPod.metadata.name ?? ''}-extended-resources-t8v2c`;
      claims.push(
        claim(name, ns, {
          request: { name: 'container-0-request-0', exactly: { deviceClassName: DRIVER, count: 1 } },
          device: 'gpu-0',
          node: 'gpu-node-1',
          pods: [oldPod],
          owner: oldPod,
          annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' },
        }),
      );
      oldPod.status = {
        ...oldPod.status,
        extendedResourceClaimStatus: {
          resourceClaimName: name,
          requestMappings: [
            {
              containerName: 'tracker',
              resourceName: 'nvidia.com/gpu',
              requestName: 'container-0-request-0',
            },
          ],
        },
      };
    }
  }
  const { event } = unschedulablePod(newPod, options.message ?? DRA_SEED_MESSAGE);
  if (mode === 'template') {
    const name = `${newPod.metadata.name ?? ''}-gpu-b6x9r`;
    claims.push(
      claim(name, ns, { ...(options.newRequest ? { request: options.newRequest } : {}), owner: newPod }),
    );
    newPod.status = { ...newPod.status, resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: name }] };
  }
  const nodes = [
    makeNode('gpu-node-1', { labels: { 'nvidia.com/gpu.present': 'true' } }),
    makeNode('cpu-node-1'),
    makeNode('cpu-node-2'),
  ];
  const snapshot = makeSnapshot({
    deployment: parts.deployment,
    replicaSets: [parts.newRs, parts.oldRs],
    pods: [oldPod, newPod],
    events: [event],
    nodes,
    coverage: {
      ...fullCoverage(),
      dra: { claims: 'all', slices: 'complete', classes: 'complete', templates: 'complete', ...options.dra },
    },
    dra: {
      claims,
      templates: mode === 'template' ? [claimTemplate(ns, options.newRequest)] : [],
      slices: [gpuSlice('gpu-node-1', options.gpus ?? [{ name: 'gpu-0' }])],
      classes: [deviceClass(mode === 'extended' ? { extendedResourceName: 'nvidia.com/gpu' } : {})],
    },
  });
  return { snapshot, oldPod, newPod, nodes };
}
