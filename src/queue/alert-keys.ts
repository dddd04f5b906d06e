import { redisKeys } from './redis-keys.js';
import { createHash } from 'node:crypto';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';

/**
 * Key scheme shared by alert intake and the early-warning watch, so both find the
 * same incident thread and the same dedup window for a workload. Alertmanager's
 * groupKey holds braces, quotes and colons, and BullMQ job ids must not contain ':',
 * so everything that ends up in a key or job id is hashed or restricted to [a-z0-9-].
 */

/** Short, stable hex digest (128 bits is plenty to tell groups and workloads apart). */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** What an incident is about, before the worker has resolved a pod to its workload. */
export interface WorkloadKeyParts {
  cluster: string;
  namespace: string;
  /** The workload's kind when known (or guessed from a pod name); `Pod` when the name gave no clue. */
  kind: WorkloadKind | 'Pod';
  name: string;
}

/** Hash identifying one workload in one cluster: the unit of dedup and of threads. */
export function workloadHash(parts: WorkloadKeyParts): string {
  return shortHash(`${parts.cluster}\n${parts.namespace}\n${parts.kind}\n${parts.name}`);
}

/** Hash of an Alertmanager groupKey. */
export function groupHash(groupKey: string): string {
  return shortHash(`group\n${groupKey}`);
}

/** Redis keys for the thread store. Redis keys may contain ':'; job ids may not. */
export const threadKeys = redisKeys.thread;

/** Deduplication id of the diagnosis job for a workload (one per window, all sources). */
export function diagnosisDedupId(workload: string): string {
  return `alert-diagnose-${workload}`;
}

/** Deduplication id of a thread-update job (one per group, workload, status and firing episode). */
export function threadUpdateDedupId(
  group: string,
  workload: string,
  status: string,
  episode: string,
): string {
  return `alert-thread-${group}-${workload}-${status}-${shortHash(episode).slice(0, 12)}`;
}

/** One overflow summary per group and channel per window (channel ids are [A-Z0-9]). */
export function overflowDedupId(group: string, channel: string): string {
  return `alert-overflow-${group}-${shortHash(channel).slice(0, 12)}`;
}

/** One per-minute-cap summary per channel per minute. */
export function overflowMinuteDedupId(channel: string, minute: number): string {
  return `alert-overflow-minute-${minute}-${shortHash(channel).slice(0, 12)}`;
}
