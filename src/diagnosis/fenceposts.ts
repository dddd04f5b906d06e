// Placeholder types; the implementation lands with the diagnosis engine (issue 2).
export type ValueSource = 'explicit' | 'default';

export interface ResolvedValue {
  /** As written (or defaulted) in the spec: 1, "25%". */
  raw: number | string;
  /** Resolved against spec.replicas exactly as the Deployment controller does. */
  value: number;
  source: ValueSource;
}

export interface ResolvedStrategy {
  type: 'RollingUpdate' | 'Recreate';
  maxSurge: ResolvedValue | null; // null for Recreate
  maxUnavailable: ResolvedValue | null;
}
