/**
 * What would change a FailedScheduling outcome, reason by reason, from the message
 * alone (`rollout-doctor explain-scheduling`). The message says how many nodes each
 * filter rejected, not which nodes or what holds the resource: `rollout-doctor
 * diagnose` reads the cluster for that. So each change is what would open the nodes a
 * reason counts, worded for the person reading the event.
 */
import type {
  ParsedSchedulingMessage,
  SchedulingReason,
} from '../../diagnosis/scheduling/scheduling-message.js';
import { selectorErrorChange } from '../../diagnosis/scheduling/selector-error.js';

interface SchedulingChange {
  /** Nodes the reason rejected; for a count-less (PreFilter) reason, every node. */
  count: number;
  reason: string;
  category: SchedulingReason['category'];
  /** What would open those nodes, in one sentence. */
  change: string;
}

export interface SchedulingAdvice {
  changes: SchedulingChange[];
  /** How the reasons combine, and what preemption says; sentences. */
  notes: string[];
}

const nodes = (n: number): string => (n === 1 ? '1 node' : `${n} nodes`);
/** "1 node lacks" / "3 nodes lack". */
const verb = (n: number, one: string, many: string): string => `${nodes(n)} ${n === 1 ? one : many}`;
const SCALAR_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** The change that would open the nodes one reason counts. */
function changeFor(r: SchedulingReason): string {
  const n = r.count;
  const lower = r.reason.toLowerCase();
  const who = r.countless ? 'every node, checked once for the pod' : nodes(n);
  switch (r.category) {
    case 'resources': {
      const resource = r.resource ?? 'the resource';
      return SCALAR_RESOURCES.has(resource)
        ? `${verb(n, 'lacks', 'lack')} ${resource}: free some there, lower the pod's request, or add a node`
        : `${verb(n, 'lacks', 'lack')} ${resource}: free one there or add a node with ${resource}`;
    }
    case 'pod-count':
      return `${verb(n, 'is', 'are')} at the kubelet's pod limit: free a pod slot there or add a node`;
    case 'node-selection':
      if (lower.includes('node name') || lower.includes('hostname'))
        return `${verb(n, 'is not', 'are not')} the node the pod names (spec.nodeName): change or drop it`;
      if (lower.includes('missing required label'))
        return `${verb(n, 'lacks', 'lack')} the topology key label of a spread constraint: label them or change the constraint`;
      return `${verb(n, 'fails', 'fail')} the pod's node selector or node affinity: relax the selector, or label a node to match`;
    case 'taints':
      return r.taint
        ? `${verb(n, 'has', 'have')} the taint ${r.taint.key}=${r.taint.value} the pod does not tolerate: add a toleration for it, or remove the taint`
        : `${verb(n, 'has', 'have')} a taint the pod does not tolerate (kubectl describe node shows which): add a toleration, or remove the taint`;
    case 'node-unschedulable':
      return lower.includes('unschedulable') || r.taint?.key === 'node.kubernetes.io/unschedulable'
        ? `${verb(n, 'is', 'are')} cordoned: uncordon one (kubectl uncordon NODE) if it is healthy`
        : `${verb(n, 'is', 'are')} not ready or under pressure: repair them (a toleration only hides it)`;
    case 'ports':
      return `${verb(n, 'already uses', 'already use')} the pod's hostPort: stop what holds it there (an old pod of the same Deployment: roll with maxSurge 0) or drop the hostPort`;
    case 'volumes':
      if (lower.includes('unbound') && lower.includes('persistentvolumeclaim'))
        return `the pod's PersistentVolumeClaim is not bound (${who}): fix the claim first (StorageClass, size, access mode)`;
      if (lower.includes('max volume count'))
        return `${verb(n, 'has', 'have')} reached the volume attach limit: detach volumes there or add a node`;
      if (lower.includes('available persistent volumes'))
        return `no free PersistentVolume fits on ${nodes(n)}: create one there or use a StorageClass that provisions`;
      if (lower.includes('node affinity') || lower.includes('zone'))
        return `${verb(n, 'is', 'are')} outside the zone or node the pod's volume is pinned to: run where the volume is, or move the data`;
      return `${verb(n, 'conflicts', 'conflict')} with the pod's volumes: run where the volume can attach (a ReadWriteOnce volume on one node: let the old pod go first)`;
    case 'pod-affinity':
      if (lower.includes('topology spread'))
        return `${nodes(n)} would break a topology spread constraint: raise maxSkew, use whenUnsatisfiable: ScheduleAnyway, or add nodes in other domains`;
      if (lower.includes('anti-affinity') && !lower.includes('pod affinity/anti-affinity'))
        return `${verb(n, 'runs', 'run')} pods that an anti-affinity rule keeps apart from this one: make the rule preferred, add nodes, or move those pods (an old pod of the same Deployment: maxSurge 0)`;
      return `${verb(n, 'fails', 'fail')} the pod's pod affinity: run the pods it needs there, or relax the rule`;
    case 'devices':
      switch (r.claims) {
        case 'cannot-allocate':
          return `${verb(n, 'has', 'have')} no free device for the pod's resource claims: free one (claims of any namespace may hold it) or add devices`;
        case 'timed-out':
          return `device allocation timed out on ${nodes(n)}: simplify the claim's selectors, or retry`;
        case 'not-on-node':
          return `the pod's claim is allocated to another node, so ${nodes(n)} cannot use it: schedule there, or let the claim be deallocated`;
        case 'invalid-pool':
          return `${verb(n, 'offers', 'offer')} devices only from a resource pool its DRA driver published inconsistently (kubectl get resourceslices): the scheduler skips such a pool until the driver republishes it`;
        case 'selector-error':
          return selectorErrorChange(r.reason);
        case 'in-use':
          return `the pod's resource claim is reserved by other pods (${who}): wait for them, or give each pod its own claim (resourceClaimTemplateName)`;
        default:
          return `the pod's resource claim or device class is missing, being allocated or being deleted (${who}): check kubectl get resourceclaims`;
      }
    case 'other':
      return `${verb(n, 'fails', 'fail')} "${r.reason}": no change known for it; see the scheduler plugin that reports it`;
  }
}

/**
 * Reasons the filters report only after the first one that fails: a node is rejected by
 * the first filter that fails there (NodeResourcesFit runs before DynamicResources), so
 * "1 Insufficient cpu" can hide that the pod's claims cannot be allocated there either.
 * Preemption re-runs every filter on the nodes it may help, with the lower-priority pods
 * gone; its part says what then still fails ("1 cannot allocate all claims"). The nodes
 * it considers are those not counted as "Preemption is not helpful for scheduling",
 * which are the nodes of the main reasons preemption can address (resources, pod count,
 * host ports, pod anti-affinity): those are the node class the later reasons belong to.
 */
interface AfterEviction {
  /** Main reasons whose nodes preemption tried. */
  tried: SchedulingReason[];
  /** What still failed there with the victims gone, other than "no victims". */
  still: SchedulingReason[];
  /** The tried reasons' counts add up to the nodes preemption considered: the attribution is exact. */
  exact: boolean;
}

const PREEMPTABLE: ReadonlySet<SchedulingReason['category']> = new Set([
  'resources',
  'pod-count',
  'ports',
  'pod-affinity',
]);

function behindEviction(parsed: ParsedSchedulingMessage): AfterEviction | undefined {
  const p = parsed.preemption;
  if (!p || p.text !== undefined || p.reasons.length === 0) return undefined;
  const lower = (r: SchedulingReason): string => r.reason.toLowerCase();
  const notHelpful = p.reasons
    .filter((r) => lower(r).startsWith('preemption is not helpful'))
    .reduce((n, r) => n + r.count, 0);
  const still = p.reasons.filter(
    (r) => !lower(r).startsWith('preemption is not helpful') && !lower(r).startsWith('no preemption victims'),
  );
  const tried = parsed.reasons.filter((r) => PREEMPTABLE.has(r.category) && !r.countless);
  if (still.length === 0 || tried.length === 0) return undefined;
  const considered = p.total - notHelpful;
  const exact = tried.reduce((n, r) => n + r.count, 0) === considered;
  return { tried, still, exact };
}

/** Reasons the preemption part adds on the tried nodes, of a kind none of the tried reasons is. */
function hiddenReasons(after: AfterEviction): SchedulingReason[] {
  return after.still.filter((s) => after.tried.every((r) => laterKind(r, s)));
}

/** `s` (from the preemption part) is another kind of failure than the main reason `r`. */
function laterKind(r: SchedulingReason, s: SchedulingReason): boolean {
  return s.category !== r.category || (s.category === 'resources' && s.resource !== r.resource);
}

/** "; with lower-priority pods evicted there, ..." for a reason whose nodes hide another one. */
function afterEvictionWords(r: SchedulingReason, after: AfterEviction): string {
  if (!after.tried.includes(r)) return '';
  // A later reason of the same kind ("Insufficient cpu" again) only says eviction frees too little.
  const others = after.still.filter((s) => laterKind(r, s));
  if (others.length === 0) return '';
  const said = others.map((s) => `${s.count} ${s.reason}`).join(', ');
  const what =
    r.category === 'resources'
      ? (r.resource ?? 'the resource')
      : r.category === 'ports'
        ? 'the port'
        : 'that';
  const devices = others.some((s) => s.category === 'devices');
  const alsoNeeded = devices
    ? 'a free matching device there (claims of any namespace may hold one); or add a node that has both'
    : 'what those reasons name to be fixed there';
  if (after.exact && after.tried.length === 1) {
    const all = others.every((s) => s.count >= r.count);
    return (
      `; but with lower-priority pods evicted there, the scheduler's preemption check still fails ${all ? (r.count === 1 ? 'that node' : 'those nodes') : 'some of them'} (${said}), ` +
      `so freeing ${what} alone does not open ${r.count === 1 && all ? 'it' : 'them'}: ${r.count === 1 && all ? 'it' : 'they'} also need${r.count === 1 && all ? 's' : ''} ${alsoNeeded}`
    );
  }
  return `; the scheduler's preemption check, with lower-priority pods evicted, still fails some of the nodes counted for ${after.tried
    .map((t) => t.reason)
    .join(', ')} (${said}), so freeing ${what} alone may not open them: they may also need ${alsoNeeded}`;
}

/**
 * @example adviseScheduling(parseSchedulingMessage("0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector."))
 *   // changes: "1 node lacks nvidia.com/gpu: free one there or add a node with nvidia.com/gpu",
 *   //          "9 nodes fail the pod's node selector or node affinity: relax the selector, or label a node to match"
 */
export function adviseScheduling(parsed: ParsedSchedulingMessage): SchedulingAdvice {
  const after = behindEviction(parsed);
  const changes = parsed.reasons.map((r) => ({
    count: r.count,
    reason: r.reason,
    category: r.category,
    change: changeFor(r) + (after ? afterEvictionWords(r, after) : ''),
  }));
  const notes: string[] = [];
  if (parsed.aborted) {
    notes.push(
      `The scheduler stopped with an error from its ${parsed.aborted.plugin} plugin instead of judging the nodes: no node was counted, and it retries the pod (SchedulerError) until the error is gone.`,
    );
  } else if (parsed.total === 0) {
    notes.push(
      'The scheduler saw no nodes: add nodes, or check that they registered and are not all deleted.',
    );
  } else if (parsed.reasons.some((r) => r.countless)) {
    notes.push(
      'A reason without a node count applies to every node: nothing else opens a node until it is fixed.',
    );
  } else {
    const sum = parsed.reasons.reduce((total, r) => total + r.count, 0);
    const hidden = after ? hiddenReasons(after) : [];
    if (hidden.length > 0 && sum <= parsed.total)
      notes.push(
        `Each node is counted once, for the first filter that rejected it; the preemption part, which re-runs the filters with lower-priority pods evicted, shows more on the nodes it tried (${hidden.map((h) => `${h.count} ${h.reason}`).join(', ')}): fixing the first reason alone does not open them.`,
      );
    else if (parsed.reasons.length > 1 && sum === parsed.total)
      notes.push(
        `The counts add up to the ${parsed.total} nodes, so each node fails for one reason only: fixing a reason opens the nodes it counts.`,
      );
    else if (sum > parsed.total)
      notes.push(
        `The counts add up to more than the ${parsed.total} nodes, so some nodes fail for several reasons: a node opens only when all of its reasons are fixed.`,
      );
  }
  const p = parsed.preemption;
  if (p?.text?.includes('preemptionPolicy=Never'))
    notes.push(
      'The pod never preempts others (preemptionPolicy: Never): evicting lower-priority pods is not an option.',
    );
  const noVictims = p?.reasons.find((r) => r.reason.toLowerCase().startsWith('no preemption victims found'));
  if (noVictims)
    notes.push(
      `Preemption found no lower-priority pod to evict on ${nodes(noVictims.count)}: what holds it there has the same or a higher priority, often the pod's own older replica. If so, the rollout waits for itself: rollout-doctor diagnose deployment/NAME proves that surge deadlock and offers maxSurge 0.`,
    );
  return { changes, notes };
}
