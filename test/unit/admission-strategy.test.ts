/**
 * The admission policy's strategy rules (issue 41.2), per kind, on the writes the
 * product makes (each plan built by its builder from a snapshot, its patch applied as
 * the API server applies it, and its Undo applied after it) and on hostile ones a
 * stolen worker token would send: a Deployment's strategy, a DaemonSet's updateStrategy,
 * a StatefulSet's updateStrategy (no kind writes it), an Argo Rollout's canary bounds
 * (a workloadRef Rollout too) and its abort. CEL on @marcbachmann/cel-js, integers as
 * CEL ints (test/support/admission-eval.ts).
 */
import { describe, expect, it } from 'vitest';
import { applyStrategicPatch } from '../../sim/patch/strategic.js';
import { applyMergePatch } from '../../sim/patch/json-merge.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import { workloadObject } from '../../src/diagnosis/workloads/index.js';
import { diagnose } from '../../src/engine/diagnose.js';
import {
  buildSetRecreatePlans,
  buildSetRollingUpdatePlans,
} from '../../src/remediation/builders/strategy-plans.js';
import { maxFixUnavailable } from '../../src/remediation/builders/strategy-bounds.js';
import type { Patch, RemediationPlan } from '../../src/remediation/plan.js';
import { fillApplyTime } from '../../src/remediation/restart-time.js';
import { denials, policy } from '../support/admission-eval.js';
import { gpuProbe } from '../support/daemonset-builders.js';
import { trackerMidUpdate } from '../support/rollout-builders.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

const workload = policy('rollout-doctor-worker-deployments');
const rollouts = policy('rollout-doctor-worker-rollouts');
const status = policy('rollout-doctor-worker-rollouts-status');
type Obj = { kind?: string; spec: Record<string, unknown>; status?: Record<string, unknown> } & Record<
  string,
  unknown
>;

const deadlock: Omit<Finding, 'remediations'> = {
  code: 'RolloutSurgeDeadlock',
  severity: 'critical',
  summary: 's',
  evidence: [],
};

/** The object after `patch`, as the API server makes it (the restart time filled in as the executor does). */
function applied(kind: string, object: unknown, patch: Patch): Obj {
  const filled = fillApplyTime(patch, new Date('2026-11-25T10:00:00Z'));
  if (filled.type === 'strategic-merge') return applyStrategicPatch(kind, object, filled.body) as Obj;
  if (filled.type === 'merge') return applyMergePatch(object, filled.body) as Obj;
  throw new Error(`no ${filled.type} patch expected`);
}
const clone = <T>(v: T): T => structuredClone(v);
const DEPLOYMENT_RULE =
  "a Deployment's strategy may change only to RollingUpdate maxSurge 0 with maxUnavailable 1 to replicas − 1 (set-rolling-update), to Recreate (set-recreate), or back from either (their Undo) to a RollingUpdate that keeps a replica up and surges at most 100%";
const DAEMONSET_RULE =
  "a DaemonSet's updateStrategy may change only to RollingUpdate maxSurge 0 with maxUnavailable 1 to nodes − 1 (set-rolling-update), or back from it (its Undo) to a RollingUpdate that keeps a node's pod up and surges at most 100%";
const CANARY_RULE =
  "a Rollout's canary may change only to maxSurge 0 with maxUnavailable 1 to replicas − 1 (set-rolling-update), or back from it (its Undo) to bounds that keep a replica up and surge at most 100%";

describe('the bound the builders and the policy share', () => {
  it('is replicas − 1, and 1 for one replica', () => {
    expect([0, 1, 2, 3, 10].map(maxFixUnavailable)).toEqual([1, 1, 1, 2, 9]);
  });
});

describe('a Deployment: set-rolling-update, set-recreate and their Undo', () => {
  const snapshot = seedIncidentA();
  const ctx = new AnalysisContext(snapshot);
  const live = workloadObject(snapshot) as unknown as Obj;
  const plans: RemediationPlan[] = [
    ...buildSetRollingUpdatePlans(ctx, deadlock),
    ...buildSetRecreatePlans(ctx, deadlock),
  ];
  const withStrategy = (strategy: unknown, replicas?: number): Obj => {
    const d = clone(live);
    d.spec['strategy'] = strategy;
    if (replicas !== undefined) d.spec['replicas'] = replicas;
    return d;
  };

  it('admits what each plan writes and what its Undo writes back', () => {
    expect(plans.map((p) => p.kind)).toEqual(['set-rolling-update', 'set-recreate']);
    for (const plan of plans) {
      if (!plan.patch || !plan.inverse) throw new Error(`${plan.kind}: no patch or inverse`);
      const after = applied('Deployment', live, plan.patch);
      expect(after.spec['strategy'], plan.kind).not.toEqual(live.spec['strategy']);
      expect(denials(workload, after, live), plan.kind).toEqual([]);
      const undone = applied('Deployment', after, plan.inverse);
      expect(undone.spec['strategy'], plan.kind).toEqual(live.spec['strategy']);
      expect(denials(workload, undone, after), `${plan.kind} Undo`).toEqual([]);
    }
  });

  it('admits a fix up to replicas − 1 unavailable, and an Undo back to the 25% defaults', () => {
    const fixed = withStrategy(
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } },
      3,
    );
    expect(denials(workload, fixed, withStrategy(live.spec['strategy'], 3))).toEqual([]);
    const defaults = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
    expect(denials(workload, withStrategy(defaults, 3), fixed)).toEqual([]);
  });

  it.each<[string, unknown, unknown, number]>([
    [
      'maxUnavailable 100%',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '100%' } },
      3,
    ],
    [
      'every replica at once',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 3 } },
      3,
    ],
    [
      'a surge of ten times',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1000%', maxUnavailable: 1 } },
      3,
    ],
    [
      'a fix with a surge',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
      3,
    ],
    [
      'an "Undo" from a fix to every replica at once',
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '100%' } },
      3,
    ],
    [
      'an "Undo" from Recreate to a surge above 100%',
      { type: 'Recreate' },
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: '150%', maxUnavailable: 1 } },
      4,
    ],
  ])('denies %s', (_what, before, after, replicas) => {
    const old = withStrategy(before ?? live.spec['strategy'], replicas);
    expect(denials(workload, withStrategy(after, replicas), old)).toEqual([DEPLOYMENT_RULE]);
  });
});

describe('a DaemonSet: set-rolling-update on spec.updateStrategy and its Undo', () => {
  const snapshot = gpuProbe({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  // The probe lives in kube-system, which the policy keeps out of reach: judged here as
  // the same DaemonSet in a namespace the worker may write.
  const probe = workloadObject(snapshot) as unknown as Obj & { metadata: Record<string, unknown> };
  const live: Obj = { ...probe, metadata: { ...probe.metadata, namespace: 'gpu-tools' } };
  const [plan] = diagnose(snapshot).remediations;
  const withStrategy = (updateStrategy: unknown): Obj => ({
    ...clone(live),
    spec: { ...clone(live.spec), updateStrategy },
  });

  it('admits what the plan writes and what its Undo writes back', () => {
    if (!plan?.patch || !plan.inverse) throw new Error('no plan');
    expect(plan.kind).toBe('set-rolling-update');
    const after = applied('DaemonSet', live, plan.patch);
    expect(denials(workload, after, live)).toEqual([]);
    const undone = applied('DaemonSet', after, plan.inverse);
    expect(undone.spec['updateStrategy']).toEqual(live.spec['updateStrategy']);
    expect(denials(workload, undone, after)).toEqual([]);
  });

  it.each<[string, unknown, unknown]>([
    [
      'maxUnavailable 100% (the CNI on every node at once)',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '100%' } },
    ],
    [
      'both nodes at once',
      undefined,
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } },
    ],
    ['OnDelete (no update ever reaches a node)', undefined, { type: 'OnDelete' }],
    [
      'an "Undo" to 51% (rounds up to both nodes)',
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '51%' } },
    ],
  ])('denies %s', (_what, before, after) => {
    expect(
      denials(workload, withStrategy(after), withStrategy(before ?? live.spec['updateStrategy'])),
    ).toEqual([DAEMONSET_RULE]);
  });
});

describe('a StatefulSet: no kind changes its updateStrategy', () => {
  const sts = (updateStrategy: unknown): Obj => ({
    kind: 'StatefulSet',
    metadata: { name: 'ledger', namespace: 'vision' },
    spec: {
      replicas: 3,
      serviceName: 'ledger',
      selector: { matchLabels: { app: 'ledger' } },
      updateStrategy,
      template: {
        metadata: { labels: { app: 'ledger' } },
        spec: { containers: [{ name: 'l', image: 'l:1' }] },
      },
    },
  });
  const live = sts({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });

  it.each<[string, unknown]>([
    ['partition 99 (no pod is updated again)', { type: 'RollingUpdate', rollingUpdate: { partition: 99 } }],
    [
      'maxUnavailable 100%',
      { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '100%' } },
    ],
    ['OnDelete', { type: 'OnDelete' }],
  ])('denies %s', (_what, updateStrategy) => {
    expect(denials(workload, sts(updateStrategy), live)).toEqual([
      "the worker may not change a StatefulSet's updateStrategy",
    ]);
  });

  it('admits a write that leaves it alone (a restart)', () => {
    const restarted = clone(live);
    (restarted.spec['template'] as { metadata: Record<string, unknown> }).metadata['annotations'] = {
      'kubectl.kubernetes.io/restartedAt': '2026-11-25T10:00:00Z',
    };
    expect(denials(workload, restarted, live)).toEqual([]);
  });
});

describe('an Argo Rollout: the canary bounds, their Undo and the abort', () => {
  const snapshot = trackerMidUpdate(undefined, 3);
  const live = workloadObject(snapshot) as unknown as Obj;
  const plans = diagnose(snapshot).remediations;
  const fix = plans.find((p) => p.kind === 'set-rolling-update');
  const abort = plans.find((p) => p.kind === 'abort-rollout');
  const withCanary = (bounds: Record<string, unknown>, from: Obj = live): Obj => {
    const r = clone(from);
    const strategy = r.spec['strategy'] as { canary: Record<string, unknown> };
    strategy.canary = { ...strategy.canary, ...bounds };
    for (const [k, v] of Object.entries(bounds)) if (v === undefined) delete strategy.canary[k];
    return r;
  };

  it('admits the canary fix and its Undo, under both policies that judge a Rollout', () => {
    if (!fix?.patch || !fix.inverse) throw new Error('no canary fix');
    const after = applied('Rollout', live, fix.patch);
    expect(denials(rollouts, after, live)).toEqual([]);
    expect(denials(workload, after, live)).toEqual([]);
    const undone = applied('Rollout', after, fix.inverse);
    expect(undone.spec).toEqual(live.spec);
    expect(denials(rollouts, undone, after)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown> | undefined]>([
    ['maxUnavailable 100%', { maxSurge: 0, maxUnavailable: '100%' }, undefined],
    ['every replica at once', { maxSurge: 0, maxUnavailable: 3 }, undefined],
    ['bounds that only surge more', { maxSurge: '300%', maxUnavailable: undefined }, undefined],
    [
      'an "Undo" to every replica at once',
      { maxSurge: 1, maxUnavailable: '100%' },
      { maxSurge: 0, maxUnavailable: 1 },
    ],
  ])('denies %s', (_what, bounds, before) => {
    const old = before ? withCanary(before) : live;
    expect(denials(rollouts, withCanary(bounds), old)).toEqual([CANARY_RULE]);
  });

  it('admits the abort the plan writes, only while an update is under way and not aborted yet', () => {
    if (!abort?.patch) throw new Error('no abort plan');
    const aborted = applied('Rollout', live, abort.patch);
    expect(denials(status, aborted, live)).toEqual([]);
    const settled = clone(live);
    (settled.status as Record<string, unknown>)['currentPodHash'] = 'a1';
    const onlyUnderWay =
      'the worker may abort only a Rollout whose update is under way (its current revision is not the stable one) and that is not aborted already';
    expect(denials(status, applied('Rollout', settled, abort.patch), settled)).toEqual([onlyUnderWay]);
    const noStatus = clone(live);
    delete noStatus.status;
    expect(denials(status, applied('Rollout', noStatus, abort.patch), noStatus)).toContain(onlyUnderWay);
  });

  describe('a workloadRef Rollout (no spec.template)', () => {
    const ref = (): Obj => {
      const r = clone(live);
      delete r.spec['template'];
      r.spec['workloadRef'] = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'tracker' };
      return r;
    };

    it('is judged without an error: the canary fix passes both policies, hostile bounds do not', () => {
      if (!fix?.patch) throw new Error('no canary fix');
      const after = applied('Rollout', ref(), fix.patch);
      expect(denials(workload, after, ref())).toEqual([]);
      expect(denials(rollouts, after, ref())).toEqual([]);
      const hostile = withCanary({ maxSurge: 0, maxUnavailable: '100%' }, ref());
      expect(denials(workload, hostile, ref())).toEqual([]);
      expect(denials(rollouts, hostile, ref())).toEqual([CANARY_RULE]);
    });

    it('gets no pod template from the worker', () => {
      const templated = ref();
      templated.spec['template'] = { spec: { containers: [{ name: 'x', image: 'evil:1' }] } };
      expect(denials(workload, templated, ref()).length).toBeGreaterThan(0);
    });
  });
});
