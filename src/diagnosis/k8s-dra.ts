/**
 * Dynamic Resource Allocation, resource.k8s.io/v1 (GA in 1.34), in its wire form like
 * every type of k8s.ts: ResourceClaims and their templates, the devices drivers
 * publish in ResourceSlices, and DeviceClasses.
 */
import type { Condition, NodeSelectorTerm, ObjectMeta, Quantity } from './k8s.js';

/** A CEL selector: `device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "..."`. */
export interface DeviceSelector {
  cel?: { expression: string };
}

export interface DeviceToleration {
  key?: string;
  operator?: string; // Equal (default) | Exists
  value?: string;
  effect?: string; // NoSchedule | NoExecute | '' (all)
  tolerationSeconds?: number;
}

/** `exactly` of a DeviceRequest, and each `firstAvailable` subrequest (which also has a name). */
export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  /** ExactCount (default) | All */
  allocationMode?: string;
  /** For ExactCount; defaults to 1. */
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
}

export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: (ExactDeviceRequest & { name: string })[];
}

interface DeviceClaim {
  requests?: DeviceRequest[];
  constraints?: unknown[];
  config?: unknown[];
}

interface DeviceRequestAllocationResult {
  /** The request name, or `<request>/<subrequest>` for firstAvailable. */
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
}

interface ResourceClaimConsumerReference {
  apiGroup?: string;
  resource: string; // "pods"
  name: string;
  uid: string;
}

export interface ResourceClaimSpec {
  devices?: DeviceClaim;
}

export interface ResourceClaim {
  apiVersion?: string;
  kind?: 'ResourceClaim';
  metadata: ObjectMeta & { finalizers?: string[] };
  spec: ResourceClaimSpec;
  status?: {
    allocation?: {
      devices?: { results?: DeviceRequestAllocationResult[]; config?: unknown[] };
      nodeSelector?: { nodeSelectorTerms: NodeSelectorTerm[] };
      allocationTimestamp?: string;
    };
    reservedFor?: ResourceClaimConsumerReference[];
    devices?: {
      driver: string;
      pool: string;
      device: string;
      conditions?: Condition[];
    }[];
  };
}

export interface ResourceClaimTemplate {
  apiVersion?: string;
  kind?: 'ResourceClaimTemplate';
  metadata: ObjectMeta;
  spec: { metadata?: ObjectMeta; spec: ResourceClaimSpec };
}

/** One typed value of a device attribute (exactly one field is set). */
interface DeviceAttribute {
  int?: number;
  bool?: boolean;
  string?: string;
  version?: string;
}

export interface DeviceTaint {
  key: string;
  value?: string;
  effect: string; // NoSchedule | NoExecute
  timeAdded?: string;
}

export interface Device {
  name: string;
  /** Keys are qualified names; an unqualified key belongs to the driver's domain. */
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, { value: Quantity }>;
  taints?: DeviceTaint[];
  /** Consumable capacity (1.34+): several claims may share the device while its capacity lasts. */
  allowMultipleAllocations?: boolean;
  /** Partitionable devices: what allocating it takes from the pool's shared counters. */
  consumesCounters?: { counterSet: string; counters: Record<string, { value: Quantity }> }[];
  /** v1beta1 nested the fields under `basic`. */
  basic?: Omit<Device, 'name' | 'basic'>;
}

export interface ResourceSlice {
  apiVersion?: string;
  kind?: 'ResourceSlice';
  metadata: ObjectMeta;
  spec: {
    driver: string;
    pool: { name: string; generation: number; resourceSliceCount: number };
    nodeName?: string;
    nodeSelector?: { nodeSelectorTerms: NodeSelectorTerm[] };
    allNodes?: boolean;
    perDeviceNodeSelection?: boolean;
    devices?: Device[];
    /** Partitionable devices: counters the pool's devices consume from. */
    sharedCounters?: { name: string; counters: Record<string, { value: Quantity }> }[];
  };
}

export interface DeviceClass {
  apiVersion?: string;
  kind?: 'DeviceClass';
  metadata: ObjectMeta;
  spec: {
    selectors?: DeviceSelector[];
    config?: unknown[];
    /** Extended resources backed by DRA: pods asking for this resource get devices of this class. */
    extendedResourceName?: string;
  };
}
