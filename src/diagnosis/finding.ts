import type { ResolvedStrategy } from './fenceposts.js';
import type { ParsedSchedulingMessage } from './scheduling-message.js';

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
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

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
  | { type: 'crash-table'; rows: NodeCrashRow[] }
  | {
      type: 'node-diff';
      badNodes: string[];
      goodNodes: string[];
      differences: { field: string; bad: string; good: string }[];
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
}
