/**
 * Applying a plan to a live cluster, as the worker and `rollout-doctor apply` both do
 * it: the executor (src/kube/write/executor.ts) with the re-proof a stepped
 * scale-old-replicaset makes before each step. That re-proof collects a fresh snapshot
 * (src/kube/read/collector.ts) and analyzes it (src/remediation/step-release.ts), so it is
 * composed here, above kube, and handed down: kube itself only reads, writes and
 * watches.
 */
import type { KubeClient } from '../kube/client.js';
import { collectSnapshot } from '../kube/read/collector.js';
import { executePlan, type ApplyResult, type ExecutorOptions } from '../kube/write/executor.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { chooseStep, type ReproveStep } from '../remediation/step-release.js';

/** The re-proof between two steps, from the cluster as it is now. */
export function reproveFromCluster(client: KubeClient): ReproveStep {
  return async (plan) => chooseStep(await collectSnapshot(client, plan.target), plan.replicaSet);
}

/**
 * @example
 * const result = await applyPlan(client, plan, { onProgress: (step) => log(step) });
 */
export function applyPlan(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions & { onProgress?: (step: string) => void } = {},
): Promise<ApplyResult> {
  return executePlan(client, plan, {
    ...options,
    step: { reprove: reproveFromCluster(client), ...options.step },
  });
}
