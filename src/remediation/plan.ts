import type { WorkloadRef } from '../diagnosis/snapshot.js';

/** Stable remediation kinds (DESIGN.md §3). Add kinds; never rename these. */
export const REMEDIATION_KINDS = [
  'set-rolling-update',
  'set-recreate',
  'exclude-node',
  'rollout-restart',
  'delete-pods',
] as const;
export type RemediationKind = (typeof REMEDIATION_KINDS)[number];

/** Wire names of the three patch types the API server accepts. */
export type PatchType = 'strategic-merge' | 'merge' | 'json';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  'strategic-merge': 'application/strategic-merge-patch+json',
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
};

export interface Patch {
  type: PatchType;
  body: unknown;
}

/**
 * What must still be true of the live object for the plan to apply. The executor
 * re-reads the Deployment and refuses, with the mismatching field named, when any
 * of these differ.
 */
export interface Preconditions {
  uid: string;
  generation: number;
  /** JSON pointers (RFC 6901) into the Deployment and the value the plan assumed (undefined = absent). */
  fields: { path: string; value: unknown }[];
}

/**
 * A remediation is data: built by a pure plan builder from a snapshot, stored with an
 * id and an expiry, shown to the approver exactly as it will be applied.
 */
export interface RemediationPlan {
  /** Deterministic: the same snapshot and kind give the same id. No ':' (BullMQ job ids). */
  id: string;
  kind: RemediationKind;
  target: WorkloadRef;
  /** One line: what the button does. */
  summary: string;
  /** Expected impact, plain words: "brief outage: 1 replica of 1 goes down before the new one starts". */
  impact: string;
  /** Warnings that should make an approver think twice (few nodes left eligible, ...). */
  warnings: string[];
  /** The patch to the Deployment, or null for delete-pods. */
  patch: Patch | null;
  /** For delete-pods: the pods to delete (names in target.namespace), each with the uid seen at diagnosis. */
  pods?: { name: string; uid: string }[];
  preconditions: Preconditions;
  /** The patch that undoes this one, where one makes sense. */
  inverse: Patch | null;
  /** The finding code this plan addresses. */
  addresses: string;
}
