/** What the rollout assessment says about one pending pod (rollout-assessment.ts, pending-verdict.ts). */
import type { Node, Pod } from '../k8s.js';
import type { SchedulingFailure } from '../base/pod-events.js';
import type { NodeAssessment } from '../placement/holder-release.js';
import type { HeldBack } from '../scheduling/held-back.js';
import type { MissingClaim } from '../dra/needs.js';
import type { ParsedSchedulingMessage } from '../scheduling/scheduling-message.js';
import type { Preemption } from '../scheduling/preemption.js';
import type { ScaleUp } from '../scheduling/scale-up.js';

export type PendingVerdict =
  | 'surge-deadlock'
  | 'unschedulable'
  | 'transient'
  | 'waiting-for-old-pods'
  | 'unexplained'
  /** What the verdict needs was not read, and no other proof holds. */
  | 'incomplete'
  /** The scheduler is preempting lower-priority pods for it on a node (`preemption`): resolving, not stuck. */
  | 'preempting'
  /** The cluster autoscaler is adding a node for it (`scaleUp`): resolving, not stuck. */
  | 'scaling-up'
  /** Held before scheduling (gates, a claim not yet created): the scheduler has not tried it. */
  | 'held-back'
  /**
   * A per-pod claim named in the pod's status no longer exists: the DynamicResources
   * plugin rejects the pod in PreFilter, before any node, until the claim is back.
   */
  | 'claim-missing';

export interface IneligibleNode {
  node: Node;
  /** "nodeSelector/affinity", "taint gpu=true:NoSchedule", "cordoned", "volume node affinity (pv-1)". */
  reasons: string[];
}

export interface PendingAssessment {
  pod: Pod;
  /** The pod belongs to the ReplicaSet the rollout is creating. */
  isNew: boolean;
  failure?: SchedulingFailure;
  parsed: ParsedSchedulingMessage | null;
  eligible: NodeAssessment[];
  ineligible: IneligibleNode[];
  verdict: PendingVerdict;
  /**
   * For a surge deadlock: 'nodes' when node objects and occupancy prove it, 'message'
   * when the scheduler's counts do (nodes unread), 'likely' when neither does. For
   * Unschedulable: 'message' when the nodes were unread and the scheduler's counts put
   * every node out for taints, selection or cordons.
   */
  proof?: 'nodes' | 'message' | 'likely';
  /**
   * What the message proof stands in for: the nodes not read, or device occupancy not
   * known (claims of other namespaces not read) while the nodes were.
   */
  messageBasis?: 'nodes-unread' | 'claims-unread';
  /** Nodes where the release is proved (from nodes or from the message). */
  provedOn: string[];
  /** What the verdict stands despite: room the model cannot explain, unread occupancy. */
  caveats: string[];
  /** What was not read that would settle it (for IncompleteEvidence and the caveat). */
  missing: string[];
  /** For 'preempting': the nominated node and the victims terminating there. */
  preemption?: Preemption;
  /** For 'scaling-up': when the cluster autoscaler triggered the scale-up, and its words. */
  scaleUp?: ScaleUp;
  /** Why the pod is held before scheduling, for the 'held-back' verdict. */
  heldBack?: HeldBack;
  /** DRA facts worth saying whatever the verdict (a shared claim cannot deadlock a surge). */
  deviceNotes?: string[];
  /** For 'claim-missing': the claims named in the pod's status that no longer exist. */
  claimsGone?: MissingClaim[];
  /**
   * For 'unschedulable': the pod's latest scheduling failure is DynamicResources' CEL
   * runtime error in a device selector (the reason as the scheduler printed it): the
   * scheduler stops there at every attempt, whatever the devices hold.
   */
  selectorError?: string;
}

/** A pending verdict with what it rests on: the part pending-verdict.ts decides. */
export type Judged = Pick<
  PendingAssessment,
  'verdict' | 'proof' | 'messageBasis' | 'provedOn' | 'caveats' | 'missing' | 'preemption'
>;
