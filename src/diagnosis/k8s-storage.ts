/**
 * The storage objects rollout-doctor reads, in their wire form like every type of
 * k8s.ts: PersistentVolumeClaims, the PersistentVolumes bound to them, and the
 * StorageClasses that say when and where a claim binds.
 */
import type { NodeSelectorTerm, ObjectMeta, Quantity, ResourceRequirements } from './k8s.js';

export interface PersistentVolumeClaim {
  apiVersion?: string;
  kind?: 'PersistentVolumeClaim';
  metadata: ObjectMeta;
  spec: {
    accessModes?: string[];
    volumeName?: string;
    storageClassName?: string;
    resources?: ResourceRequirements;
  };
  status?: { phase?: string; accessModes?: string[]; capacity?: Record<string, Quantity> };
}

/** v1 PersistentVolume: where it may be used (`spec.nodeAffinity`, a local volume's node). */
export interface PersistentVolume {
  apiVersion?: string;
  kind?: 'PersistentVolume';
  metadata: ObjectMeta;
  spec?: {
    accessModes?: string[];
    storageClassName?: string;
    claimRef?: { namespace?: string; name?: string; uid?: string };
    nodeAffinity?: { required?: { nodeSelectorTerms?: NodeSelectorTerm[] } };
    local?: { path?: string };
    hostPath?: { path?: string };
    persistentVolumeReclaimPolicy?: string;
  };
  status?: { phase?: string };
}

/** storage.k8s.io/v1 StorageClass: when a claim binds, and where it may. */
export interface StorageClass {
  apiVersion?: string;
  kind?: 'StorageClass';
  metadata: ObjectMeta;
  provisioner?: string;
  /** Immediate (default) or WaitForFirstConsumer. */
  volumeBindingMode?: string;
  allowedTopologies?: { matchLabelExpressions?: { key?: string; values?: string[] }[] }[];
}
