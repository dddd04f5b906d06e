/**
 * The room a cluster can add: node groups the cluster autoscaler may grow (its status,
 * autoscaler-status.ts) and Karpenter NodePools (their limits against what they hold).
 * For each, how many nodes it may still add, and the node a new one would be like:
 *
 * - a cluster autoscaler group builds new nodes from one of its own (the autoscaler's
 *   template node info is a sanitized copy of a group member); which nodes are members
 *   is the provider's label (EKS, GKE, AKS, kops, eksctl, Cluster API) whose value the
 *   group's name holds as a whole word, the longest such value winning; a group whose
 *   members cannot be told has no known template;
 * - a NodePool's nodes carry `karpenter.sh/nodepool`; Karpenter may also launch a
 *   larger instance type than any it runs now, so a new node like the largest it has is
 *   a floor on what it can add, not the ceiling.
 *
 * Pure: the reads are src/kube/read/growth-read.ts.
 */
import type { Node, Quantity, Taint } from '../../diagnosis/k8s.js';
import { isQuantity, schedulerAmount } from '../../diagnosis/base/quantity.js';
import type { AutoscalerStatus } from './autoscaler-status.js';

export interface NodePool {
  metadata: { name?: string };
  spec?: {
    limits?: Record<string, Quantity>;
    template?: { spec?: { taints?: Taint[] } };
  };
  status?: { resources?: Record<string, Quantity> };
}

export interface GrowableGroup {
  by: 'cluster-autoscaler' | 'karpenter';
  name: string;
  /** Nodes it has (or has asked for) now. */
  nodes: number;
  /** Nodes it may still add (bounded by the caller), 0 when it cannot grow now. */
  canAdd: number;
  /** Why it cannot grow now (at its max, a limit reached, backing off, unhealthy). */
  held?: string;
  /** A node like the ones it adds; absent: not known. */
  template?: Node;
  /** Karpenter: it may add larger nodes than the template. */
  mayBeLarger?: boolean;
}

export interface NodeGrowth {
  groups: GrowableGroup[];
  /** What could not be read or understood ("the cluster autoscaler's status: forbidden"). */
  unread: string[];
}

/** Provider labels naming a node's group (the value is a word of the autoscaler's group name). */
const POOL_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'alpha.eksctl.io/nodegroup-name',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'kops.k8s.io/instancegroup',
  'cluster.x-k8s.io/deployment-name',
] as const;

const NODEPOOL_LABEL = 'karpenter.sh/nodepool';

/** The cluster autoscaler's groups, each with its template where its members can be told. */
export function autoscalerGroups(status: AutoscalerStatus, nodes: readonly Node[]): GrowableGroup[] {
  if ('unreadable' in status) return [];
  return status.groups.map((group) => {
    const members = membersOf(group.name, nodes);
    const held = !group.healthy
      ? 'the autoscaler reports it Unhealthy'
      : group.scaleUp === 'Backoff'
        ? 'its last scale-up failed and the autoscaler is backing off'
        : group.target >= group.max
          ? `it is at its maximum of ${group.max}`
          : undefined;
    const template = pickTemplate(members, false);
    return {
      by: 'cluster-autoscaler' as const,
      name: group.name,
      nodes: group.target,
      canAdd: held ? 0 : group.max - group.target,
      ...(held ? { held } : {}),
      ...(template ? { template } : {}),
    };
  });
}

/** Karpenter's NodePools, each with what its limits leave for one more node like its largest. */
export function nodePoolGroups(pools: readonly NodePool[], nodes: readonly Node[]): GrowableGroup[] {
  return pools.map((pool) => {
    const name = pool.metadata.name ?? '';
    const members = nodes.filter((n) => n.metadata.labels?.[NODEPOOL_LABEL] === name);
    const template = pickTemplate(members, true);
    const left = limitLeft(pool, members, template);
    return {
      by: 'karpenter' as const,
      name,
      nodes: members.length,
      canAdd: left.nodes,
      ...(left.held ? { held: left.held } : {}),
      ...(template ? { template } : {}),
      mayBeLarger: true,
    };
  });
}

/** Nodes a NodePool's limits leave room for (each like `template`), or what holds it. */
function limitLeft(
  pool: NodePool,
  members: readonly Node[],
  template: Node | undefined,
): { nodes: number; held?: string } {
  const limits = pool.spec?.limits ?? {};
  let nodes = Number.POSITIVE_INFINITY;
  for (const [resource, limit] of Object.entries(limits)) {
    if (!isQuantity(limit)) return { nodes: 0, held: `its limit on ${resource} cannot be read` };
    const used = usedOf(pool, members, resource);
    const left = schedulerAmount(resource, limit) - used;
    if (left <= 0) return { nodes: 0, held: `its limit on ${resource} (${String(limit)}) is reached` };
    const per = resource === 'nodes' ? 1 : capacityOf(template, resource);
    if (per > 0) nodes = Math.min(nodes, Math.floor(left / per));
  }
  return nodes === 0 ? { nodes, held: 'its limits leave no room for another node like its own' } : { nodes };
}

/** What a NodePool holds of a resource: its status, else the capacity of its nodes. */
function usedOf(pool: NodePool, members: readonly Node[], resource: string): number {
  const stated = pool.status?.resources?.[resource];
  if (stated !== undefined && isQuantity(stated)) return schedulerAmount(resource, stated);
  if (resource === 'nodes') return members.length;
  return members.reduce((sum, node) => sum + capacityOf(node, resource), 0);
}

function capacityOf(node: Node | undefined, resource: string): number {
  const value = node?.status?.capacity?.[resource];
  return value !== undefined && isQuantity(value) ? schedulerAmount(resource, value) : 0;
}

/** The nodes of a cluster autoscaler group: the longest pool-label value its name holds as a word. */
function membersOf(group: string, nodes: readonly Node[]): Node[] {
  let best = '';
  let members: Node[] = [];
  for (const node of nodes) {
    const value = poolOf(node, group);
    if (value === undefined || value.length < best.length) continue;
    if (value.length > best.length) {
      best = value;
      members = [];
    }
    members.push(node);
  }
  return members;
}

function poolOf(node: Node, group: string): string | undefined {
  const labels = node.metadata.labels ?? {};
  const values = POOL_LABELS.map((key) => labels[key]).filter((v): v is string => !!v && holdsWord(group, v));
  return values.sort((a, b) => b.length - a.length)[0];
}

/** `name` holds `word` with no letter or digit either side (`eks-gpu-pool-8ac2` holds `gpu-pool`). */
function holdsWord(name: string, word: string): boolean {
  for (let at = name.indexOf(word); at >= 0; at = name.indexOf(word, at + 1)) {
    const before = name.charAt(at - 1);
    const after = name.charAt(at + word.length);
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

/** A Ready member to copy: any (a group's nodes are alike), or the largest (a NodePool's differ). */
function pickTemplate(members: readonly Node[], largest: boolean): Node | undefined {
  const ready = members.filter((n) =>
    (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  const sorted = [...ready].sort((a, b) =>
    largest
      ? capacityOf(b, 'cpu') - capacityOf(a, 'cpu') || capacityOf(b, 'memory') - capacityOf(a, 'memory')
      : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
  return sorted[0];
}
