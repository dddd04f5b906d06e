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
import { wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { sentenceIn } from '../../i18n/sentences.js';
import { EXPLAIN_WORDS } from '../explain-words.js';

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

const SCALAR_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
type Words = ReturnType<typeof wordsIn<typeof EXPLAIN_WORDS>>;

/** The change that would open the nodes one reason counts, in `w`'s language. */
function changeFor(r: SchedulingReason, w: Words, lang: Lang): string {
  const count = r.count;
  const lower = r.reason.toLowerCase();
  const who = r.countless ? w.everyNode({}) : w.nodes({ count });
  switch (r.category) {
    case 'resources': {
      const resource = r.resource ?? w.theResource({});
      return SCALAR_RESOURCES.has(resource)
        ? w.lacksScalar({ count, resource })
        : w.lacksExtended({ count, resource });
    }
    case 'pod-count':
      return w.podLimit({ count });
    case 'node-selection':
      if (lower.includes('node name') || lower.includes('hostname')) return w.notNamedNode({ count });
      if (lower.includes('missing required label')) return w.lacksTopologyLabel({ count });
      return w.failsSelector({ count });
    case 'taints':
      return r.taint
        ? w.taintNamed({ count, taint: `${r.taint.key}=${r.taint.value}` })
        : w.taintUnnamed({ count, command: 'kubectl describe node' });
    case 'node-unschedulable':
      return lower.includes('unschedulable') || r.taint?.key === 'node.kubernetes.io/unschedulable'
        ? w.cordoned({ count, command: 'kubectl uncordon NODE' })
        : w.notReady({ count });
    case 'ports':
      return w.hostPort({ count });
    case 'volumes':
      if (lower.includes('unbound') && lower.includes('persistentvolumeclaim'))
        return w.claimUnbound({ who });
      if (lower.includes('max volume count')) return w.attachLimit({ count });
      if (lower.includes('available persistent volumes')) return w.noFreeVolume({ count });
      if (lower.includes('node affinity') || lower.includes('zone')) return w.volumePinned({ count });
      return w.volumeConflict({ count });
    case 'pod-affinity':
      if (lower.includes('topology spread')) return w.spread({ count });
      if (lower.includes('anti-affinity') && !lower.includes('pod affinity/anti-affinity'))
        return w.antiAffinity({ count });
      return w.podAffinity({ count });
    case 'devices':
      return deviceChange(r, w, who, lang);
    case 'other':
      return w.unknownReason({ count, reason: r.reason });
  }
}

/** The change for a DynamicResources reason, by what the claims could not get. */
function deviceChange(r: SchedulingReason, w: Words, who: string, lang: Lang): string {
  const count = r.count;
  switch (r.claims) {
    case 'cannot-allocate':
      return w.noFreeDevice({ count });
    case 'timed-out':
      return w.allocationTimedOut({ count });
    case 'not-on-node':
      return w.claimOnOtherNode({ count });
    case 'invalid-pool':
      return w.invalidPool({ count, command: 'kubectl get resourceslices' });
    case 'selector-error':
      return sentenceIn(selectorErrorChange(r.reason), lang);
    case 'in-use':
      return w.claimReserved({ who });
    default:
      return w.claimMissing({ who, command: 'kubectl get resourceclaims' });
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
function afterEvictionWords(r: SchedulingReason, after: AfterEviction, w: Words): string {
  if (!after.tried.includes(r)) return '';
  // A later reason of the same kind ("Insufficient cpu" again) only says eviction frees too little.
  const others = after.still.filter((s) => laterKind(r, s));
  if (others.length === 0) return '';
  const said = others.map((s) => `${s.count} ${s.reason}`).join(', ');
  const what =
    r.category === 'resources'
      ? r.resource
        ? w.resourceNamed({ resource: r.resource })
        : w.theResource({})
      : r.category === 'ports'
        ? w.thePort({})
        : w.that({});
  const alsoNeeded = others.some((s) => s.category === 'devices')
    ? w.alsoNeedsDevice({})
    : w.alsoNeedsFixes({});
  if (after.exact && after.tried.length === 1) {
    const all = others.every((s) => s.count >= r.count);
    return w.stillFailsExact({ one: all && r.count === 1, all, said, what, alsoNeeded });
  }
  const tried = after.tried.map((t) => t.reason).join(', ');
  return w.stillFailsSome({ tried, said, what, alsoNeeded });
}

/**
 * @example adviseScheduling(parseSchedulingMessage("0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector."))
 *   // changes: "1 node lacks nvidia.com/gpu: free one there or add a node with nvidia.com/gpu",
 *   //          "9 nodes fail the pod's node selector or node affinity: relax the selector, or label a node to match"
 */
export function adviseScheduling(parsed: ParsedSchedulingMessage, lang: Lang = 'en'): SchedulingAdvice {
  const w = wordsIn(EXPLAIN_WORDS, lang);
  const after = behindEviction(parsed);
  const changes = parsed.reasons.map((r) => ({
    count: r.count,
    reason: r.reason,
    category: r.category,
    change: changeFor(r, w, lang) + (after ? afterEvictionWords(r, after, w) : ''),
  }));
  const notes: string[] = [];
  if (parsed.aborted) {
    notes.push(w.aborted({ plugin: parsed.aborted.plugin }));
  } else if (parsed.total === 0) {
    notes.push(w.sawNoNodes({}));
  } else if (parsed.reasons.some((r) => r.countless)) {
    notes.push(w.countless({}));
  } else {
    const sum = parsed.reasons.reduce((total, r) => total + r.count, 0);
    const hidden = after ? hiddenReasons(after) : [];
    if (hidden.length > 0 && sum <= parsed.total)
      notes.push(w.hiddenBehindFirst({ hidden: hidden.map((h) => `${h.count} ${h.reason}`).join(', ') }));
    else if (parsed.reasons.length > 1 && sum === parsed.total)
      notes.push(w.oneReasonEach({ total: parsed.total }));
    else if (sum > parsed.total) notes.push(w.severalReasons({ total: parsed.total }));
  }
  const p = parsed.preemption;
  if (p?.text?.includes('preemptionPolicy=Never')) notes.push(w.neverPreempts({}));
  const noVictims = p?.reasons.find((r) => r.reason.toLowerCase().startsWith('no preemption victims found'));
  if (noVictims)
    notes.push(w.noVictims({ count: noVictims.count, command: 'rollout-doctor diagnose deployment/NAME' }));
  return { changes, notes };
}
