/**
 * What applying (or dry-running) a plan comes to, and how an API error is classified:
 * shared by the executor and the writers it hands plans to, so every kind says
 * retryable, refused and "may have been applied" the same way.
 */
import { KubeApiError } from '../errors.js';
import type { FieldChange } from './patch-effect.js';

/** `conflict`: a 409, the object written between the read and the dry run (read again and retry). */
export type DryRunResult =
  { ok: true; changes: FieldChange[] } | { ok: false; reason: string; conflict?: true };

export type ApplyResult =
  | {
      status: 'applied';
      changes: FieldChange[];
      generation: number;
      resourceVersion: string;
      /** Why no Undo is offered for what was done (a stepped walk the Deployment moved on under). */
      noUndo?: string;
    }
  | {
      status: 'already-applied';
      reason: string;
      /** The live generation, and the values now at the paths the plan sets (`before` unknown). */
      generation: number;
      changes: FieldChange[];
      /** As for applied: why no Undo is offered. */
      noUndo?: string;
    }
  | {
      status: 'refused';
      reason: string;
      field?: string;
      /** The plan itself is out of bounds (patch outside its kind, pods of another owner): not a stale plan. */
      tampered?: true;
    }
  | {
      status: 'failed';
      reason: string;
      retryable: boolean;
      /** The write was sent but no answer came back: it may have been applied. */
      outcomeUnknown?: boolean;
    };

/** A failed request: retryable when the server was unreachable, throttling or failing (0, 429, 5xx). */
export function failure(error: unknown): { status: 'failed'; reason: string; retryable: boolean } {
  if (error instanceof KubeApiError) {
    const retryable = error.status === 0 || error.status === 429 || error.status >= 500;
    return { status: 'failed', reason: error.message, retryable };
  }
  return {
    status: 'failed',
    reason: error instanceof Error ? error.message : String(error),
    retryable: false,
  };
}

/** A failed write: as `failure`, and its outcome unknown when the write was sent and no answer came. */
export function writeFailure(error: unknown, writing: boolean): Extract<ApplyResult, { status: 'failed' }> {
  const failed = failure(error);
  return writing && error instanceof KubeApiError && error.status === 0
    ? { ...failed, outcomeUnknown: true }
    : failed;
}
