/**
 * Every plan that changes pods is run forward before it is shown (issue 52.1): the
 * plans of a surge deadlock held to the PodDisruptionBudget over the pods, to the pause,
 * and to a template known to crash; the proof shown with the plan.
 */
import { describe, expect, it } from 'vitest';
import type { PodDisruptionBudget } from '../../src/diagnosis/k8s-policy.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { proofBrief, proofSentence } from '../../src/remediation/proof-text.js';
import { renderText } from '../../src/report/text.js';
import type { PlanProof, RemediationPlan } from '../../src/remediation/plan.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet, makeSnapshot } from '../support/k8s-builders.js';
import { edgeIngress, pendingRolloutSnapshot, PORTS_MESSAGE, rollout } from '../support/rollout-scenarios.js';
import { crashScenario } from '../support/crash-fixtures.js';

/** Three ingress replicas on three nodes, each holding hostPort 8080: the surge pod fits nowhere. */
function ingress(budget?: Partial<NonNullable<PodDisruptionBudget['spec']>>): DeploymentSnapshot {
  const snapshot = edgeIngress();
  if (budget === undefined) return snapshot;
  const pdb: PodDisruptionBudget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'ingress', namespace: 'vision', generation: 1 },
    spec: { selector: { matchLabels: { app: 'ingress' } }, ...budget },
  };
  return { ...snapshot, guards: { podDisruptionBudgets: [pdb] } };
}

const kinds = (s: DeploymentSnapshot): string[] => diagnose(s).remediations.map((p) => p.kind);

function proofOf(plan: RemediationPlan | undefined): PlanProof {
  if (!plan?.proof) throw new Error(`no proof on ${plan?.kind ?? 'a missing plan'}`);
  return plan.proof;
}

describe('plans run forward against the disruption budget', () => {
  it('no budget over the pods: every fix that finishes the rollout is offered, each with its proof', () => {
    const d = diagnose({ ...ingress(), guards: { podDisruptionBudgets: [] } });
    expect(d.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof).toMatchObject({
      method: 'run',
      serving: { now: 3, lowest: 2, wanted: 3 },
    });
    expect(rolling?.proof?.floor).toBeUndefined();
    expect(rolling?.proof?.steps.at(-1)).toBe('the rollout completes');
    const recreate = d.remediations.find((p) => p.kind === 'set-recreate');
    expect(recreate?.proof?.serving.lowest).toBe(0);
  });

  it('minAvailable 2: maxUnavailable 1 keeps it and is offered; Recreate and every old pod at once are refused, saying why', () => {
    const d = diagnose(ingress({ minAvailable: 2 }));
    const offered = d.remediations.map((p) => p.kind);
    expect(offered).toContain('set-rolling-update');
    expect(offered).not.toContain('set-recreate');
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.floor).toEqual({ budget: 'ingress', minServing: 2, rule: 'minAvailable 2' });
    expect(rolling?.proof?.belowFloor).toBeUndefined();
    const refused = d.notOffered?.find((n) => n.kind === 'set-recreate')?.reason;
    expect(refused).toMatch(
      /would take deployment\/ingress to 0 serving, 2 below its PodDisruptionBudget ingress \(minAvailable 2: 2 must serve\); a plan that keeps the budget is offered/,
    );
    // Scaling every old replica to 0 at once goes below too; the stepped scale keeps 2.
    const scales = d.remediations.filter((p) => p.kind === 'scale-old-replicaset');
    expect(scales.map((p) => p.replicaSet?.stepped)).toEqual([true]);
    expect(scales[0]?.proof?.serving.lowest).toBe(2);
  });

  it('minAvailable 3: no fix keeps it; those that finish are offered as the outage they are, with how far below', () => {
    const d = diagnose(ingress({ minAvailable: 3 }));
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.belowFloor).toBe(1);
    expect(rolling?.impact).toMatch(
      /^Outage below the disruption budget: it takes deployment\/ingress to 2 serving, 1 below/,
    );
    expect(rolling?.warnings[0]).toMatch(/No plan reaches the goal within PodDisruptionBudget ingress/);
    expect(proofBrief(proofOf(rolling))).toBe(
      'Run forward: lowest 2 of 3 serving, 1 below PodDisruptionBudget ingress.',
    );
  });

  it('maxUnavailable 1 is read from the spec when the controller has not written the status yet', () => {
    const d = diagnose(ingress({ maxUnavailable: 1 }));
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.floor).toEqual({ budget: 'ingress', minServing: 2, rule: 'maxUnavailable 1' });
    expect(kinds(ingress({ maxUnavailable: 1 }))).not.toContain('set-recreate');
  });

  it("the disruption controller's status wins over the spec, and pods of others it counts lower our floor", () => {
    const snapshot = ingress({ minAvailable: 4 });
    const pdb = snapshot.guards?.podDisruptionBudgets?.[0];
    if (!pdb) throw new Error('no budget');
    // 3 of ours Ready and 2 of another workload the selector also matches: 5 healthy, 4 desired.
    pdb.status = {
      observedGeneration: 1,
      currentHealthy: 5,
      desiredHealthy: 4,
      expectedPods: 5,
      disruptionsAllowed: 1,
    };
    const rolling = diagnose(snapshot).remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.floor).toMatchObject({ minServing: 2 });
    expect(rolling?.proof?.belowFloor).toBeUndefined();
  });

  // issue 63.3: a budget shared by two workloads is judged with the other member as it is.
  it('no status yet: the other member it also selects counts as it is, so one short of serving raises our floor', () => {
    /** The ingress budget (maxUnavailable 1) also selects 2 pods of deployment/ingress-canary, `ready` of them Ready. */
    const shared = (ready: number): DeploymentSnapshot => {
      const snapshot = ingress({ maxUnavailable: 1 });
      const canaryRs = makeReplicaSet(makeDeployment('ingress-canary', { namespace: 'vision' }), 'c4n4r');
      const members = [0, 1].map((i) => {
        const pod = makePod(canaryRs, `m${i}`, 'edge-1', { phase: 'Running', ready: i < ready });
        pod.metadata.labels = { ...pod.metadata.labels, app: 'ingress' };
        return pod;
      });
      return { ...snapshot, namespacePods: members, otherPods: [...snapshot.otherPods, ...members] };
    };
    // 5 expected (3 + 2), 4 must serve: both members serve, so 2 of ours must; one does, 3 of ours.
    const floorOf = (s: DeploymentSnapshot): unknown =>
      diagnose(s).remediations.find((p) => p.kind === 'set-rolling-update')?.proof?.floor ??
      diagnose(s).notOffered?.find((n) => n.kind === 'set-rolling-update')?.reason;
    expect(floorOf(shared(2))).toMatchObject({ minServing: 2 });
    expect(String(JSON.stringify(floorOf(shared(1))))).toMatch(/"minServing":3|3 must serve/);
  });

  it('budgets not read: the floor is unknown, said so, never taken for none', () => {
    const d = diagnose(ingress());
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.floor).toBe('unknown');
    expect(proofSentence(proofOf(rolling))).toContain(
      'the PodDisruptionBudgets were not read, so its floor is unknown',
    );
    expect(renderText(d)).toContain('Run forward: serving replicas go no lower than 2 of 3 (3 now)');
  });
});

describe('plans run forward against a pause and a crashing template', () => {
  it('paused: scaling the old ReplicaSet is refused (it rolls the new template out while paused); the strategy is proved as resumed', () => {
    const snapshot = ingress({ minAvailable: 2 });
    snapshot.deployment.spec.paused = true;
    const d = diagnose(snapshot);
    expect(d.remediations.map((p) => p.kind)).not.toContain('scale-old-replicaset');
    const reasons = (d.notOffered ?? [])
      .filter((n) => n.kind === 'scale-old-replicaset')
      .map((n) => n.reason);
    expect(reasons).toContainEqual(
      expect.stringMatching(/would roll the new template out while deployment\/ingress is paused/),
    );
    const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(rolling?.proof?.atResume).toBe(true);
    expect(proofSentence(proofOf(rolling))).toMatch(
      /^Run forward once it is resumed \(the plan does not resume it\)/,
    );
  });

  it('a new template that crashes on every node it ran on: no plan swaps a serving pod for it', () => {
    const nodes = ['edge-1', 'edge-2', 'edge-3', 'edge-4'].map((n) =>
      makeNode(n, { labels: { pool: 'edge' } }),
    );
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
    // The surge pod ran on edge-4 and crash-loops there; a second one waits for room.
    const surge = parts.newPods[0];
    if (!surge) throw new Error('no surge pod');
    const crashing = structuredClone(surge);
    crashing.metadata.name = 'ingress-7b9f8c5d4f-c1ash';
    crashing.metadata.uid = 'crash-uid';
    crashing.spec.nodeName = 'edge-4';
    crashing.status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'ingress',
          image: 'registry.example/ingress:1.1',
          ready: false,
          restartCount: 6,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-11-22T02:58:00Z' } },
        },
      ],
    };
    parts.newPods.push(crashing);
    parts.newRs.spec.replicas = 2;
    const d = diagnose(
      pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE, { guards: { podDisruptionBudgets: [] } }),
    );
    const spending = d.remediations.filter((p) =>
      ['set-rolling-update', 'set-recreate', 'scale-old-replicaset', 'rollout-restart'].includes(p.kind),
    );
    expect(spending).toEqual([]);
    // The crash leads, with the way back; the pod waiting for room is a note, not a deadlock.
    expect(d.findings.map((f) => f.code)).toEqual(['CrashLoop']);
    expect(d.findings[0]?.explanation).toMatch(
      /^Take the update back first: \uE000kubectl rollout undo deployment\/ingress -n vision\uE001/,
    );
    expect(JSON.stringify(d.findings[0]?.evidence)).toContain(
      'making that room would only start one more crashing pod',
    );
  });
});

describe('a paused rollout, judged as it goes once resumed', () => {
  /** The ingress with its template changed while paused: no ReplicaSet for it yet. */
  function pausedBeforeStart(): DeploymentSnapshot {
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
    parts.deployment.spec.paused = true;
    return makeSnapshot({
      deployment: parts.deployment,
      replicaSets: [parts.oldRs],
      pods: parts.oldPods,
      nodes,
      guards: { podDisruptionBudgets: [] },
    });
  }

  it('a change that deadlocks once resumed is named now, with the pause, before anyone resumes it', () => {
    const d = diagnose(pausedBeforeStart());
    const [finding] = d.findings;
    expect(finding?.code).toBe('RolloutAtRisk');
    expect(finding?.summary).toMatch(
      /^deployment\/ingress is paused with its rollout waiting \(.*\); once resumed, the rollout can never finish: a new pod finds no room, while the old pods hold the room\.$/,
    );
    expect(finding?.explanation).toContain('kubectl rollout resume deployment/ingress -n vision');
  });

  it('a change that finishes once resumed is not called stuck, at risk or unavailable', () => {
    const snapshot = pausedBeforeStart();
    for (const n of ['edge-4', 'edge-5', 'edge-6'])
      snapshot.nodes.push(makeNode(n, { labels: { pool: 'edge' } }));
    expect(diagnose(snapshot).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('paused mid-rollout, its surge pod waiting for a port that maxUnavailable 1 frees once resumed: RolloutPaused, not a deadlock', () => {
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    });
    parts.deployment.spec.paused = true;
    const d = diagnose(
      pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE, { guards: { podDisruptionBudgets: [] } }),
    );
    expect(d.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
    expect(d.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

/**
 * Where the model cannot run a plan (not every node's pods read), its write is bounded by
 * what the controller lets go: the Deployment controller counts a pod already unavailable
 * (the crash-looping one) against maxUnavailable and scales it down first, so serving
 * pods go down only to replicas - maxUnavailable. Counted from the serving pods alone,
 * the node exclusion was said to take 3 replicas with maxUnavailable 1 to 1 serving, below
 * a budget of 2 it keeps (seen kept on the simulator).
 */
describe('a plan checked, not run, on a workload with a pod already unavailable', () => {
  function crashWithBudget(maxUnavailable: number): DeploymentSnapshot {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      deployment: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable } } },
    });
    const pdb: PodDisruptionBudget = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'detector', namespace: 'vision', generation: 1 },
      spec: { selector: { matchLabels: { app: 'detector' } }, minAvailable: 2 },
    };
    return {
      ...(snapshot as DeploymentSnapshot),
      coverage: { ...snapshot.coverage, podsReadOn: [] },
      guards: { podDisruptionBudgets: [pdb] },
    };
  }

  it.each([
    { maxUnavailable: 1, lowest: 2 },
    { maxUnavailable: 2, lowest: 1 },
  ])('maxUnavailable $maxUnavailable: 2 serving now, $lowest at the lowest', ({ maxUnavailable, lowest }) => {
    const d = diagnose(crashWithBudget(maxUnavailable));
    const exclusion = d.remediations.find((p) => p.kind === 'exclude-node');
    expect(proofOf(exclusion)).toMatchObject({ method: 'checked', serving: { now: 2, lowest, wanted: 3 } });
    expect(Boolean(proofOf(exclusion).belowFloor)).toBe(lowest < 2);
  });
});
