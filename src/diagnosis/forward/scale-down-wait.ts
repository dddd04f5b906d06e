/**
 * A neighbour Deployment that runs more pods than its spec asks for (its replicas were
 * just lowered, by hand or by an HPA) is scaling down: its controller scales the
 * ReplicaSet to the spec (sync.go scale, paused or not) and the ReplicaSet controller
 * deletes the pods above it (replica_set.go manageReplicas). The pods it deletes first are
 * those not bound to a node (getPodsToDelete: unassigned before assigned); among bound
 * ones its ranking ends in a time bucket and a random tie, so which pods go is not known.
 * A blocked rollout then waits for that scale-down only where the run finishes whichever
 * of them go: at least `read - replicas` of the bound pods read must go (at most
 * `replicas` of all its pods stay), so each choice of that many is tried.
 *
 * Only a Deployment with pods of one ReplicaSet: one mid-rollout is job-wait.ts's
 * (`rollingNeighbourPods`). Only where its object was read: the spec's count is its own.
 * Where its HorizontalPodAutoscaler was read (`neighbourAutoscalers`), what stays is its
 * maxReplicas instead: it may raise the spec up to it at any sync (so a spec below its max
 * promises nothing the autoscaler cannot take back), and it lowers a spec above it at the
 * next (podautoscaler horizontal.go reconcileAutoscaler: "Current number of replicas above
 * Spec.MaxReplicas", before any metric is read); one that is off (spec 0) keeps the spec.
 * Not read, the words say "unless an autoscaler raises them back first".
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { neighbourReplicaSets } from '../base/neighbour-deployments.js';

/** Choices of pods tried for one scale-down; past it nothing is claimed. */
const CHOICES = 16;

interface ScaleDown {
  /** "ml/beta". */
  deployment: string;
  /** The pods it holds where the rollout needs room, bound to a node. */
  bound: Pod[];
  /** How many of `bound` go at the least. */
  goes: number;
  /** Its autoscaler's maxReplicas, where one was read and bounds what stays. */
  capped?: number;
}

/** The neighbour Deployments scaling down that will free bound pods, each with its pods. */
export function scalingDown(ctx: AnalysisContext, holding: ReadonlySet<Pod>): ScaleDown[] {
  const { snapshot } = ctx;
  // One being deleted scales nothing (syncDeployment only syncs its status; with
  // --cascade=orphan its ReplicaSet keeps every pod).
  const specs = new Map(
    (snapshot.neighbourDeployments ?? []).filter((d) => !d.deleting).map((d) => [d.name, d.replicas]),
  );
  // Two autoscalers of one Deployment fight (the min/max clamps run before the
  // AmbiguousSelector check): nothing is promised of it.
  const autoscalers = snapshot.neighbourAutoscalers ?? [];
  const fought = new Set(
    autoscalers
      .filter((a, i) => autoscalers.findIndex((b) => b.target === a.target) !== i)
      .map((a) => a.target),
  );
  const autoscaled = new Map(autoscalers.map((a) => [a.target, a]));
  const out: ScaleDown[] = [];
  for (const [deployment, sets] of neighbourReplicaSets(snapshot)) {
    const spec = specs.get(deployment);
    if (sets.size !== 1 || spec === undefined || fought.has(deployment)) continue;
    // At most this many of its pods stay: its autoscaler's max where it has one on (a
    // spec of 0 turns it off, unless its minReplicas is 0 too: horizontal.go reconcileAutoscaler).
    const hpa = autoscaled.get(deployment);
    const max = hpa && (spec > 0 || hpa.min === 0) ? hpa.max : undefined;
    const replicas = max ?? spec;
    const pods = [...sets.values()].flat();
    const bound = pods.filter((p) => Boolean(p.spec.nodeName));
    // Unassigned pods are deleted first: what is left of the excess falls on bound ones.
    const goes = pods.length - replicas - (pods.length - bound.length);
    const held = bound.filter((p) => holding.has(p));
    if (goes <= 0 || held.length === 0) continue;
    out.push({ deployment, bound, goes, ...(replicas === max ? { capped: max } : {}) });
  }
  return out;
}

/** Every choice of `k` of `items`, or undefined where there are more than CHOICES. */
export function choices<T>(items: readonly T[], k: number): T[][] | undefined {
  const all: T[][] = [];
  const pick = (from: number, chosen: T[]): boolean => {
    if (chosen.length === k) {
      all.push(chosen);
      return all.length <= CHOICES;
    }
    for (let i = from; i < items.length; i++) if (!pick(i + 1, [...chosen, items[i] as T])) return false;
    return true;
  };
  return k > 0 && k <= items.length && pick(0, []) ? all : undefined;
}
