/**
 * A plan as the plan store keeps it (src/queue/plan-store.ts), in a file of its own so that
 * sealing (plan-seal.ts, which reads these fields) and storing (store.ts, which seals)
 * do not import each other, not even for types: the stored plan and the shape of its
 * seal (how a seal is made and checked is plan-seal.ts).
 */
import { z } from 'zod';
import type { RemediationPlan } from '../remediation/plan.js';

export const planSealSchema = z.object({
  /** Absent on v1 seals. */
  v: z.number().int().optional(),
  keyId: z.string().min(1).max(64),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PlanSeal = z.infer<typeof planSealSchema>;

export interface FieldChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export type DryRunSummary = { ok: true; changes: FieldChange[] } | { ok: false; reason: string };

/** A plan as stored: the plan, where it applies, and what the dry run said. */
export interface StoredPlan {
  plan: RemediationPlan;
  cluster: string;
  createdAt: number;
  expiresAt: number;
  dryRun?: DryRunSummary;
  /** Set on undo plans: the plan whose effect this one reverses. */
  undoOf?: string;
  /** The worker's seal (src/trust/plan-seal.ts); a worker applies only plans whose seal verifies. */
  seal?: PlanSeal;
}
