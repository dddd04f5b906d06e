/**
 * What a plan keeps of its words (its impact and some warnings): a message of the plan
 * catalogue (src/remediation/plan-words.ts) and its parameters. The parameters are
 * typed here, apart from the catalogue, so the plan's type names them without
 * importing the catalogue and what it imports.
 */

/** When a strategy change acts: now (a restart), from a paused workload's resume on, or at the next rollout only. */
export type Lead = { paused: boolean; restart: boolean };

export interface PlanParams {
  rollingOldFirst: Lead & { down: number; replicas: number };
  recreate: Lead & { replicas: number };
  scaleOldOnly: { replicaSet: string };
  scaleOldAll: { from: number; newReady: number };
  scaleOldStepped: { replicas: number };
  restartedAt: { paused: boolean; quota?: string; stuck?: string };
  undoPrevious: { previous: string };
  pausedStrategy: { restart: boolean; command: string };
  fromManifest: { kind: string };
  recreateLater: Record<string, never>;
  /** exclude-node of crashing nodes by name, every node read; `ttl` absent: until removed. */
  excludeHost: {
    after: number;
    before: number;
    eligible: string;
    excluded: string;
    strategy: string;
    replicas: number;
    ttl?: string;
  };
}

/** One message of the plan catalogue with its parameters. */
export type PlanSaid = { [K in keyof PlanParams]: { key: K; params: PlanParams[K] } }[keyof PlanParams];
