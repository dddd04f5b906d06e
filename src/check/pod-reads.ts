/**
 * Where other tenants' pods are read for check and the webhook: per node, each node once
 * (a node's pods hold its room), or every pod in one paged list past MAX_NODE_LISTS nodes.
 */
import type { Pod } from '../diagnosis/k8s.js';
import type { AccessProblem, Coverage, CoverageGap } from '../diagnosis/snapshot/types.js';
import type { KubeClient } from '../kube/client.js';
import { listObjects } from '../kube/list.js';
import { readPodsOnNodes } from '../kube/read/node-reads.js';
import { secondaryRead } from '../kube/read/secondary-read.js';

/** Nodes whose pods are read one list each; past this, one paged list of every pod. */
const MAX_NODE_LISTS = 50;
const PAGE = 500;
const MAX_PAGES = 200;

/** What was asked for, so a fresh reader can ask the same. */
interface PodsAsked {
  allPods: boolean;
  podsOnNodes: string[];
}

/**
 * Other tenants' pods: per node, each node once, or (past MAX_NODE_LISTS nodes, or once
 * asked for) every pod in one paged list. `read` says where they were read.
 */
export function podReads(client: KubeClient, problems: AccessProblem[]) {
  const podsOnNode = new Map<string, Promise<Pod[] | undefined>>();
  let allPods: Promise<Pod[] | undefined> | undefined;
  const read = async (
    names: string[],
    everyPod = false,
  ): Promise<{ pods: Pod[]; readOn: string[] | 'all' }> => {
    if (everyPod || names.length > MAX_NODE_LISTS || allPods) {
      allPods ??= secondaryRead(problems, undefined, async () => {
        const list = await listObjects<Pod>(
          client,
          { resource: 'pods', query: { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' } },
          { limit: PAGE, maxPages: MAX_PAGES },
        );
        return list.truncated ? undefined : list.items;
      });
      const pods = await allPods;
      return pods ? { pods, readOn: 'all' } : { pods: [], readOn: [] };
    }
    const lists = await Promise.all(
      names.map((name) => {
        let pending = podsOnNode.get(name);
        if (!pending) {
          pending = readPodsOnNodes(client, [name], problems).then((r) =>
            r.readOn.length > 0 ? r.pods : undefined,
          );
          podsOnNode.set(name, pending);
        }
        return pending;
      }),
    );
    return { pods: lists.flatMap((l) => l ?? []), readOn: names.filter((_, i) => lists[i] !== undefined) };
  };
  return {
    read,
    asked: (): PodsAsked => ({
      allPods: allPods !== undefined,
      podsOnNodes: [...podsOnNode.keys()],
    }),
  };
}

/** The snapshot's coverage with where other tenants' pods were read, and the nodes where they were not. */
export function occupancyCoverage(
  coverage: Coverage,
  names: readonly string[],
  readOn: string[] | 'all',
): Coverage {
  const unread = readOn === 'all' ? 0 : names.length - readOn.length;
  const gaps: CoverageGap[] =
    unread > 0
      ? [
          {
            about: 'neighbours',
            what: `pods on ${unread} of ${names.length} nodes`,
            reason: 'forbidden',
            settle: 'grant list on pods (cluster-wide)',
          },
        ]
      : [];
  return { ...coverage, podsReadOn: readOn, gaps: [...coverage.gaps, ...gaps] };
}
