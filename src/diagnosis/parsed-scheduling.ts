/**
 * A FailedScheduling message as scheduling/scheduling-message.ts parses it: the shape
 * `explain-scheduling -o json` prints and a finding's 'scheduling' evidence carries
 * (DESIGN.md §3). Types only, so the findings' vocabulary (finding.ts) needs no parser.
 */

/** Which DynamicResources rejection a `devices` reason is. */
export type ClaimReason =
  | 'cannot-allocate'
  | 'timed-out'
  | 'not-on-node'
  | 'in-use'
  | 'claim-state'
  /** The node's devices come from a pool the driver published inconsistently (a device named twice). */
  | 'invalid-pool'
  /** A DeviceClass or claim selector failed with a CEL runtime error: the scheduler stopped for the pod. */
  | 'selector-error';

/** What a PostFilter text before "preemption:" says (DynamicResources, 1.32-1.36). */
export type NoteKind =
  /** The pod has no resource claims: DRA was not involved (1.37 drops this text). */
  | 'no-claims'
  /** The pod has claims and nothing could be deallocated to help (1.37 drops this text). */
  | 'claims-not-schedulable'
  /** The scheduler deallocated one of the pod's claims: the next attempt may succeed. */
  | 'claim-deallocated'
  /** The scheduler deleted the pod's extended-resource claim: the next attempt may succeed. */
  | 'claim-deleted'
  | 'other';

export type SchedulingCategory =
  | 'resources'
  | 'node-selection'
  | 'taints'
  | 'ports'
  | 'volumes'
  | 'pod-affinity'
  | 'node-unschedulable'
  | 'pod-count'
  /** Dynamic Resource Allocation: devices for the pod's resource claims (see `claims`). */
  | 'devices'
  | 'other';

export interface SchedulingReason {
  count: number;
  reason: string;
  category: SchedulingCategory;
  /** For category "resources": the resource name ("nvidia.com/gpu", "cpu"). */
  resource?: string;
  /** For taint wordings that name the taint: `{key: value}` as printed. */
  taint?: { key: string; value: string };
  /** For category "devices": which DynamicResources rejection it is. */
  claims?: ClaimReason;
  /**
   * The scheduler printed no node count ("0/3 nodes are available: resourceclaim in
   * use."): a PreFilter rejection that applies to every node, so `count` is the total
   * and says nothing about single nodes.
   */
  countless?: true;
}

/** One plugin note with what it says (see NoteKind). */
export interface PluginNote {
  text: string;
  kind: NoteKind;
}

export interface ParsedSchedulingMessage {
  total: number;
  reasons: SchedulingReason[];
  /**
   * The preemption attempt's own result. `text` holds a sentence-form result
   * ("not eligible due to preemptionPolicy=Never"); its total is then the message's.
   */
  preemption: { total: number; reasons: SchedulingReason[]; text?: string } | null;
  /** Other plugin text outside the reason lists ("no new claims to deallocate"); absent when none. */
  notes?: string[];
  /** The same notes, in the same order, each with its kind; absent when there are none. */
  pluginNotes?: PluginNote[];
  /**
   * The scheduler stopped with a plugin error instead of judging the nodes (the pod's
   * condition reason is SchedulerError): no node was counted, `total` is 0 and the one
   * count-less reason is the error. Absent for every 0/N message.
   */
  aborted?: { plugin: string };
}
