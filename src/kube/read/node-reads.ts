/**
 * The collector's node-side reads: the nodes our pods are bound to, and other
 * workloads' pods on a few eligible nodes. Failures become access problems.
 */
import type { Node, Pod } from '../../diagnosis/k8s.js';
import type { AccessProblem } from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { getObjectIfExists, listObjects } from '../list.js';
import { hostnameSelector } from './node-queries.js';
import { secondaryRead } from './secondary-read.js';

/** Nodes fetched one by one when their hostname label differs from their name (rare; capped). */
const MAX_NODE_GETS = 3;
/**
 * Bound nodes named in one selector: a DaemonSet (or a large Deployment) runs on
 * thousands of nodes, and a selector naming them all exceeds what an API server takes in
 * a request line (431). The nodes of pods that are not Running and Ready come first
 * (boundNodeNames); the rest past the cap are left unread and said so (coverage).
 */
export const MAX_BOUND_NODES = 200;

/**
 * One list by `kubernetes.io/hostname in (...)`; a node whose hostname label is not its
 * name (some cloud providers) is then fetched by name, up to MAX_NODE_GETS.
 */
export async function readBoundNodes(
  client: KubeClient,
  all: string[],
  problems: AccessProblem[],
): Promise<Node[]> {
  // Which nodes: the first MAX_BOUND_NODES as ranked; the selector names them by name.
  const names = all.slice(0, MAX_BOUND_NODES).sort();
  if (names.length === 0) return [];
  const listed = await secondaryRead(problems, undefined as Node[] | undefined, async () => {
    const selector = hostnameSelector(names);
    return selector
      ? (await listObjects<Node>(client, { resource: 'nodes', query: { labelSelector: selector } })).items
      : [];
  });
  if (listed === undefined) return [];
  const found = new Set(listed.map((n) => n.metadata.name ?? ''));
  const missing = names.filter((n) => !found.has(n)).slice(0, MAX_NODE_GETS);
  const fetched = await Promise.all(
    missing.map((name) =>
      // Undefined: the node was deleted since it was named.
      secondaryRead(problems, undefined as Node | undefined, () =>
        getObjectIfExists<Node>(client, { resource: 'nodes', name }),
      ),
    ),
  );
  return [...listed, ...fetched.filter((n): n is Node => n !== undefined)];
}

/**
 * Pods that hold resources on each named node (terminated pods hold none), all
 * namespaces, one list per node in parallel. `readOn` names the nodes whose list
 * succeeded: only there is occupancy known.
 */
export async function readPodsOnNodes(
  client: KubeClient,
  nodeNames: string[],
  problems: AccessProblem[],
): Promise<{ pods: Pod[]; readOn: string[] }> {
  const lists = await Promise.all(
    nodeNames.map((nodeName) =>
      secondaryRead(problems, undefined as Pod[] | undefined, async () => {
        const list = await listObjects<Pod>(client, {
          resource: 'pods',
          query: {
            fieldSelector: `spec.nodeName=${nodeName},status.phase!=Succeeded,status.phase!=Failed`,
          },
        });
        return list.items;
      }),
    ),
  );
  const readOn = nodeNames.filter((_, i) => lists[i] !== undefined);
  return { pods: lists.flatMap((l) => l ?? []), readOn };
}
