/**
 * A stepped scale-old-replicaset whose write fails at step 1 ends as the all-at-once
 * scale would (one classification, scaleFailure): retryable, refused, or "may have been
 * applied"; and the pod-deletion-cost mark it set is taken off again, or, where that
 * fails too, said in the thread (a marks-left step), never left silently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule, Simulator } from '../../sim/index.js';
import { remediationOutcomeMessage } from '../support/slack-run.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/kube/write/stepped-walk.js';
import { notifyJobSchema, type NotifyJob } from '../../src/queue/schemas.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { EDGE, deadlockedIngress } from '../support/edge-ingress.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stepped-failures-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function deadlocked(): Promise<{ s: Simulator; client: KubeClient; plans: RemediationPlan[] }> {
  const started = await deadlockedIngress(dir);
  sim = started.sim;
  const plans = diagnose(await collectSnapshot(started.client, EDGE)).remediations;
  return { s: started.sim, client: started.client, plans };
}

const stepped = (plans: RemediationPlan[]): RemediationPlan => {
  const plan = plans.find((p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped);
  if (!plan) throw new Error('no stepped plan');
  return plan;
};
const allAtOnce = (plans: RemediationPlan[]): RemediationPlan => {
  const plan = plans.find((p) => p.kind === 'scale-old-replicaset' && !p.replicaSet?.stepped);
  if (!plan) throw new Error('no all-at-once plan');
  return plan;
};
const marked = (s: Simulator): string[] =>
  (s.list('Pod', 'edge') as Pod[])
    .filter((p) => p.metadata.annotations?.[COST] !== undefined)
    .map((p) => p.metadata.name ?? '');
const oldReplicas = (s: Simulator, plan: RemediationPlan): number | undefined =>
  (s.get('ReplicaSet', 'edge', plan.replicaSet?.name ?? '') as ReplicaSet | undefined)?.spec.replicas;
/** The real (not dry-run) write to the old ReplicaSet's scale subresource. */
const scaleWrite = (fault: Omit<FaultRule, 'match'>): FaultRule => ({
  match: { verb: 'patch', resource: 'replicasets', subresource: 'scale', dryRun: false },
  times: 1,
  ...fault,
});

describe('stepped scale-old-replicaset: a write that fails at step 1', () => {
  it('a 503 is a retryable failure, as for the all-at-once scale, and the mark comes off again', async () => {
    const { s, client, plans } = await deadlocked();
    const plan = stepped(plans);
    s.addFault(scaleWrite({ status: 503 }));
    const steps: StepEvent[] = [];
    const result = await applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 5000, onStep: (e) => steps.push(e) },
    });
    expect(result).toMatchObject({ status: 'failed', retryable: true });
    expect(result).not.toHaveProperty('outcomeUnknown');
    expect(oldReplicas(s, plan)).toBe(3);
    // The mark was set before the write, and taken off with the same field manager.
    expect(s.requests.filter((r) => r.verb === 'patch' && r.resource === 'pods').map((r) => r.query)).toEqual(
      [
        expect.stringContaining('fieldManager=rollout-doctor'),
        expect.stringContaining('fieldManager=rollout-doctor'),
      ],
    );
    expect(marked(s)).toEqual([]);
    expect(steps).toEqual([]);

    // The all-at-once plan says the same of the same failure.
    s.addFault(scaleWrite({ status: 503 }));
    expect(await applyPlan(client, allAtOnce(plans))).toEqual({
      status: 'failed',
      reason: (result as { reason: string }).reason,
      retryable: true,
    });
  });

  it('a write that got no answer may have been applied: outcome unknown, never "changed since the diagnosis"', async () => {
    const { s, client, plans } = await deadlocked();
    s.addFault(scaleWrite({ reset: true }));
    const result = await applyPlan(client, stepped(plans), { step: { pollMs: 20, stepTimeoutMs: 5000 } });
    expect(result).toMatchObject({ status: 'failed', retryable: true, outcomeUnknown: true });
    expect(marked(s)).toEqual([]);
  });

  it('a failed test (the ReplicaSet changed between the check and the write) is a refusal; the mark comes off', async () => {
    const { s, client, plans } = await deadlocked();
    s.addFault(scaleWrite({ status: 422 }));
    const result = await applyPlan(client, stepped(plans), { step: { pollMs: 20, stepTimeoutMs: 5000 } });
    expect(result.status).toBe('refused');
    expect(result).not.toHaveProperty('tampered');
    expect(marked(s)).toEqual([]);
  });

  it('a mark that cannot be taken off is said in the thread, with the command that takes it off', async () => {
    const { s, client, plans } = await deadlocked();
    const plan = stepped(plans);
    s.addFault(scaleWrite({ status: 503 }));
    // As soon as the mark is on a pod, its removal will fail.
    let armed = false;
    const unsubscribe = s.onChange(() => {
      if (!armed && marked(s).length > 0) {
        armed = true;
        s.addFault({ match: { verb: 'patch', resource: 'pods' }, status: 503 });
      }
    });
    const steps: StepEvent[] = [];
    try {
      const result = await applyPlan(client, plan, {
        step: { pollMs: 20, stepTimeoutMs: 5000, onStep: (e) => steps.push(e) },
      });
      expect(result).toMatchObject({ status: 'failed', retryable: true });
    } finally {
      unsubscribe();
    }
    const left = marked(s);
    expect(left).toHaveLength(1);
    expect(steps).toEqual([
      {
        phase: 'marks-left',
        step: 1,
        of: 3,
        replicaSet: plan.replicaSet?.name,
        namespace: 'edge',
        pods: left,
      },
    ]);
    const job = notifyJobSchema.parse({
      kind: 'remediation-outcome',
      planId: plan.id,
      cluster: 'prod',
      channel: 'C1',
      messageTs: '1.1',
      stage: 'progress',
      detail: 'marks left',
      step: steps[0],
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const body = JSON.stringify(remediationOutcomeMessage(job).blocks);
    expect(body).toContain('pod-deletion-cost left on');
    expect(body).toContain(`kubectl annotate pod ${left[0] ?? ''} -n edge ${COST}-`);
  });
});
