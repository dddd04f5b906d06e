/**
 * Categories for kube-scheduler filter reasons. The wordings below are the ones the
 * upstream plugins have emitted since the 0/N format appeared (v1.10) up to v1.34,
 * checked against kubernetes/kubernetes pkg/scheduler/framework/plugins/*:
 *
 *   NodeResourcesFit   "Insufficient <resource>", "Too many pods"
 *   TaintToleration    "node(s) had taints that the pod didn't tolerate" (<= 1.18),
 *                      "node(s) had taint {k: v}, that the pod didn't tolerate" (1.19-1.24),
 *                      "node(s) had untolerated taint {k: v}" (1.25+), "node(s) had untolerated taint(s)" (1.33+)
 *   NodeUnschedulable  "node(s) were unschedulable", "node(s) had unknown conditions"
 *   NodeAffinity       "node(s) didn't match node selector" (old), "node(s) didn't match Pod's node affinity",
 *                      "node(s) didn't match Pod's node affinity/selector", "...scheduler-enforced node affinity"
 *   NodeName           "node(s) didn't match the requested node name" (older: "...requested hostname")
 *   NodePorts          "node(s) didn't have free ports for the requested pod ports"
 *   InterPodAffinity   "node(s) didn't match pod affinity rules", "...pod anti-affinity rules",
 *                      "node(s) didn't satisfy existing pods anti-affinity rules", "...pod affinity/anti-affinity"
 *   PodTopologySpread  "node(s) didn't match pod topology spread constraints" [" (missing required label)"]
 *   VolumeBinding etc. "node(s) had volume node affinity conflict", "node(s) didn't match PersistentVolume's
 *                      node affinity", "node(s) didn't find available persistent volumes to bind",
 *                      "pod has unbound immediate PersistentVolumeClaims", "node(s) exceed max volume count",
 *                      "node(s) had no available disk", "node(s) had no available volume zone", ...
 *   DynamicResources   Filter: "cannot allocate all claims", "resourceclaim not available on the node",
 *                      "timed out trying to allocate devices" (1.34+ with a filter timeout), "asked by caller
 *                      to stop allocating devices: ...", and the allocator's own per-node error "invalid
 *                      resource pools were encountered" (no allocation, and a pool of the node was invalid);
 *                      PreFilter, printed without a node count because it applies to every node:
 *                      "resourceclaim in use", "resource claim <ns>/<name> is in the process of being
 *                      allocated", "resourceclaim \"<name>\" is being deleted", "request <r>: device class
 *                      <c> does not exist", a claim the pod's status names that is gone: "could not find
 *                      ResourceClaim \"<ns>/<name>\"" (the scheduler's claim cache), older a lister's
 *                      "resourceclaim.resource.k8s.io \"<name>\" not found".
 *                      A selector that fails at runtime aborts the pod's scheduling instead: the
 *                      structured allocator returns "class <c>: selector #<i>: CEL runtime error: <err>"
 *                      (a DeviceClass selector) or "claim <ns>/<name>: selector #<i>: CEL runtime error:
 *                      <err>" (the claim's), Filter returns it as an Error status and the framework prints
 *                      'running "DynamicResources" filter plugin: <that>' as the FailedScheduling
 *                      message (reason SchedulerError), with no "0/N nodes" and no preemption part.
 *                      PostFilter (text before "preemption:", see categorizeNote): "no new claims to
 *                      deallocate" (the pod has no claims), "still not schedulable", "deallocation of
 *                      ResourceClaim completed", "deletion of ResourceClaim completed".
 *
 * Decisions worth knowing:
 * - Topology spread is grouped with pod-affinity: like anti-affinity it depends on where
 *   other pods run, so deleting or moving pods can satisfy it. Its "(missing required
 *   label)" variant is about node labels and goes to node-selection.
 * - A taint the node lifecycle controller sets for a node condition
 *   (node.kubernetes.io/unschedulable, not-ready, unreachable, *-pressure,
 *   network-unavailable) is node-unschedulable, not taints: the fix is to repair or
 *   uncordon the node, not to add a toleration. The taint stays in `taint`.
 * - Node condition wordings from old predicates ("node(s) had memory pressure",
 *   "node(s) were not ready") are node-unschedulable.
 * - Every DynamicResources reason is `devices`, with `claims` saying which one: only
 *   `cannot-allocate` (and `timed-out`, which may hide it) is about free devices on a
 *   node; `not-on-node` is a claim already allocated elsewhere (a node-selection
 *   problem for that claim), `in-use` a claim reserved by other pods, `claim-state` a
 *   claim or class that is missing, being allocated or being deleted. DRA rejections
 *   make the preemption part "Preemption is not helpful for scheduling", so no rule
 *   may lean on a "No preemption victims found" count for them.
 * - "node(s) had untolerated taint(s)" (1.35 and 1.34.2+, DESIGN.md §4) names no
 *   taint: `taint` stays unset and the engine reads the taints from
 *   the node objects.
 */
import type { ClaimReason, NoteKind, SchedulingCategory } from '../parsed-scheduling.js';

export type { ClaimReason, NoteKind } from '../parsed-scheduling.js';

export interface Categorized {
  category: SchedulingCategory;
  /** For resources (and pod-count: "pods"): the resource name. */
  resource?: string;
  /** For taint reasons that name the taint. */
  taint?: { key: string; value: string };
  /** For `devices`: which DynamicResources rejection it is. */
  claims?: ClaimReason;
}

const DRA_NOTES: readonly [string, NoteKind][] = [
  ['no new claims to deallocate', 'no-claims'],
  ['still not schedulable', 'claims-not-schedulable'],
  ['deallocation of resourceclaim completed', 'claim-deallocated'],
  ['deletion of resourceclaim completed', 'claim-deleted'],
];

/**
 * The kind of one plugin note (text outside the reason lists, as the parser keeps it).
 *
 * @example categorizeNote('no new claims to deallocate') // 'no-claims'
 */
export function categorizeNote(note: string): NoteKind {
  const lower = note.trim().toLowerCase();
  return DRA_NOTES.find(([text]) => lower === text || lower.startsWith(`${text} `))?.[1] ?? 'other';
}

/** DynamicResources reasons by wording; checked before volumes ("resourceclaim" is no volume). */
function claimReason(lower: string): ClaimReason | undefined {
  if (lower.includes('cel runtime error')) return 'selector-error';
  if (lower.includes('cannot allocate all claims')) return 'cannot-allocate';
  if (lower.includes('timed out trying to allocate devices') || lower.includes('stop allocating devices'))
    return 'timed-out';
  if (lower.includes('invalid resource pools')) return 'invalid-pool';
  if (lower.includes('resourceclaim not available on the node')) return 'not-on-node';
  if (lower.includes('resourceclaim in use')) return 'in-use';
  if (
    /\bresource ?claims?\b/.test(lower) ||
    lower.includes('resourceclaim.resource.k8s.io') ||
    lower.includes('device class') ||
    lower.includes('allocate devices')
  ) {
    return 'claim-state';
  }
  return undefined;
}

/** The selector a CEL runtime error names, as the structured allocator prints it. */
export interface SelectorError {
  /** A DeviceClass selector, or one of the claim's own (`name` is then "<ns>/<claim>"). */
  source: 'class' | 'claim';
  name: string;
  /** Its index in that selector list ("selector #0"). */
  index: number;
  /** The CEL library's error ("no such key: nvlinkDomain"). */
  error: string;
}

/**
 * @example selectorError('class gpu.example.com: selector #0: CEL runtime error: no such key: model')
 * // { source: 'class', name: 'gpu.example.com', index: 0, error: 'no such key: model' }
 */
export function selectorError(reason: string): SelectorError | undefined {
  const m = /\b(class|claim) (\S+): selector #(\d+): CEL runtime error: (.*)$/is.exec(reason.trim());
  if (!m) return undefined;
  return {
    source: m[1]?.toLowerCase() === 'claim' ? 'claim' : 'class',
    name: m[2] ?? '',
    index: Number(m[3] ?? '0'),
    error: (m[4] ?? '').trim(),
  };
}

/** Taints the node lifecycle controller applies for node conditions and cordons. */
const NODE_CONDITION_TAINT_KEYS = new Set([
  'node.kubernetes.io/unschedulable',
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/memory-pressure',
  'node.kubernetes.io/disk-pressure',
  'node.kubernetes.io/pid-pressure',
  'node.kubernetes.io/network-unavailable',
  'node.kubernetes.io/out-of-service',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'node.cloudprovider.kubernetes.io/shutdown',
]);

const NODE_STATE_PHRASES = [
  'were unschedulable',
  'unknown condition',
  'were not ready',
  'had memory pressure',
  'had disk pressure',
  'had pid pressure',
  'network unavailable',
  'out of disk',
  'node(s) were cordoned',
];

const POD_AFFINITY_PHRASES = [
  'pod affinity rules',
  'pod anti-affinity rules',
  'pod affinity/anti-affinity',
  'existing pods anti-affinity',
  'pod topology spread constraints',
  'inter-pod affinity',
];

const NODE_SELECTION_PHRASES = [
  'node affinity',
  'node selector',
  'nodeselector',
  'requested node name',
  'requested hostname',
  'pod affinity terms conflict',
  'missing required label',
  'matchnodeselector',
];

const VOLUME_PHRASES = [
  'volume',
  'persistentvolumeclaim',
  'pvc(s)',
  'pv(s)',
  'free storage',
  'available disk',
  'storageclass',
];

/**
 * Assigns a category (and resource or taint where the wording names one) to one
 * reason as the scheduler printed it, without its count. Unknown wordings are
 * `other`.
 *
 * @example categorize('Insufficient nvidia.com/gpu') // { category: 'resources', resource: 'nvidia.com/gpu' }
 */
export function categorize(reason: string): Categorized {
  const text = reason.trim();
  const lower = text.toLowerCase();

  const insufficient = /^insufficient\s+(\S+)/i.exec(text);
  if (insufficient?.[1]) {
    const resource = insufficient[1].replace(/[.,]+$/, '');
    return resource === 'pods' ? { category: 'pod-count', resource } : { category: 'resources', resource };
  }
  if (lower.startsWith('too many pods')) return { category: 'pod-count', resource: 'pods' };
  const claims = claimReason(lower);
  if (claims) return { category: 'devices', claims };

  if (lower.includes('taint')) {
    const taint = parseTaint(text);
    if (taint && NODE_CONDITION_TAINT_KEYS.has(taint.key)) return { category: 'node-unschedulable', taint };
    return taint ? { category: 'taints', taint } : { category: 'taints' };
  }
  if (NODE_STATE_PHRASES.some((p) => lower.includes(p))) return { category: 'node-unschedulable' };
  if (lower.includes('missing required label')) return { category: 'node-selection' };
  if (POD_AFFINITY_PHRASES.some((p) => lower.includes(p))) return { category: 'pod-affinity' };
  // Before node-selection: "volume node affinity conflict" and "didn't match PersistentVolume's
  // node affinity" are volume problems.
  if (VOLUME_PHRASES.some((p) => lower.includes(p))) return { category: 'volumes' };
  if (NODE_SELECTION_PHRASES.some((p) => lower.includes(p))) return { category: 'node-selection' };
  if (lower.includes('free ports') || lower.includes('podfitshostports') || lower.includes('host port')) {
    return { category: 'ports' };
  }
  return { category: 'other' };
}

/** `{key: value}` as the taint plugin prints it (value may be empty; key alone in some forks). */
function parseTaint(text: string): { key: string; value: string } | undefined {
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open < 0 || close <= open) return undefined;
  const inner = text.slice(open + 1, close);
  const colon = inner.indexOf(':');
  const key = (colon < 0 ? inner : inner.slice(0, colon)).trim();
  const value = colon < 0 ? '' : inner.slice(colon + 1).trim();
  return key ? { key, value } : undefined;
}
