/**
 * The live-cluster source of a snapshot for the `diagnose` command: build a client
 * from the kubeconfig options and collect. Errors come out as ClusterError (exit 3)
 * or WorkloadNotFoundError (exit 2) only.
 */
import type { WorkloadRef, WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { createKubeClient, type KubeEnvironment } from '../client.js';
import { collectSnapshot } from './collector.js';
import { ClusterError, WorkloadNotFoundError } from '../errors.js';

export interface ClusterSourceOptions {
  kubeconfig?: string;
  environment?: KubeEnvironment;
  context?: string;
  ref: WorkloadRef;
  /** No namespace was given: use the kubeconfig context's (then "default"), as kubectl does. */
  namespaceFromContext?: boolean;
  /** Where Argo CD's Applications live (collector.ts); Argo CD's default when absent. */
  argocdNamespace?: string;
  onProgress?: (step: string) => void;
}

/**
 * Collects the snapshot of one Deployment from a live cluster.
 *
 * @throws ClusterError when the cluster is unreachable or refuses to show the Deployment (401/403).
 * @throws WorkloadNotFoundError when the Deployment does not exist (names the namespace searched).
 */
export async function collectFromCluster(options: ClusterSourceOptions): Promise<WorkloadSnapshot> {
  const client = createKubeClient({
    kubeconfig: options.kubeconfig,
    context: options.context,
    ...(options.environment ? { environment: options.environment } : {}),
  });
  try {
    const ref = options.namespaceFromContext
      ? { ...options.ref, namespace: client.namespace ?? 'default' }
      : options.ref;
    return await collectSnapshot(client, ref, {
      onProgress: options.onProgress,
      ...(options.argocdNamespace !== undefined ? { argocdNamespace: options.argocdNamespace } : {}),
    });
  } catch (error) {
    if (error instanceof ClusterError || error instanceof WorkloadNotFoundError) throw error;
    throw new ClusterError(`collecting from ${client.server} failed: ${errorText(error)}`, undefined, {
      cause: error,
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
