import type { ObjectMeta } from '../diagnosis/k8s.js';
/** The controller owner reference, if any. */
export function controllerOf(object: {
  metadata: ObjectMeta;
}): { apiVersion?: string; kind: string; name: string; uid: string } | undefined {
  return (object.metadata.ownerReferences ?? []).find((o) => o.controller === true);
}

/** `deployment.kubernetes.io/revision` as a number (0 when absent). */
export function revisionOf(object: { metadata: ObjectMeta }): number {
  const value = Number(object.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  return Number.isFinite(value) ? value : 0;
}
