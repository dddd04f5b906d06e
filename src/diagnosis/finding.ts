import type { ParsedSchedulingMessage } from './parsed-scheduling.js';
import type { ResolvedStrategy } from './resolved-strategy.js';
import type { FindingWords } from './finding-words.js';

/** Stable finding codes (DESIGN.md §3). Add codes; never rename these. */
export const FINDING_CODES = [
  'RolloutSurgeDeadlock',
  'Unschedulable',
  'CrashLoopOnNode',
  'CrashLoop',
  'OOMKilled',
  'ImagePullFailure',
  'ConfigError',
  'ExecFormatError',
  'ProbeFailure',
  'ProgressDeadlineExceeded',
  'RolloutAtRisk',
  'AccessDenied',
  'IncompleteEvidence',
  'QuotaExceeded',
  'AdmissionDenied',
  'Unavailable',
  'PreemptionUnderWay',
  'RolloutStuck',
  // An Argo Rollout its controller aborted or refused (phase Degraded), or that waits at a pause.
  'RolloutDegraded',
  'RolloutPaused',
  // A rollout caught mid-step that the controllers finish by themselves (forward/reconcile.ts).
  'RolloutProgressing',
  // check: the new pods fit no node now, and a node group the cluster can grow would take them.
  'ScaleUpNeeded',
  // An update under updateStrategy OnDelete: pods on an old revision are replaced only once deleted.
  'RolloutWaitsForDeletion',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

/**
 * Info findings that already say what a rollout under way waits for (a preemption the
 * scheduler is making, an Argo pause for a person): no other word about the wait is added.
 */
export const SAYS_WHAT_IT_WAITS_FOR: ReadonlySet<FindingCode> = new Set([
  'PreemptionUnderWay',
  'RolloutPaused',
  'RolloutWaitsForDeletion',
]);

export type Severity = 'critical' | 'warning' | 'info';

/** One row of the per-node crash table. */
export interface NodeCrashRow {
  node: string;
  pods: number;
  ready: number;
  restarts: number;
  crashing: number;
  lastExitCode?: number;
  lastReason?: string;
  lastMessage?: string;
  logTail?: string;
  /** The container whose termination the row's exit code, reason and message describe. */
  container?: string;
}

/** A container that crashes: an init container, a sidecar (restartable init container) or a regular one. */
export interface CrashingContainer {
  name: string;
  kind: 'init' | 'sidecar' | 'container';
  /** Not in the Deployment's pod template: added at admission (a mesh or policy webhook). */
  injected: boolean;
}

/** The line of the failing container's termination message or log that names a node-related cause. */
export interface CrashClueEvidence {
  text: string;
  source: 'termination-message' | 'log';
  pod: string;
  container: string;
  /** The node-diff field it points at (for example "label feature.node.kubernetes.io/cpu-cpuid.AVX2"). */
  pointsAt?: string;
  /** cpu-instructions, exec-format, read-only-fs, cgroup, syscall, open-files, glibc, out-of-memory. */
  kind?: string;
  /** What the clue means, in one sentence. */
  meaning?: string;
}

/** One device a pod of the workload reports in `allocatedResourcesStatus` (or a pod reporting none). */
export interface DeviceHealthRow {
  node: string;
  pod: string;
  container?: string;
  /** `claim:<pod claim>[/<request>]` or an extended resource name. */
  resource?: string;
  /** As the kubelet reports it: a CDI device id, or `<driver>/<pool>/<device>`. */
  resourceID?: string;
  /** Healthy, Unhealthy, Unknown, or "not reported" (absent: unknown, never healthy). */
  health: 'Healthy' | 'Unhealthy' | 'Unknown' | 'not reported';
  /** The device as the claim's allocation names it, when settled. */
  driver?: string;
  pool?: string;
  device?: string;
  claim?: string;
}

/** One exceeded ResourceQuota entry, in the entry's units ("2", "500m", "4Gi"), as shown. */
export interface QuotaRow {
  resource: string;
  hard: string;
  used: string;
  /** What one new pod asks. */
  requested: string;
  /** What the workload's own pods use of it now, and the rest (other workloads, as counted by the quota). */
  ours: string;
  others: string;
}

/** One eligible node's accounting for the resource a pending pod needs. */
export interface NodeCapacityRow {
  node: string;
  resource: string; // "nvidia.com/gpu", "cpu", "hostPort 8080/TCP", "volume data (RWO)", ...
  allocatable: string;
  used: string;
  free: string;
  /** Pods holding the resource on that node: "old pod tracker-6d4-abc (this Deployment)". */
  holders: { pod: string; amount: string; ownedByThisDeployment: boolean }[];
}

/** Structured evidence; the text and Slack renderers know how to show each type. */
export type Evidence =
  | { type: 'scheduling'; pod: string; message: string; parsed: ParsedSchedulingMessage | null }
  | { type: 'strategy'; replicas: number; strategy: ResolvedStrategy }
  | { type: 'node-capacity'; rows: NodeCapacityRow[] }
  | { type: 'crash-table'; rows: NodeCrashRow[]; containers?: CrashingContainer[] }
  | {
      type: 'node-diff';
      badNodes: string[];
      goodNodes: string[];
      /** Ranked: bad conditions, CPU, kernel, runtime, OS image, kubelet, taints, labels, coincidental labels. */
      differences: { field: string; bad: string; good: string; category?: string }[];
      /** The attribute(s) whose values on the crashing nodes never occur on the healthy ones. */
      separator?: { fields: string[]; bad: string; good: string };
      clue?: CrashClueEvidence;
    }
  | {
      type: 'device-health';
      /**
       * unhealthy: a crashing pod reports its device Unhealthy; unknown: reported Unknown
       * by the kubelet, or not reported at all (never taken as healthy, see `unknown`);
       * not-blamed: reported Unhealthy, but a running pod of the template reports an
       * Unhealthy device too (or no crashing pod on a crashing node does).
       */
      verdict: 'unhealthy' | 'not-blamed' | 'healthy' | 'unknown';
      /**
       * With verdict 'unknown': whether the kubelet reported the health as Unknown
       * ('reported'), reported nothing ('absent'), or some of each ('both').
       */
      unknown?: 'reported' | 'absent' | 'both';
      rows: DeviceHealthRow[];
    }
  | {
      type: 'quota';
      /** The ResourceQuota, and per exceeded entry what it counted. */
      quota: string;
      rows: QuotaRow[];
    }
  | { type: 'condition'; condition: string; status: string; reason?: string; message?: string }
  | { type: 'pods'; title: string; pods: { name: string; node?: string; phase?: string; detail?: string }[] }
  | { type: 'log'; pod: string; container: string; tail: string }
  | { type: 'note'; text: string };

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** One line a tired SRE understands. */
  summary: string;
  /** A few sentences: why this happens, and what misleading native signals say. */
  explanation?: string;
  evidence: Evidence[];
  /** Ids of the remediation plans that address this finding, best first. */
  remediations: string[];
  /** The headline as keyed data, for readers of other languages (finding-words.ts); absent: English only. */
  says?: FindingWords;
  /**
   * What the blocked rollout waits for where it goes on by itself once they go
   * (forward/job-wait.ts): running Jobs, or neighbour Deployments' rollouts under way
   * ("ml/beta"), or a neighbour Deployment scaling down to its replicas (`scale-downs`,
   * forward/scale-down-wait.ts); `some`: enough of them, not each; `unread`: a neighbour's Deployment was
   * not read (whether it is paused is not known); `bound`: judged by a bound on room (an
   * Argo canary's steps, an end state), not a run, so it "can" go on; `starting`: a
   * neighbour's newest pods are not Ready yet (they are starting). Every plan for it
   * then says waiting may be enough.
   */
  waitsFor?: {
    holders: 'jobs' | 'rollouts' | 'scale-downs';
    names: string[];
    some: boolean;
    unread?: true;
    /** The rollout holders (of `names`) that are Argo Rollouts; the others are Deployments. */
    argo?: string[];
    /** A scale-down its autoscaler bounds: the maxReplicas that stay at most. */
    autoscalerMax?: number;
    bound?: true;
    starting?: true;
  };
}
