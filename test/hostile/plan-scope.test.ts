/**
 * A plan read back from Redis may have been rewritten by whoever can write there.
 * Independently of any seal, the executor applies a plan only when its patch stays
 * inside what its kind may change, and deletes only pods of the target's ReplicaSets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { checkPlanWithinKind } from '../../src/remediation/patch-allowlist.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { APPLY_TIME } from '../../src/remediation/restart-time.js';

const SHOP: WorkloadRef = { kind: 'Deployment', namespace: 'shop', name: 'checkout' };
// Plans carry the marker; the executor writes the time of the apply.
const RESTARTED = { 'kubectl.kubernetes.io/restartedAt': APPLY_TIME };

function plan(
  kind: RemediationPlan['kind'],
  patch: RemediationPlan['patch'],
  extra: Partial<RemediationPlan> = {},
) {
  return { kind, patch, target: SHOP, pods: undefined, ...extra } as Pick<
    RemediationPlan,
    'kind' | 'patch' | 'pods' | 'target'
  >;
}
const smp = (body: unknown): RemediationPlan['patch'] => ({ type: 'strategic-merge', body });
const json = (body: unknown): RemediationPlan['patch'] => ({ type: 'json', body });

const affinity = (hosts: string[], anti?: unknown) => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: hosts }] },
      ],
    },
  },
  ...(anti ? { podAntiAffinity: anti } : {}),
});
const LIVE = {
  metadata: { name: 'checkout', generation: 3 },
  spec: { template: { spec: { affinity: { podAntiAffinity: { preferred: [] } } } } },
};

describe('what each remediation kind may change', () => {
  it.each([
    [
      'set-rolling-update',
      smp({
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
          template: { metadata: { annotations: RESTARTED } },
        },
      }),
    ],
    [
      'set-recreate',
      smp({ spec: { strategy: { type: 'Recreate', rollingUpdate: null, $retainKeys: ['type'] } } }),
    ],
    ['rollout-restart', smp({ spec: { template: { metadata: { annotations: RESTARTED } } } })],
    [
      'exclude-node',
      json([
        { op: 'test', path: '/metadata/generation', value: 3 },
        { op: 'test', path: '/spec/template/spec/affinity', value: LIVE.spec.template.spec.affinity },
        {
          op: 'replace',
          path: '/spec/template/spec/affinity',
          value: affinity(['node-b'], { preferred: [] }),
        },
      ]),
    ],
    [
      'exclude-node',
      json([
        {
          op: 'add',
          path: '/spec/template/spec/affinity/nodeAffinity',
          value: affinity(['node-b']).nodeAffinity,
        },
      ]),
    ],
  ] as const)('accepts a %s plan as the builders write it', (kind, patch) => {
    expect(checkPlanWithinKind(plan(kind, patch as RemediationPlan['patch']), LIVE)).toEqual({ ok: true });
  });

  it.each([
    [
      'an image change in a strategy plan',
      'set-rolling-update',
      smp({
        spec: {
          strategy: { type: 'Recreate' },
          template: { spec: { containers: [{ name: 'app', image: 'evil:1' }] } },
        },
      }),
      '/spec/template/spec/containers',
    ],
    [
      'privileged in a restart',
      'rollout-restart',
      smp({
        spec: {
          template: {
            metadata: { annotations: RESTARTED },
            spec: { containers: [{ name: 'app', securityContext: { privileged: true } }] },
          },
        },
      }),
      '/spec/template/spec/containers',
    ],
    [
      'hostPID in a node exclusion',
      'exclude-node',
      smp({ spec: { template: { spec: { hostPID: true, affinity: affinity(['node-b']) } } } }),
      '/spec/template/spec/hostPID',
    ],
    [
      'another annotation',
      'rollout-restart',
      smp({ spec: { template: { metadata: { annotations: { 'sidecar.istio.io/inject': 'false' } } } } }),
      'sidecar.istio.io',
    ],
    [
      'a restart time of its own (the executor chooses it at apply time)',
      'set-rolling-update',
      smp({
        spec: {
          strategy: { type: 'Recreate' },
          template: {
            metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T00:00:00Z' } },
          },
        },
      }),
      'may only set it to "$NOW"',
    ],
    [
      'the restart annotation removed',
      'rollout-restart',
      {
        type: 'merge',
        body: {
          spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': null } } } },
        },
      },
      'to null',
    ],
    [
      'an object under the restart annotation',
      'rollout-restart',
      smp({
        spec: {
          template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': { x: APPLY_TIME } } } },
        },
      }),
      'may only set it',
    ],
    [
      'every annotation dropped',
      'rollout-restart',
      { type: 'merge', body: { spec: { template: { metadata: { annotations: null } } } } },
      '/spec/template/metadata/annotations,',
    ],
    [
      'a $patch directive on the template',
      'set-recreate',
      smp({ spec: { strategy: { type: 'Recreate' }, template: { $patch: 'replace', spec: {} } } }),
      '/spec/template,',
    ],
    [
      'replicas',
      'set-recreate',
      smp({ spec: { replicas: 0, strategy: { type: 'Recreate' } } }),
      '/spec/replicas',
    ],
    [
      'the strategy from a restart',
      'rollout-restart',
      smp({ spec: { strategy: { type: 'Recreate' } } }),
      '/spec/strategy',
    ],
    [
      'a JSON patch that swaps the pod anti-affinity',
      'exclude-node',
      json([{ op: 'replace', path: '/spec/template/spec/affinity', value: affinity(['node-b']) }]),
      'podAntiAffinity',
    ],
    [
      'a JSON patch on the containers',
      'exclude-node',
      json([{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'miner', image: 'x' } }]),
      '/spec/template/spec/containers',
    ],
    [
      'a JSON patch copy',
      'exclude-node',
      json([
        {
          op: 'copy',
          from: '/spec/template/spec/affinity',
          path: '/spec/template/spec/affinity/nodeAffinity',
        },
      ]),
      "'copy'",
    ],
    ['a JSON patch whose body is not a list', 'exclude-node', json({ op: 'add' }), 'array'],
    ['a strategic patch that is a list', 'rollout-restart', smp([{ op: 'add' }]), 'object'],
    ['a patch on delete-pods', 'delete-pods', smp({ spec: { replicas: 0 } }), 'no patch'],
  ] as const)('refuses %s', (_name, kind, patch, named) => {
    const verdict = checkPlanWithinKind(
      plan(
        kind,
        patch as RemediationPlan['patch'],
        kind === 'delete-pods' ? { pods: [{ name: 'p', uid: 'u' }] } : {},
      ),
      LIVE,
    );
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(`${verdict.reason},`).toContain(named);
  });

  it('refuses a plan for another kind of object, and a kind it does not know', () => {
    const restart = smp({ spec: { template: { metadata: { annotations: RESTARTED } } } });
    expect(
      checkPlanWithinKind({
        ...plan('rollout-restart', restart),
        target: { ...SHOP, kind: 'Rollout' as 'Deployment' },
      }).ok,
    ).toBe(false);
    // A kind that writes only a Deployment's objects refuses another workload kind.
    expect(
      checkPlanWithinKind({
        ...plan('set-recreate', smp({ spec: { strategy: { type: 'Recreate', rollingUpdate: null } } })),
        target: { ...SHOP, kind: 'DaemonSet' },
      }),
    ).toEqual({ ok: false, reason: 'set-recreate plans change Deployments only, not DaemonSet' });
    expect(checkPlanWithinKind(plan('scale-everything' as 'rollout-restart', restart)).ok).toBe(false);
  });
});

describe('what an Argo Rollout plan may change', () => {
  const RO: WorkloadRef = { kind: 'Rollout', namespace: 'vision', name: 'tracker' };
  const merge = (body: unknown): RemediationPlan['patch'] => ({ type: 'merge', body });
  const roPlan = (kind: RemediationPlan['kind'], patch: RemediationPlan['patch']) => ({
    ...plan(kind, patch),
    target: RO,
  });
  const live = { metadata: { name: 'tracker', generation: 2 }, spec: { strategy: { canary: {} } } };

  it('accepts the abort and the canary bounds as the builders write them', () => {
    expect(checkPlanWithinKind(roPlan('abort-rollout', merge({ status: { abort: true } })), live)).toEqual({
      ok: true,
    });
    expect(
      checkPlanWithinKind(
        roPlan(
          'set-rolling-update',
          merge({ spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } } }),
        ),
        live,
      ),
    ).toEqual({ ok: true });
  });

  it.each([
    ['a promote in an abort', 'abort-rollout', merge({ status: { abort: true, promoteFull: true } })],
    [
      'a pause lifted in an abort',
      'abort-rollout',
      merge({ status: { abort: true, pauseConditions: null } }),
    ],
    [
      'a spec change in an abort',
      'abort-rollout',
      merge({ spec: { paused: false }, status: { abort: true } }),
    ],
    [
      'the canary steps in a strategy plan',
      'set-rolling-update',
      merge({ spec: { strategy: { canary: { maxSurge: 0, steps: [] } } } }),
    ],
    ['a blue-green switch', 'set-rolling-update', merge({ spec: { strategy: { blueGreen: {} } } })],
  ] as const)('refuses %s', (_what, kind, patch) => {
    expect(checkPlanWithinKind(roPlan(kind, patch), live).ok).toBe(false);
  });

  it('refuses an abort aimed at a Deployment, and a Rollout restart (Argo restarts through spec.restartAt)', () => {
    expect(checkPlanWithinKind(plan('abort-rollout', merge({ status: { abort: true } })), LIVE).ok).toBe(
      false,
    );
    const restart = smp({ spec: { template: { metadata: { annotations: RESTARTED } } } });
    expect(checkPlanWithinKind(roPlan('rollout-restart', restart), live).ok).toBe(false);
  });
});

describe('the executor refuses an out-of-scope plan before any write (simulator)', () => {
  let dir: string;
  let sim: Simulator | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plan-scope-'));
  });
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function crashLoop(): Promise<{ sim: Simulator; client: KubeClient; plans: RemediationPlan[] }> {
    sim = await startSimulator({ scenario: 'sim/scenarios/crashloop-node.yaml', timeScale: 50 });
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
    await sim.settle();
    const s = sim;
    await s.waitFor(() =>
      (s.list('Pod', 'shop') as Pod[]).some((p) =>
        p.status?.containerStatuses?.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff'),
      ),
    );
    const diagnosis = diagnose(await collectSnapshot(client, SHOP));
    return { sim: s, client, plans: diagnosis.remediations };
  }
  const of = (plans: RemediationPlan[], kind: string): RemediationPlan => {
    const found = plans.find((p) => p.kind === kind);
    if (!found) throw new Error(`no ${kind} plan`);
    return found;
  };
  const writes = (s: Simulator) => s.requests.filter((r) => r.verb === 'patch' || r.verb === 'delete');

  it('a stored exclude-node plan rewritten to run privileged with hostPID changes nothing', async () => {
    const { sim: s, client, plans } = await crashLoop();
    const genuine = of(plans, 'exclude-node');
    const before = s.get('Deployment', 'shop', 'checkout') as Deployment;
    const forged = {
      ...genuine,
      patch: smp({
        spec: {
          template: {
            spec: {
              hostPID: true,
              containers: [
                { name: 'checkout', image: 'evil/miner:1', securityContext: { privileged: true } },
              ],
            },
          },
        },
      }),
    } as RemediationPlan;
    s.clearRequests();
    const result = await applyPlan(client, forged);
    expect(result).toMatchObject({ status: 'refused', tampered: true });
    expect(writes(s)).toEqual([]);
    const after = s.get('Deployment', 'shop', 'checkout') as Deployment;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);

    // The genuine plan and its undo still apply.
    const applied = await applyPlan(client, genuine);
    expect(applied.status).toBe('applied');
    if (applied.status !== 'applied') return;
    const undo = inversePlan(genuine, applied);
    expect(undo && checkPlanWithinKind(undo, s.get('Deployment', 'shop', 'checkout'))).toEqual({ ok: true });
  });

  it('a stored delete-pods plan naming a pod of another workload deletes nothing', async () => {
    const { sim: s, client, plans } = await crashLoop();
    const genuine = of(plans, 'delete-pods');
    // A pod of another workload in the same namespace, owned by nothing of checkout's.
    const created = await client.call<Pod>({
      verb: 'create',
      resource: 'pods',
      namespace: 'shop',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'payments-db-0', namespace: 'shop' },
        spec: { nodeName: 'node-a', containers: [{ name: 'db', image: 'postgres:16' }] },
      },
    });
    const forged = {
      ...genuine,
      pods: [...(genuine.pods ?? []), { name: created.metadata.name ?? '', uid: created.metadata.uid ?? '' }],
    } as RemediationPlan;
    s.clearRequests();
    const result = await applyPlan(client, forged);
    expect(result).toMatchObject({ status: 'refused', tampered: true });
    expect(result.status === 'refused' && result.reason).toContain('payments-db-0');
    expect(writes(s)).toEqual([]);
    expect(s.get('Pod', 'shop', 'payments-db-0')).toBeDefined();
  });
});
