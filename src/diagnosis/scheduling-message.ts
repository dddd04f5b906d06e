// Placeholder types; the implementation lands with the diagnosis engine (issue 2).
export type SchedulingCategory =
  | 'resources'
  | 'node-selection'
  | 'taints'
  | 'ports'
  | 'volumes'
  | 'pod-affinity'
  | 'node-unschedulable'
  | 'pod-count'
  | 'other';

export interface SchedulingReason {
  count: number;
  reason: string;
  category: SchedulingCategory;
  /** For category "resources": the resource name ("nvidia.com/gpu", "cpu"). */
  resource?: string;
}

export interface ParsedSchedulingMessage {
  total: number;
  reasons: SchedulingReason[];
  preemption: { total: number; reasons: SchedulingReason[]; text?: string } | null;
}
