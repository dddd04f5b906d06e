/**
 * What the cluster can add (check only): the cluster autoscaler's status ConfigMap
 * (get on configmaps/cluster-autoscaler-status in kube-system) and Karpenter's NodePools
 * (list on nodepools.karpenter.sh). Each is optional: not found (no autoscaler, no
 * Karpenter CRD) is none; a read refused or failed is said, never taken for none.
 */
import { z } from 'zod';
import type { Node } from '../../diagnosis/k8s.js';
import { parseAutoscalerStatus } from './autoscaler-status.js';
import { autoscalerGroups, nodePoolGroups, type NodeGrowth, type NodePool } from './node-groups.js';
import type { KubeClient } from '../../kube/client.js';
import { KubeApiError } from '../../kube/errors.js';
import { getObjectIfExists, listObjects } from '../../kube/list.js';

export const AUTOSCALER_STATUS = { namespace: 'kube-system', name: 'cluster-autoscaler-status' } as const;

const StatusMap = z.object({ data: z.record(z.string(), z.string()).optional() }).loose();

/** The node groups that may grow, read beside `nodes` (every node the source read). */
export async function readGrowth(client: KubeClient, nodes: readonly Node[]): Promise<NodeGrowth> {
  const unread: string[] = [];
  const why = (error: unknown, what: string, grant: string): void => {
    if (!(error instanceof KubeApiError)) throw error;
    unread.push(error.isAccessDenied ? `${what} (forbidden: grant ${grant})` : `${what} (${error.message})`);
  };
  const [status, pools] = await Promise.all([
    getObjectIfExists<unknown>(client, { resource: 'configmaps', ...AUTOSCALER_STATUS }).catch((error) => {
      why(
        error,
        'the cluster autoscaler’s status',
        'get on configmaps/cluster-autoscaler-status in kube-system',
      );
      return undefined;
    }),
    listObjects<NodePool>(client, { resource: 'nodepools' }, { limit: 500, maxPages: 4 })
      .then((list) => list.items)
      .catch((error) => {
        if (error instanceof KubeApiError && error.status === 404) return [];
        why(error, 'Karpenter NodePools', 'list on nodepools.karpenter.sh');
        return [];
      }),
  ]);
  return growthOf(status, pools, nodes, unread);
}

/** The growth a status ConfigMap (or its absence) and NodePools say, from any source (a dump too). */
export function growthOf(
  status: unknown,
  pools: readonly NodePool[],
  nodes: readonly Node[],
  unread: string[] = [],
): NodeGrowth {
  const groups = nodePoolGroups(pools, nodes);
  if (status !== undefined) {
    const map = StatusMap.safeParse(status);
    const parsed = parseAutoscalerStatus(map.success ? map.data.data?.status : undefined);
    if ('unreadable' in parsed) unread.push(`the cluster autoscaler’s status: ${parsed.unreadable}`);
    else groups.unshift(...autoscalerGroups(parsed, nodes));
  }
  return { groups, unread };
}
