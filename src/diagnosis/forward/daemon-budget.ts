/**
 * What a DaemonSet's rolling update without surge has left of maxUnavailable.
 * Its controller counts, node by node, every node whose pod of the new revision
 * is missing or not available against maxUnavailable, a new pod Pending on a node that
 * joined full included, and replaces an available old pod only while that count stays
 * below it (pkg/controller/daemon/update.go, rollingUpdate: numUnavailable,
 * remainingUnavailable). So a Pending pod on one node stops the rollout on every other
 * node, and a strategy that means to replace one old pod at a time needs maxUnavailable
 * 1 more for each such node. Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { workloadKind } from '../workloads/index.js';
import { podPhases } from './pod-phase.js';

/** The node a DaemonSet pod is pinned to (its one matchFields metadata.name term), if any. */
export function pinnedNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const field = terms[0]?.matchFields?.find((f) => f.key === 'metadata.name' && f.operator === 'In');
  return terms.length === 1 && field?.values?.length === 1 ? field.values[0] : undefined;
}

/**
 * A DaemonSet pod as its controller makes it for one node: the required node affinity
 * replaced by the node's name (ReplaceDaemonSetPodNodeNameNodeAffinity).
 */
export function pinnedTo(pod: Pod, node: string): Pod {
  const nodeAffinity = {
    ...pod.spec.affinity?.nodeAffinity,
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
    },
  };
  return { ...pod, spec: { ...pod.spec, affinity: { ...pod.spec.affinity, nodeAffinity } } };
}

interface DaemonBudget {
  /** The strategy surges now (maxSurge above 0): the count binds only once it does not. */
  surges: boolean;
  /** maxUnavailable as the controller resolves it (a percentage of the nodes, rounded up). */
  maxUnavailable: number;
  /**
   * New pods Pending, unbound, on a node where no old pod of ours runs: each one's
   * node counts against maxUnavailable until it runs, and no strategy write moves it.
   */
  waiting: { pod: string; node: string }[];
  /** Nodes whose old pod is available: the controller replaces them only within what is left. */
  oldNodes: string[];
}

/** A DaemonSet rolling update with new pods waiting on their own nodes; undefined otherwise. */
export function daemonBudget(ctx: AnalysisContext): DaemonBudget | undefined {
  return ctx.once('forward-daemon-budget', () => {
    const { snapshot } = ctx;
    const kind = workloadKind(snapshot);
    const strategy = kind.strategy(kind.object(snapshot));
    if (strategy.per !== 'node' || strategy.type !== 'RollingUpdate') return undefined;
    const { current, old } = kind.revisions(snapshot);
    const phases = podPhases(ctx);
    const live = (p: Pod): boolean => !p.metadata.deletionTimestamp;
    const oldByNode = new Map<string, Pod>();
    for (const pod of old.flatMap((r) => r.pods).filter(live)) {
      const node = pinnedNode(pod);
      if (node) oldByNode.set(node, pod);
    }
    const waiting = (current?.pods ?? []).flatMap((pod) => {
      const node = pinnedNode(pod);
      if (!node || !live(pod) || pod.spec.nodeName || oldByNode.has(node)) return [];
      return phases.get(pod) === 'pending' ? [{ pod: pod.metadata.name ?? '', node }] : [];
    });
    if (waiting.length === 0) return undefined;
    const oldNodes = [...oldByNode]
      .filter(([, pod]) => phases.get(pod) === 'ready')
      .map(([node]) => node)
      .sort();
    return {
      surges: (strategy.maxSurge?.value ?? 0) > 0,
      maxUnavailable: Math.max(0, strategy.maxUnavailable?.value ?? 0),
      waiting,
      oldNodes,
    };
  });
}

/**
 * The pods of `pending` that wait on their own nodes (daemonBudget), and whether they
 * are all of them: then the rollout is blocked only there, whatever the strategy, and
 * a deadlock elsewhere is still one to fix once they have room.
 */
export function waitingAmong(
  ctx: AnalysisContext,
  pending: readonly Pod[],
): { waiting: DaemonBudget['waiting']; only: boolean } {
  const budget = daemonBudget(ctx);
  if (!budget) return { waiting: [], only: false };
  const names = new Set(pending.map((p) => p.metadata.name ?? ''));
  const waiting = budget.waiting.filter((w) => names.has(w.pod));
  return { waiting, only: waiting.length > 0 && waiting.length === names.size };
}

/** "web-958dp on node-late", "2 pods (web-958dp on node-late, …)". */
export function waitingWords(waiting: DaemonBudget['waiting']): string {
  const each = waiting.map((w) => `${w.pod} on ${w.node}`);
  return waiting.length === 1
    ? (each[0] ?? '')
    : `${waiting.length} pods (${each.slice(0, 3).join(', ')}${waiting.length > 3 ? ', …' : ''})`;
}
