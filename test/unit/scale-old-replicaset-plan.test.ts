/**
 * The scale-old-replicaset plan builder: what it proposes for a proved surge
 * deadlock (one replica: the brief outage of maxSurge 0; three: every old replica at
 * once, said plainly), and when it proposes nothing.
 */
import { describe, expect, it } from 'vitest';
import { surgeDeadlock } from '../../src/diagnosis/analyzers/surge-deadlock.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import {
  buildScaleOldReplicaSetPlans,
  scalePatch,
} from '../../src/remediation/builders/scale-old-replicaset.js';
import { checkPlanWithinKind, MAX_SCALE_BACK_REPLICAS } from '../../src/remediation/patch-allowlist.js';
import { undoBlocks } from '../support/slack-run.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { makeNode, makeReplicaSet } from '../support/k8s-builders.js';
import { edgeIngress, pendingRolloutSnapshot, rollout, seedIncidentA } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { confirmDialogText, threadReport } from '../support/slack-run.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { buildRolloutRestartPlans } from '../../src/remediation/builders/rollout-restart.js';
import type { NotOffered, RemediationPlan } from '../../src/remediation/plan.js';
import { toJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { planImpact, planWarnings } from '../../src/remediation/plan-words.js';
import { codeSpan } from '../../src/text/code-span.js';

/** The builder's plans for `snapshot`, on the deadlock finding of `findingOf` (default: the same snapshot). */
function plans(
  snapshot: DeploymentSnapshot,
  findingOf: DeploymentSnapshot = snapshot,
  notOffered?: NotOffered,
) {
  const [finding] = surgeDeadlock.analyze(new AnalysisContext(findingOf));
  if (finding?.code !== 'RolloutSurgeDeadlock') throw new Error(`no deadlock: ${finding?.code ?? 'none'}`);
  return buildScaleOldReplicaSetPlans(new AnalysisContext(snapshot), finding, notOffered);
}

const threeReplicaIngress = edgeIngress;

describe('scale-old-replicaset plan', () => {
  it('one replica: scales the old ReplicaSet holding the GPU to 0, with its uid and replicas tested', () => {
    const snapshot = seedIncidentA();
    const [plan] = plans(snapshot);
    const { oldRs, newRs, deployment } = snapshot.parts;
    expect(plan?.kind).toBe('scale-old-replicaset');
    expect(plan?.replicaSet).toEqual({
      name: oldRs.metadata.name,
      uid: oldRs.metadata.uid,
      podTemplateHash: '6d4cf56db6',
      replicas: 1,
      to: 0,
      newReplicaSet: { name: newRs.metadata.name, uid: newRs.metadata.uid },
    });
    expect(plan?.patch).toEqual({
      type: 'json',
      body: [
        { op: 'test', path: '/metadata/uid', value: oldRs.metadata.uid },
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/replicas', value: 0 },
      ],
    });
    expect(plan?.preconditions).toMatchObject({ uid: deployment.metadata.uid, generation: 4 });
    expect(plan?.inverse).toBeNull();
    expect(plan?.impact).toMatch(/^brief outage: the only replica/);
    expect(plan?.summary).toContain('tracker-node');
    expect(plan?.warnings.join(' ')).toMatch(/proportional scaling/);
    expect(plan?.warnings.join(' ')).toMatch(/rollout undo/);
    // The plan passes its own allowlist against the live Deployment.
    if (plan) expect(checkPlanWithinKind(plan, deployment)).toEqual({ ok: true });
  });

  it('three replicas: the stepped plan first (one at a time), then all at once saying OUTAGE', () => {
    const snapshot = threeReplicaIngress();
    const [stepped, plan, ...rest] = plans(snapshot);
    expect(rest).toEqual([]);
    expect(plan?.replicaSet).toMatchObject({ replicas: 3, to: 0 });
    expect(plan?.replicaSet?.stepped).toBeUndefined();
    expect(plan?.impact).toMatch(/^OUTAGE: all 3 old replicas go down at once/);
    expect(plan?.impact).toContain('deadlocks again one pod later');
    // No new pod is Ready yet (the surge pod is Pending): nothing serves, said plainly.
    expect(plan?.impact).toContain('at once; no pod serves until the new pods are Ready.');
    expect(plan?.warnings[0]).toMatch(/Every old replica goes at once \(3 of 3\)/);

    expect(stepped?.replicaSet).toMatchObject({ replicas: 3, to: 0, stepped: true });
    expect(stepped?.id).not.toBe(plan?.id);
    expect(stepped?.impact).toMatch(/^reduced capacity: 2 of 3 replicas keep serving at every step/);
    expect(stepped?.summary).toContain('pod-deletion-cost');
    // Its sealed patch is the first step, down by one, and passes its allowlist.
    expect((stepped?.patch?.body as unknown[])[2]).toEqual({
      op: 'replace',
      path: '/spec/replicas',
      value: 2,
    });
    if (stepped) expect(checkPlanWithinKind(stepped, snapshot.deployment)).toEqual({ ok: true });
    if (stepped) {
      const toZero = { ...stepped, patch: plan?.patch ?? null };
      expect(checkPlanWithinKind(toZero, snapshot.deployment).ok).toBe(false);
    }
  });

  it('paused: scaling to 0 is still offered (pausing stops rollouts, not scaling) and says so; stepping is not, and the diagnosis says why', () => {
    const paused = seedIncidentA();
    paused.deployment.spec.paused = true;
    const [one, ...none] = plans(paused, seedIncidentA());
    expect(none).toEqual([]);
    expect(one?.replicaSet).toMatchObject({ replicas: 1, to: 0 });
    expect(one?.warnings[0]).toMatch(/^The Deployment is paused, and this works all the same/);

    const three = threeReplicaIngress();
    three.deployment.spec.paused = true;
    const notes: string[] = [];
    const offered = plans(three, threeReplicaIngress(), (kind, reason) => notes.push(`${kind}: ${reason}`));
    expect(offered.map((p) => [p.replicaSet?.to, p.replicaSet?.stepped])).toEqual([[0, undefined]]);
    expect(notes).toEqual([
      expect.stringMatching(/one replica at a time: the Deployment is paused.*proportionally/),
    ]);
  });

  it('paused: the restart waits for the resume; a lower maxSurge scales the ReplicaSets down at once, Recreate does not', () => {
    const paused = seedIncidentA();
    paused.deployment.spec.paused = true;
    const result = diagnose(paused);
    const finding = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(finding?.explanation).toContain('The Deployment is also paused (spec.paused)');
    for (const kind of ['set-rolling-update', 'set-recreate'] as const) {
      const plan = result.remediations.find((p) => p.kind === kind);
      expect(plan?.summary, kind).toContain('once the Deployment is resumed (it is paused)');
      expect(plan?.warnings.join(' '), kind).not.toMatch(/a new rollout starts and replaces/);
    }
    // scale() keeps the ReplicaSets (1 old + 1 new) to spec.replicas + maxSurge = 1: one pod
    // goes as soon as maxSurge 0 is applied, paused or not (sync.go scale).
    const rolling = result.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.impact).toMatch(/^Now and in every later rollout/);
    expect(rolling?.warnings).toContainEqual(
      expect.stringContaining(
        'The Deployment is paused, but it still scales: with maxSurge 0 its ReplicaSets may hold 1 pod, not the 2 they hold, so the controller removes 1 as soon as this is applied',
      ),
    );
    // Recreate: scale() leaves a Recreate Deployment's ReplicaSets alone while paused.
    const recreatePlan = result.remediations.find((p) => p.kind === 'set-recreate');
    expect(recreatePlan?.impact).toMatch(/^Nothing rolls out while the Deployment is paused/);
    expect(recreatePlan?.warnings.join(' ')).not.toContain('it still scales');
    // A plain restart (Recreate: no surge deadlock stands) promises nothing while paused either.
    const recreate = seedIncidentA();
    recreate.deployment.spec.paused = true;
    recreate.deployment.spec.strategy = { type: 'Recreate' };
    const crash = {
      code: 'CrashLoop' as const,
      severity: 'warning' as const,
      summary: '',
      explanation: '',
      evidence: [],
    };
    const [restart] = buildRolloutRestartPlans(new AnalysisContext(recreate), crash);
    expect(restart?.impact).toMatch(/^none while the Deployment is paused/);
    // In Korean too, impact and warning, with the command still code.
    if (!restart) throw new Error('no restart plan');
    expect(planImpact(restart, 'ko')).toMatch(
      /^Deployment가 일시 중지된 동안에는 아무 일도 없습니다: .* 레플리카 1개가 모두 멈춘 다음 새 파드가 시작됩니다\(Recreate\)$/,
    );
    expect(planWarnings(restart, 'ko')).toEqual([
      `Deployment가 일시 중지되어 있습니다: ${codeSpan('kubectl rollout resume')} 명령 전에는 아무것도 재시작하지 않습니다. 재시작 어노테이션은 템플릿에서 기다립니다.`,
    ]);
    // Not paused: the plans promise the rollout now, and the finding says nothing of a pause.
    const live = diagnose(seedIncidentA());
    expect(live.findings.find((f) => f.code === 'RolloutSurgeDeadlock')?.explanation).not.toContain('paused');
    expect(live.remediations.find((p) => p.kind === 'set-rolling-update')?.impact).toMatch(
      /^Now and in every later rollout/,
    );
  });

  it('offers nothing when ReplicaSets were not all read (and says why)', () => {
    const partial = seedIncidentA();
    partial.coverage = { ...partial.coverage, replicaSets: 'partial' };
    const notes: string[] = [];
    expect(plans(partial, seedIncidentA(), (kind, reason) => notes.push(`${kind}: ${reason}`))).toEqual([]);
    expect(notes).toEqual([
      expect.stringMatching(/^scale-old-replicaset: the Deployment's ReplicaSets were not all read/),
    ]);
  });

  it('two active old ReplicaSets, the blocking pods in one: that one is the target, the other is named', () => {
    const twoOld = seedIncidentA();
    const olderTemplate = structuredClone(twoOld.parts.oldRs.spec.template);
    const container = olderTemplate?.spec.containers[0];
    if (container) container.image = 'registry.example/object-tracker:0.9';
    const older = makeReplicaSet(twoOld.deployment, '58c9d7b6f4', {
      revision: 2,
      replicas: 1,
      ...(olderTemplate ? { template: olderTemplate } : {}),
    });
    older.metadata.creationTimestamp = '2026-11-19T10:00:00Z';
    twoOld.replicaSets = [...twoOld.replicaSets, older];
    const notes: string[] = [];
    const [plan, ...rest] = plans(twoOld, seedIncidentA(), (kind, reason) =>
      notes.push(`${kind}: ${reason}`),
    );
    expect(rest).toEqual([]);
    expect(notes).toEqual([]);
    // The old pod holding the GPU is the old ReplicaSet's; the older one has no pod there.
    expect(plan?.replicaSet).toMatchObject({ name: twoOld.parts.oldRs.metadata.name, replicas: 1, to: 0 });
    expect(plan?.warnings[0]).toContain(
      `Other old ReplicaSet(s) stay as they are: ${older.metadata.name ?? ''} (1)`,
    );
  });

  it('pods of two old ReplicaSets hold what the new pod needs: no plan, and the diagnosis says why', () => {
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
    const { oldRs, deployment } = parts;
    const olderTemplate = structuredClone(oldRs.spec.template);
    const container = olderTemplate?.spec.containers[0];
    if (container) container.image = 'registry.example/ingress:0.9';
    const older = makeReplicaSet(deployment, '58c9d7b6f4', {
      revision: 2,
      replicas: 1,
      ...(olderTemplate ? { template: olderTemplate } : {}),
    });
    older.metadata.creationTimestamp = '2026-11-19T10:00:00Z';
    oldRs.spec.replicas = 2;
    // The old pod on edge-3 is the older ReplicaSet's.
    const moved = parts.oldPods.find((p) => p.spec.nodeName === 'edge-3');
    if (!moved) throw new Error('no pod on edge-3');
    moved.metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: older.metadata.name ?? '',
        uid: older.metadata.uid ?? '',
        controller: true,
      },
    ];
    moved.metadata.labels = { ...moved.metadata.labels, 'pod-template-hash': '58c9d7b6f4' };
    const snapshot = pendingRolloutSnapshot(
      parts,
      ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } })),
      "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
    snapshot.replicaSets = [...snapshot.replicaSets, older];
    const notes: string[] = [];
    expect(plans(snapshot, snapshot, (kind, reason) => notes.push(`${kind}: ${reason}`))).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(
      `pods of 2 old ReplicaSets, ${oldRs.metadata.name ?? ''} (2), ${older.metadata.name ?? ''} (1)`,
    );
    expect(notes[0]).toContain('deadlocks again');
    // The whole diagnosis carries it: JSON, text report and the thread.
    const result = diagnose(snapshot);
    expect(result.remediations.map((p) => p.kind)).not.toContain('scale-old-replicaset');
    expect(result.notOffered).toEqual([
      {
        kind: 'scale-old-replicaset',
        addresses: 'RolloutSurgeDeadlock',
        reason: notes[0]?.replace(/^scale-old-replicaset: /, ''),
      },
    ]);
    expect(toJson(result).notOffered).toEqual(result.notOffered);
    expect(renderText(result)).toContain(
      'Not offered: scale-old-replicaset, for RolloutSurgeDeadlock: pods of 2 old',
    );
    const thread = JSON.stringify(threadReport({ cluster: 'prod', diagnosis: result, dryRuns: {} }));
    expect(thread).toContain('Not offered: scale-old-replicaset');
  });
});

describe('scale-old-replicaset: its Undo scales the old ReplicaSet back', () => {
  const applied = (plan: RemediationPlan, after: number) => ({
    generation: 4,
    changes: [{ path: `replicasets/${plan.replicaSet?.name ?? ''}/spec/replicas`, before: 3, after }],
  });

  it('back to the count it had, from the count the scale left, sealed like any plan, within its kind', () => {
    const [stepped] = plans(threeReplicaIngress());
    if (!stepped?.replicaSet) throw new Error('no stepped plan');
    // The walk stopped at 1 of 3: the Undo puts back 2.
    const undo = inversePlan(stepped, applied(stepped, 1));
    const rs = stepped.replicaSet;
    expect(undo).toMatchObject({
      id: `undo-${stepped.id}`,
      kind: 'scale-back-old-replicaset',
      inverse: null,
      preconditions: { uid: stepped.preconditions.uid, generation: 4, fields: [] },
      replicaSet: {
        name: rs.name,
        uid: rs.uid,
        podTemplateHash: rs.podTemplateHash,
        replicas: 1,
        to: 3,
        newReplicaSet: rs.newReplicaSet,
      },
      patch: {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: rs.uid },
          { op: 'test', path: '/spec/replicas', value: 1 },
          { op: 'replace', path: '/spec/replicas', value: 3 },
        ],
      },
    });
    expect(undo?.replicaSet).not.toHaveProperty('stepped');
    if (!undo) return;
    expect(checkPlanWithinKind(undo, {})).toEqual({ ok: true });
    // What it restores and that it starts no rollout, in the reply and in its dialog.
    const blocks = JSON.stringify(undoBlocks({ plan: undo, cluster: 'prod', createdAt: 0, expiresAt: 1 }));
    expect(blocks).toContain(`Undo* restores old ReplicaSet ${rs.name} to 3 replica(s), the count it had`);
    expect(blocks).toContain('It starts no rollout');
    expect(blocks).toContain('roll the Deployment back');
    const dialog = confirmDialogText(undo, { undo: true });
    expect(dialog).toContain(
      `Scale old ReplicaSet ${rs.name} of deployment/ingress in ns vision back to 3 replicas`,
    );
    expect(dialog).toContain('Impact: starts no rollout');
    expect(undo.warnings.join(' ')).toContain('kubectl rollout undo deployment/ingress -n vision');
  });

  it('nothing to put back: no Undo; an Undo of the Undo: none', () => {
    const [stepped] = plans(threeReplicaIngress());
    if (!stepped) throw new Error('no plan');
    expect(inversePlan(stepped, applied(stepped, 3))).toBeNull();
    const undo = inversePlan(stepped, applied(stepped, 0));
    expect(undo && inversePlan(undo, applied(undo, 3))).toBeNull();
  });

  it('its allowlist: up only, at once, to at most the admission bound, the exact patch', () => {
    const [stepped] = plans(threeReplicaIngress());
    if (!stepped) throw new Error('no plan');
    const undo = inversePlan(stepped, applied(stepped, 0));
    if (!undo?.replicaSet || !undo.patch) throw new Error('no undo');
    const rs = undo.replicaSet;
    const withTarget = (to: number, replicas = rs.replicas): RemediationPlan => ({
      ...undo,
      replicaSet: { ...rs, replicas, to },
      patch: scalePatch({ uid: rs.uid, replicas, to }),
    });
    expect(checkPlanWithinKind(withTarget(MAX_SCALE_BACK_REPLICAS), {})).toEqual({ ok: true });
    expect(checkPlanWithinKind(withTarget(MAX_SCALE_BACK_REPLICAS + 1), {}).ok).toBe(false);
    expect(checkPlanWithinKind(withTarget(0, 3), {}).ok).toBe(false);
    expect(checkPlanWithinKind({ ...undo, replicaSet: { ...rs, stepped: true } }, {}).ok).toBe(false);
    // The patch must say what the sealed ReplicaSet says.
    expect(
      checkPlanWithinKind({ ...undo, patch: scalePatch({ uid: rs.uid, replicas: 0, to: 9 }) }, {}).ok,
    ).toBe(false);
    expect(checkPlanWithinKind({ ...undo, inverse: undo.patch }, {}).ok).toBe(false);
  });
});
