/**
 * The diagnose job's mode names what it diagnoses: 'workload' (any kind; `target.kind`
 * says which). A job queued by an earlier version under its old name, 'deployment',
 * reads as the same job, whatever its kind; any other mode is refused.
 */
import { describe, expect, it } from 'vitest';
import { diagnoseJobSchema } from '../../src/queue/schemas.js';

const job = {
  cluster: 'prod',
  target: { kind: 'StatefulSet', namespace: 'shop', name: 'orders-db' },
  requestedBy: 'U0ASK',
};

describe("the diagnose job's mode", () => {
  it("'workload' is read as written", () => {
    expect(diagnoseJobSchema.parse({ mode: 'workload', ...job })).toEqual({ mode: 'workload', ...job });
  });

  it("an older job's 'deployment' reads as 'workload', its kind kept", () => {
    expect(diagnoseJobSchema.parse({ mode: 'deployment', ...job })).toEqual({ mode: 'workload', ...job });
  });

  it('any other mode is refused', () => {
    expect(diagnoseJobSchema.safeParse({ mode: 'statefulset', ...job }).success).toBe(false);
    expect(diagnoseJobSchema.safeParse({ ...job }).success).toBe(false);
  });
});
