/**
 * The cluster's PriorityClasses (scheduling.k8s.io/v1, cluster-scoped, a handful), read
 * where a template names a class the system ones do not cover: the priority its pods are
 * admitted with decides whether they may preempt (diagnosis/scheduling/priority-class.ts).
 * Refused or failed: undefined, not read, and the class is then resolved from pods
 * admitted under it or left not known.
 */
import type { PriorityClass } from '../../diagnosis/k8s-policy.js';
import type { PodSpec } from '../../diagnosis/k8s.js';
import { isSystemClass } from '../../diagnosis/scheduling/priority-class.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { listObjects } from '../list.js';

/** A template whose class only the PriorityClasses settle (a system class is known by name). */
export function namesClass(spec: PodSpec): boolean {
  const name = spec.priorityClassName;
  return name !== undefined && name !== '' && !isSystemClass(name);
}

export async function readPriorityClasses(client: KubeClient): Promise<PriorityClass[] | undefined> {
  try {
    const list = await listObjects<PriorityClass>(
      client,
      { resource: 'priorityclasses' },
      { limit: 500, maxPages: 4 },
    );
    return list.truncated ? undefined : list.items;
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    return undefined;
  }
}
