import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/errors.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { diffTouched, isAlreadyApplied, patchTargets } from '../../src/kube/write/patch-effect.js';
import { checkPreconditions } from '../../src/kube/write/preconditions.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { strategyPatch, strategyPreconditions } from '../../src/remediation/builders/strategy-patch.js';
import { getAt } from '../../src/remediation/json-pointer.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER } from '../../src/remediation/restart-time.js';
import {
  DEVICE_TAINT_KEY,
  DEVICE_TAINT_VALUE,
  deviceTaintRuleName,
} from '../../src/remediation/device-taint.js';
import { makeDeployment } from '../support/k8s-builders.js';

const STRATEGY = '/spec/strategy';

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    const current = target[key];
    if (value === null) delete target[key];
    else if (typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object') {
      mergeInto(current as Record<string, unknown>, value as Record<string, unknown>);
    } else target[key] = structuredClone(value);
  }
}

/** An in-memory API with resourceVersion checks on patches, enough for the executor's logic. */
function fakeCluster(initial: Deployment) {
  let stored = structuredClone(initial);
  const calls: ApiCall[] = [];
  const beforeWrite: (() => void)[] = [];
  /** Run before the next dry-run patch, once each (a write that lands between the read and the dry run). */
  const beforeDryRun: (() => void)[] = [];
  const pods = new Map<string, string>();
  const client: KubeClient = {
    server: 'fake',
    context: 'fake',
    namespace: undefined,
    async call<T>(call: ApiCall): Promise<T> {
      calls.push(call);
      const desc = { verb: call.verb, resource: call.resource };
      if (call.resource === 'pods' && call.verb === 'delete') {
        const uid = (call.body as { preconditions: { uid: string } }).preconditions.uid;
        const live = pods.get(call.name ?? '');
        if (live === undefined) throw new KubeApiError('not found', 404, desc);
        if (live !== uid) throw new KubeApiError('conflict', 409, desc);
        if (call.query?.dryRun !== 'All') pods.delete(call.name ?? '');
        return {} as T;
      }
      if (call.verb === 'get') return structuredClone(stored) as T;
      if (call.verb === 'patch') {
        if (call.query?.dryRun !== 'All') beforeWrite.shift()?.();
        else beforeDryRun.shift()?.();
        const body = call.body as Record<string, unknown> & { metadata?: { resourceVersion?: string } };
        if (body.metadata?.resourceVersion !== stored.metadata.resourceVersion) {
          throw new KubeApiError('conflict', 409, desc, 'Conflict');
        }
        const next = structuredClone(stored) as unknown as Record<string, unknown>;
        const { metadata: _ignored, ...rest } = body;
        mergeInto(next, rest);
        const result = next as unknown as Deployment;
        if (JSON.stringify(result.spec) !== JSON.stringify(stored.spec)) {
          result.metadata.generation = (stored.metadata.generation ?? 0) + 1;
        }
        result.metadata.resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
        if (call.query?.dryRun !== 'All') stored = result;
        return structuredClone(result) as T;
      }
      throw new Error(`unexpected ${call.verb}`);
    },
    text: () => Promise.reject(new Error('no logs')),
    watch: () => Promise.resolve(0),
  };
  return {
    client,
    calls,
    pods,
    get: () => stored,
    set: (d: Deployment) => {
      stored = d;
    },
    beforeWrite,
    beforeDryRun,
  };
}

function surgePlan(deployment: Deployment): WorkloadPatchPlan {
  return {
    id: 'set-rolling-update-abc',
    kind: 'set-rolling-update',
    target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
    summary: 'maxSurge 0, maxUnavailable 1',
    impact: 'brief outage',
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: {
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
      },
    },
    preconditions: {
      uid: deployment.metadata.uid ?? '',
      generation: deployment.metadata.generation ?? 0,
      fields: [{ path: STRATEGY, value: deployment.spec.strategy }],
    },
    inverse: {
      type: 'strategic-merge',
      body: { spec: { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } },
    },
    addresses: 'RolloutSurgeDeadlock',
  };
}

describe('patch effects', () => {
  it('lists the leaves a merge patch sets, null as removal, skipping directives', () => {
    expect(
      patchTargets({
        type: 'strategic-merge',
        body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null, $retainKeys: ['type'] } } },
      }),
    ).toEqual([
      { path: '/spec/strategy/type', value: 'Recreate' },
      { path: '/spec/strategy/rollingUpdate', value: undefined },
    ]);
  });

  it('lists JSON patch effects but not its tests', () => {
    const patch = {
      type: 'json' as const,
      body: [
        { op: 'test', path: '/spec/x', value: 1 },
        { op: 'replace', path: '/spec/x', value: 2 },
        { op: 'remove', path: '/spec/y' },
      ],
    };
    expect(patchTargets(patch)).toEqual([
      { path: '/spec/x', value: 2 },
      { path: '/spec/y', value: undefined },
    ]);
    expect(isAlreadyApplied({ spec: { x: 2 } }, patch)).toBe(true);
    expect(isAlreadyApplied({ spec: { x: 2, y: 0 } }, patch)).toBe(false);
    expect(diffTouched({ spec: { x: 1, y: 0 } }, { spec: { x: 2 } }, patch)).toEqual([
      { path: '/spec/x', before: 1, after: 2 },
      { path: '/spec/y', before: 0, after: undefined },
    ]);
  });
});

describe('checkPreconditions', () => {
  const deployment = makeDeployment('tracker', { namespace: 'vision', generation: 4 });
  const plan = surgePlan(deployment);

  it('accepts the object as diagnosed', () => {
    expect(checkPreconditions(deployment, plan.preconditions, 'Deployment')).toEqual({ ok: true });
  });

  it.each(['DaemonSet', 'StatefulSet', 'Rollout'])(
    'a replaced %s is named as what it is, not as a Deployment (issue 41.6)',
    (kind) => {
      const replaced = { ...deployment, metadata: { ...deployment.metadata, uid: 'other' } };
      const verdict = checkPreconditions(replaced, plan.preconditions, kind);
      expect(verdict).toMatchObject({
        ok: false,
        reason: expect.stringContaining(
          `object replaced: the ${kind} was deleted and re-created since diagnosis`,
        ),
      });
      expect(!verdict.ok && verdict.reason).not.toContain('Deployment');
    },
  );

  it('names a replaced object, a newer generation, and a changed field with both values', () => {
    expect(
      checkPreconditions(
        { ...deployment, metadata: { ...deployment.metadata, uid: 'other' } },
        plan.preconditions,
        'Deployment',
      ),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('object replaced') });
    expect(
      checkPreconditions(
        { ...deployment, metadata: { ...deployment.metadata, generation: 5 } },
        plan.preconditions,
        'Deployment',
      ),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('spec changed since diagnosis (generation 4 is now 5)'),
    });
    const changed = structuredClone(deployment);
    changed.spec.strategy = { type: 'Recreate' };
    expect(checkPreconditions(changed, plan.preconditions, 'Deployment')).toEqual({
      ok: false,
      field: STRATEGY,
      reason:
        '/spec/strategy was {"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}} at diagnosis and is now {"type":"Recreate"}',
    });
  });
});

describe('applyPlan', () => {
  it('dry-runs, then patches with the verified resourceVersion, and reports the changes', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const result = await applyPlan(cluster.client, surgePlan(deployment));
    expect(result).toEqual({
      status: 'applied',
      changes: [
        { path: '/spec/strategy/rollingUpdate/maxSurge', before: '25%', after: 0 },
        { path: '/spec/strategy/rollingUpdate/maxUnavailable', before: '25%', after: 1 },
      ],
      generation: 3,
      resourceVersion: '1001',
    });
    const patches = cluster.calls.filter((c) => c.verb === 'patch');
    expect(patches.map((p) => p.query?.dryRun)).toEqual(['All', undefined]);
    expect(patches[1]?.contentType).toBe('application/strategic-merge-patch+json');
    expect((patches[1]?.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(
      '1000',
    );
  });

  it('reports already-applied when retried after the patch landed', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = surgePlan(deployment);
    const first = await applyPlan(cluster.client, plan);
    if (first.status !== 'applied') throw new Error(`expected applied, got ${first.status}`);
    const writes = cluster.calls.filter((c) => c.verb === 'patch').length;
    const again = await applyPlan(cluster.client, plan);
    expect(cluster.calls.filter((c) => c.verb === 'patch')).toHaveLength(writes);
    if (again.status !== 'already-applied') throw new Error(`expected already-applied, got ${again.status}`);
    // What an Undo needs, as the write's own answer would have given it: the live
    // generation and the values now at every path the plan sets.
    expect(again.generation).toBe(first.generation);
    const after = (changes: { path: string; after?: unknown }[]) =>
      Object.fromEntries(changes.map((c) => [c.path, c.after]));
    expect(after(again.changes)).toMatchObject(after(first.changes));
    // The Undo it yields checks the same object and generation, and at least every
    // field the first answer's Undo checked (also the ones the plan set to their
    // existing value: it cannot tell them apart, and checking them is stricter).
    const undoFromRetry = inversePlan(plan, again)?.preconditions;
    const undoFromWrite = inversePlan(plan, first)?.preconditions;
    expect(undoFromRetry?.uid).toBe(undoFromWrite?.uid);
    expect(undoFromRetry?.generation).toBe(undoFromWrite?.generation);
    expect(undoFromRetry?.fields).toEqual(expect.arrayContaining(undoFromWrite?.fields ?? []));
  });

  it('refuses when the object was replaced or the spec moved on', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster({ ...deployment, metadata: { ...deployment.metadata, uid: 'new-uid' } });
    expect(await applyPlan(cluster.client, surgePlan(deployment))).toMatchObject({ status: 'refused' });
    expect(cluster.calls.some((c) => c.verb === 'patch')).toBe(false);
  });

  it('re-checks after a 409: a status-only write is retried, a spec change is refused', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    cluster.beforeWrite.push(() => {
      const bumped = structuredClone(cluster.get());
      bumped.metadata.resourceVersion = '1005';
      cluster.set(bumped);
    });
    expect(await applyPlan(cluster.client, surgePlan(deployment))).toMatchObject({ status: 'applied' });

    const other = fakeCluster(deployment);
    other.beforeWrite.push(() => {
      const changed = structuredClone(other.get());
      changed.metadata.resourceVersion = '1005';
      changed.metadata.generation = 3;
      changed.spec.strategy = { type: 'Recreate' };
      other.set(changed);
    });
    const result = await applyPlan(other.client, surgePlan(deployment));
    expect(result).toMatchObject({ status: 'refused', reason: expect.stringContaining('spec changed') });
    expect(other.get().spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('a dry run that meets a 409 reads again: a status write passes, a spec change is refused, endless writes say so', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const bump = (cluster: ReturnType<typeof fakeCluster>, change?: (d: Deployment) => void) => () => {
      const next = structuredClone(cluster.get());
      next.metadata.resourceVersion = String(Number(next.metadata.resourceVersion ?? '0') + 7);
      change?.(next);
      cluster.set(next);
    };
    // The controller's status write between the read and the dry run (seen in CI on the simulator).
    const status = fakeCluster(deployment);
    status.beforeDryRun.push(bump(status));
    expect(await dryRunPlan(status.client, surgePlan(deployment))).toMatchObject({ ok: true });
    expect(status.calls.filter((c) => c.verb === 'patch')).toHaveLength(2);
    // Someone changed the strategy meanwhile: the second read's check refuses.
    const spec = fakeCluster(deployment);
    spec.beforeDryRun.push(
      bump(spec, (d) => {
        d.metadata.generation = 3;
        d.spec.strategy = { type: 'Recreate' };
      }),
    );
    const refused = await dryRunPlan(spec.client, surgePlan(deployment));
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('spec changed') });
    // A write before every dry run: it gives up after three rounds and says why.
    const busy = fakeCluster(deployment);
    busy.beforeDryRun.push(bump(busy), bump(busy), bump(busy));
    expect(await dryRunPlan(busy.client, surgePlan(deployment))).toEqual({
      ok: false,
      reason: 'the Deployment kept changing under us (repeated 409 Conflict)',
    });
  });

  it('deletes pods with a uid precondition and skips replaced ones', async () => {
    const deployment = makeDeployment('checkout', { namespace: 'shop' });
    const cluster = fakeCluster(deployment);
    cluster.pods.set('a', 'uid-a');
    cluster.pods.set('b', 'uid-b-new');
    const plan: RemediationPlan = {
      ...surgePlan(deployment),
      kind: 'delete-pods',
      patch: null,
      inverse: null,
      pods: [
        { name: 'a', uid: 'uid-a' },
        { name: 'b', uid: 'uid-b' },
      ],
    };
    expect(await dryRunPlan(cluster.client, plan)).toMatchObject({ ok: true });
    const result = await applyPlan(cluster.client, plan);
    expect(result).toMatchObject({
      status: 'applied',
      changes: [
        { path: 'pods/a', after: 'deleted' },
        { path: 'pods/b', after: 'skipped (replaced)' },
      ],
    });
    expect([...cluster.pods.keys()]).toEqual(['b']);
    expect(await applyPlan(cluster.client, plan)).toMatchObject({ status: 'already-applied' });
  });

  it('builds an undo plan conditioned on what the apply left', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = surgePlan(deployment);
    const applied = await applyPlan(cluster.client, plan);
    if (applied.status !== 'applied') throw new Error(applied.status);
    const undo = inversePlan(plan, applied);
    expect(undo?.preconditions.generation).toBe(3);
    if (!undo) throw new Error('no undo');
    // A strategy-only change: undoing it changes no pod template, so no rollout.
    expect(undo.impact).toContain('starts no rollout');
    expect(await applyPlan(cluster.client, undo)).toMatchObject({ status: 'applied' });
    expect(cluster.get().spec.strategy?.rollingUpdate).toEqual({ maxSurge: '25%', maxUnavailable: '25%' });
  });

  it('the undo compares only the fields it restores: another spec change since (a promote) does not refuse it, a change to them does', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = surgePlan(deployment);
    const applied = await applyPlan(cluster.client, plan);
    if (applied.status !== 'applied') throw new Error(applied.status);
    const undo = inversePlan(plan, applied);
    if (!undo) throw new Error('no undo');
    // A promote (or a resume) writes spec.paused: a new generation, the strategy untouched.
    const promoted = structuredClone(cluster.get());
    promoted.spec.paused = true;
    promoted.metadata.generation = (promoted.metadata.generation ?? 0) + 1;
    cluster.set(promoted);
    expect(await dryRunPlan(cluster.client, undo)).toMatchObject({ ok: true });
    // Someone set the strategy again since: the undo would overwrite their change.
    const rewritten = structuredClone(cluster.get());
    rewritten.spec.strategy = { type: 'Recreate' };
    cluster.set(rewritten);
    expect(await applyPlan(cluster.client, undo)).toMatchObject({
      status: 'refused',
      field: expect.stringContaining('/spec/strategy'),
    });
  });
});

describe('patch allowlist in the executor', () => {
  it('refuses a strategy plan whose patch also sets hostPID, before any write or dry run', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = surgePlan(deployment);
    plan.patch = {
      type: 'strategic-merge',
      body: {
        spec: {
          strategy: { type: 'Recreate' },
          template: { spec: { hostPID: true } },
        },
      },
    };
    const result = await applyPlan(cluster.client, plan);
    expect(result).toMatchObject({ status: 'refused', tampered: true });
    expect(result.status === 'refused' && result.reason).toMatch(/hostPID, outside what/);
    expect(cluster.calls.filter((c) => c.verb === 'patch')).toEqual([]);
    expect(cluster.get()).toEqual(deployment);
    expect(await dryRunPlan(cluster.client, plan)).toMatchObject({ ok: false });
    expect(cluster.calls.filter((c) => c.verb === 'patch')).toEqual([]);
  });
});

describe('the restart time is chosen at apply time', () => {
  const NOW = new Date('2026-11-23T17:45:31.250Z');
  function restartPlan(deployment: Deployment): RemediationPlan {
    return {
      ...surgePlan(deployment),
      patch: strategyPatch({
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        restart: true,
      }),
      preconditions: strategyPreconditions(deployment, true),
    };
  }
  const sentTimes = (calls: ApiCall[]): unknown[] =>
    calls.filter((c) => c.verb === 'patch').map((c) => getAt(c.body, RESTARTED_AT_POINTER));

  it('writes the time of the apply in RFC 3339 in place of the marker, in the dry run and the write', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = restartPlan(deployment);
    const result = await applyPlan(cluster.client, plan, { now: () => NOW });
    expect(result).toMatchObject({ status: 'applied' });
    expect(sentTimes(cluster.calls)).toEqual(['2026-11-23T17:45:31Z', '2026-11-23T17:45:31Z']);
    expect(getAt(cluster.get(), RESTARTED_AT_POINTER)).toBe('2026-11-23T17:45:31Z');
    // The plan itself (sealed and approved with the marker) is not changed.
    expect(getAt(plan.patch?.body, RESTARTED_AT_POINTER)).toBe(APPLY_TIME);
  });

  it('uses the clock when no time is injected', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const before = Math.floor(Date.now() / 1000) * 1000;
    await applyPlan(cluster.client, restartPlan(deployment));
    const written = Date.parse(String(getAt(cluster.get(), RESTARTED_AT_POINTER)));
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
    expect(String(getAt(cluster.get(), RESTARTED_AT_POINTER))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('reports already-applied on a retry after the write, at a later time', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const plan = restartPlan(deployment);
    expect(await applyPlan(cluster.client, plan, { now: () => NOW })).toMatchObject({ status: 'applied' });
    const writes = cluster.calls.filter((c) => c.verb === 'patch').length;
    const again = await applyPlan(cluster.client, plan, { now: () => new Date(NOW.getTime() + 60_000) });
    expect(again).toMatchObject({ status: 'already-applied' });
    expect(cluster.calls.filter((c) => c.verb === 'patch')).toHaveLength(writes);
  });

  it('is not already applied when only someone else restarted: the strategy is still to change', async () => {
    const deployment = makeDeployment('tracker', { namespace: 'vision' });
    const cluster = fakeCluster(deployment);
    const restarted = structuredClone(deployment);
    restarted.spec.template.metadata = {
      ...restarted.spec.template.metadata,
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-23T09:00:00Z' },
    };
    cluster.set(restarted);
    const result = await applyPlan(cluster.client, restartPlan(deployment), { now: () => NOW });
    expect(result).toMatchObject({ status: 'refused', field: RESTARTED_AT_POINTER });
    expect(cluster.calls.filter((c) => c.verb === 'patch')).toEqual([]);
  });

  it('treats the marker as "restarted since diagnosis" only where the plan assumed a time', () => {
    const patch = strategyPatch({ strategy: { type: 'Recreate' }, restart: true });
    const live = {
      spec: {
        strategy: { type: 'Recreate' },
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': 'T2' } } },
      },
    };
    const assumed = [{ path: RESTARTED_AT_POINTER, value: 'T1' }];
    expect(isAlreadyApplied(live, patch, assumed)).toBe(true);
    expect(isAlreadyApplied(live, patch, [{ path: RESTARTED_AT_POINTER, value: 'T2' }])).toBe(false);
    expect(isAlreadyApplied(live, patch)).toBe(false);
  });
});

describe('staleness, as the kind says it', () => {
  it('the Undo of taint-device still deletes its rule after a later spec change (only the uid makes it stale)', async () => {
    const deployment = makeDeployment('detector', { namespace: 'vision' });
    deployment.metadata.generation = 5;
    const device = { driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' };
    const plan: RemediationPlan = {
      id: 'undo-taint-device-abc',
      kind: 'untaint-device',
      target: { kind: 'Deployment', namespace: 'vision', name: 'detector' },
      summary: 'Undo: delete the rule',
      impact: 'deletes the rule',
      warnings: [],
      patch: null,
      deviceTaint: {
        apiVersion: 'resource.k8s.io/v1',
        name: deviceTaintRuleName(device),
        ...device,
        node: 'gpu-node-1',
        resourceID: 'gpu.nvidia.com/gpu-node-1/gpu-0',
        taint: { key: DEVICE_TAINT_KEY, value: DEVICE_TAINT_VALUE, effect: 'NoSchedule' },
      },
      // Generation 2 when the taint was applied; the Deployment has moved on to 5 since.
      preconditions: { uid: deployment.metadata.uid ?? '', generation: 2, fields: [] },
      inverse: null,
      addresses: 'CrashLoopOnNode',
    };
    const client: KubeClient = {
      server: 'fake',
      context: 'fake',
      namespace: undefined,
      async call<T>(call: ApiCall): Promise<T> {
        if (call.verb === 'get' && call.resource === 'deployments') return structuredClone(deployment) as T;
        throw new KubeApiError('not found', 404, { verb: call.verb, resource: call.resource });
      },
      text: () => Promise.reject(new Error('no logs')),
      watch: () => Promise.resolve(0),
    };
    expect(await applyPlan(client, plan)).toMatchObject({
      status: 'already-applied',
      reason: expect.stringContaining('no longer exists'),
    });
  });
});
