/**
 * Issue 65.5/65.6: a node exclusion that expires in the simulator is removed once.
 * The exclusion is approved for 4h and applied at T0 (the executor's injected clock);
 * two workers sweep with Redis's claims between them on injected clocks: before T0+4h
 * nothing happens, at T0+4h exactly one of them removes it, the user's own NotIn value
 * stays, and a removal delivered again writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { listExclusions } from '../../src/kube/read/exclusion-reads.js';
import { listObjects } from '../../src/kube/list.js';
import type { AuditEvent } from '../../src/audit.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { FieldChange } from '../../src/kube/write/executor.js';
import { createLogger } from '../../src/logger.js';
import { readRecord, recordAnnotations } from '../../src/remediation/exclusion-record.js';
import { removalPlan } from '../../src/remediation/exclusion-removal.js';
import { withPlanTtl } from '../../src/remediation/exclusion-times.js';
import type { ExclusionTtlChoice } from '../../src/remediation/exclusion-ttl.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { sweepExclusions, type ExclusionExpiryDeps } from '../../src/worker/exclusion-expiry.js';
import { proveRemoval } from '../../src/engine/removal-proof.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';

const SHOP: WorkloadRef = { kind: 'Deployment', namespace: 'shop', name: 'checkout' };
const T0 = Date.parse('2026-11-27T10:00:00Z');
const HOUR = 3_600_000;
const OWN = { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-retired'] };

let redis: TestRedis;
/** The exclusion the last excludedFor applied, for its Undo. */
let lastApplied: { plan: RemediationPlan; generation: number; changes: FieldChange[] } | undefined;
let env: SimClient | undefined;
const connections: Redis[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const c of connections.splice(0)) c.disconnect();
});
afterAll(async () => {
  await redis.close();
});

function deployment(s: SimClient): Deployment {
  return s.sim.get('Deployment', SHOP.namespace, SHOP.name) as Deployment;
}

/** The crash loop on node-b, under a Deployment whose required affinity already has the user's own NotIn. */
async function crashLooping(): Promise<SimClient> {
  env = await startSimClient({ scenario: 'sim/scenarios/crashloop-node.yaml', timeScale: 50 }, 'expiry-it');
  const s = env;
  const d = deployment(s);
  d.spec.template.spec.affinity = {
    ...d.spec.template.spec.affinity,
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [OWN] }] },
    },
  };
  s.sim.apply(d);
  await s.sim.settle();
  await s.sim.waitFor(() =>
    (s.sim.list('Pod', SHOP.namespace) as Pod[]).some(
      (p) => p.spec.nodeName === 'node-b' && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
    ),
  );
  return s;
}

/**
 * The crash loop on node-b, under a Deployment whose required affinity already has the
 * user's own NotIn, excluded for `ttl` (the configured default the plan is made with),
 * or for `chosen` when its approver picked another beside Approve (written by the worker
 * in place of the plan's: withPlanTtl).
 */
async function excludedFor(ttl: string, chosen?: ExclusionTtlChoice): Promise<SimClient> {
  const s = await crashLooping();
  const result = diagnose(await collectSnapshot(s.client, SHOP), { exclusionTtl: ttl });
  const planned = result.remediations.find((r) => r.kind === 'exclude-node');
  if (!planned) throw new Error(`no exclude-node plan: ${result.findings.map((f) => f.code).join(', ')}`);
  // As the worker writes a chat approval's choice (remediate-processor.ts chosenDuration).
  const plan = chosen === undefined ? planned : withPlanTtl(planned, chosen);
  if (!plan) throw new Error('the plan writes no exclusion record');
  const applied = await applyPlan(s.client, plan, { now: () => new Date(T0) });
  expect(applied.status).toBe('applied');
  if (applied.status === 'applied')
    lastApplied = { plan, generation: applied.generation, changes: applied.changes };
  // The rollout the exclusion started ends first: a removal racing the controllers'
  // status writes is a retry (409), not what these tests are about.
  await s.sim.settle();
  return s;
}

/** A worker's sweep: its own Redis connection, the shared claims, an injected clock. */
function worker(s: SimClient, now: () => number, audit: AuditEvent[]): ExclusionExpiryDeps {
  const connection = new Redis(redis.url);
  connections.push(connection);
  return {
    cluster: 'sim',
    list: () => listExclusions(s.client, [SHOP.namespace]),
    nodes: async () => ({
      nodes: (await listObjects<Node>(s.client, { resource: 'nodes' })).items,
      complete: true,
    }),
    claim: async (key, ttlMs) =>
      (await connection.set(`rd:exclusion:it:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK',
    // As the worker does (runtime.ts): the removal's rollout run forward from the workload as read now.
    prove: async (plan) => proveRemoval(await collectSnapshot(s.client, plan.target), plan),
    apply: (plan) => applyPlan(s.client, plan, { now: () => new Date(now()) }),
    audit: { record: (event) => audit.push(event) },
    logger: createLogger({ level: 'silent', name: 'expiry-it' }),
    now,
  };
}

const requiredTerms = (d: Deployment) =>
  d.spec.template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms;

const realPatches = (s: SimClient) =>
  s.sim.requests.filter(
    (r) => r.verb === 'patch' && !r.dryRun && r.resource === 'deployments' && r.status === 200,
  );

describe('an exclusion that expires in the simulator', () => {
  it('records its times on the Deployment (not the template) and is removed once, at its end, by one of two workers', async () => {
    const s = await excludedFor('4h');
    const record = readRecord(deployment(s).metadata.annotations);
    expect(record?.setAt).toBe('2026-11-27T10:00:00Z');
    expect(record?.expiresAt).toBe('2026-11-27T14:00:00Z');
    expect(
      deployment(s).spec.template.metadata?.annotations?.['rollout-doctor.io/exclusion.set-at'],
    ).toBeUndefined();
    expect(requiredTerms(deployment(s))?.[0]?.matchExpressions).toEqual([
      { ...OWN, values: ['node-retired', 'node-b'] },
    ]);

    // Not expired yet: both workers keep it.
    const audit: AuditEvent[] = [];
    let clock = T0 + 3 * HOUR;
    const a = worker(s, () => clock, audit);
    const b = worker(s, () => clock, audit);
    const early = await Promise.all([sweepExclusions(a), sweepExclusions(b)]);
    expect(early.flatMap((r) => [...r.removed, ...r.skipped, ...r.failed])).toEqual([]);
    expect(readRecord(deployment(s).metadata.annotations)).toBeDefined();

    // Expired: two workers at once remove it once.
    clock = T0 + 4 * HOUR;
    s.sim.clearRequests();
    const reports = await Promise.all([sweepExclusions(a), sweepExclusions(b)]);
    expect(reports.flatMap((r) => r.removed)).toHaveLength(1);
    expect(reports.flatMap((r) => r.skipped)).toHaveLength(1);
    expect(realPatches(s)).toHaveLength(1);
    expect(audit.filter((e) => e.action === 'exclusion').map((e) => 'outcome' in e && e.outcome)).toEqual([
      'removed',
    ]);

    // The user's own value stays; the record is gone; the pods may use node-b again.
    const after = deployment(s);
    expect(requiredTerms(after)).toEqual([{ matchExpressions: [OWN] }]);
    expect(
      Object.keys(after.metadata.annotations ?? {}).filter((k) => k.startsWith('rollout-doctor.io/')),
    ).toEqual([]);
    expect((await listExclusions(s.client, [SHOP.namespace])).exclusions).toEqual([]);
  });

  it('writes nothing when the same removal is delivered again (its claim lost in a failover)', async () => {
    const s = await excludedFor('4h');
    const live = (await listExclusions(s.client, [SHOP.namespace])).exclusions[0];
    if (!live) throw new Error('no exclusion');
    const plan = removalPlan(live, 'expired');
    const now = () => new Date(T0 + 5 * HOUR);
    expect(await applyPlan(s.client, plan, { now })).toMatchObject({ status: 'applied' });
    s.sim.clearRequests();
    const again = await applyPlan(s.client, plan, { now });
    // Refused before any write: the record it removes is no longer there (the allowlist,
    // then the expires-at its patch tests).
    expect(again).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('exclusion.') as unknown,
    });
    expect(realPatches(s)).toEqual([]);
    expect(requiredTerms(deployment(s))).toEqual([{ matchExpressions: [OWN] }]);
  });

  it('is never removed when approved "until removed"', async () => {
    const s = await excludedFor('until-removed');
    expect(readRecord(deployment(s).metadata.annotations)?.expiresAt).toBe('never');
    const audit: AuditEvent[] = [];
    const report = await sweepExclusions(worker(s, () => T0 + 365 * 24 * HOUR, audit));
    expect(report.removed).toEqual([]);
    expect(readRecord(deployment(s).metadata.annotations)).toBeDefined();
  });

  it('lasts as its approver chose (issue 65.5): 3d instead of the default 24h is kept past 24h, removed at 3d', async () => {
    const s = await excludedFor('24h', '3d');
    expect(readRecord(deployment(s).metadata.annotations)?.expiresAt).toBe('2026-11-30T10:00:00Z');
    const audit: AuditEvent[] = [];
    expect((await sweepExclusions(worker(s, () => T0 + 25 * HOUR, audit))).removed).toEqual([]);
    expect((await sweepExclusions(worker(s, () => T0 + 72 * HOUR, audit))).removed).toHaveLength(1);
  });

  it('"until removed" chosen over the default 24h writes no expiry: never removed', async () => {
    const s = await excludedFor('24h', 'until-removed');
    expect(readRecord(deployment(s).metadata.annotations)?.expiresAt).toBe('never');
    const report = await sweepExclusions(worker(s, () => T0 + 365 * 24 * HOUR, []));
    expect(report.removed).toEqual([]);
  });

  it('is undone as before: Undo puts back the affinity and the annotations the Deployment had', async () => {
    const s = await excludedFor('4h');
    const before = structuredClone(deployment(s));
    if (!lastApplied) throw new Error('not applied');
    const undo = inversePlan(lastApplied.plan, lastApplied);
    if (!undo) throw new Error('no undo');
    expect(await applyPlan(s.client, undo, { now: () => new Date(T0 + HOUR) })).toMatchObject({
      status: 'applied',
    });
    const after = deployment(s);
    expect(requiredTerms(after)).toEqual([{ matchExpressions: [OWN] }]);
    expect(
      Object.keys(after.metadata.annotations ?? {}).filter((k) => k.startsWith('rollout-doctor.io/')),
    ).toEqual([]);
    expect(readRecord(before.metadata.annotations)).toBeDefined();
    // Nothing left for the expiry to remove.
    expect((await listExclusions(s.client, [SHOP.namespace])).exclusions).toEqual([]);
  });

  it('removes an expired exclusion on an Argo Rollout (issue 65 item 5) the same way, once', async () => {
    env = await startSimClient(
      { scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 50 },
      'expiry-ro',
    );
    const s = env;
    const ref = { namespace: 'vision', name: 'vision-object-tracker' };
    type Ro = Omit<Deployment, 'kind'>;
    const rollout = (): Ro => s.sim.get('Rollout', ref.namespace, ref.name) as unknown as Ro;
    const r = rollout();
    r.spec.template.spec.affinity = {
      ...r.spec.template.spec.affinity,
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['gpu-node-2'] },
              ],
            },
          ],
        },
      },
    };
    r.metadata.annotations = {
      ...r.metadata.annotations,
      ...recordAnnotations({
        values: { 'kubernetes.io/hostname': ['gpu-node-2'] },
        nodes: [{ name: 'gpu-node-2' }],
        reason: { finding: 'CrashLoopOnNode', fields: [], bad: [] },
        setAt: '2026-11-27T10:00:00Z',
        expiresAt: '2026-11-27T14:00:00Z',
      }),
    };
    s.sim.apply(r);
    await s.sim.settle();
    const audit: AuditEvent[] = [];
    const sweeper = (now: number): ExclusionExpiryDeps => ({
      ...worker(s, () => now, audit),
      list: () => listExclusions(s.client, [ref.namespace]),
    });
    expect((await sweepExclusions(sweeper(T0 + 3 * HOUR))).removed).toEqual([]);
    const [a, b] = await Promise.all([
      sweepExclusions(sweeper(T0 + 4 * HOUR)),
      sweepExclusions(sweeper(T0 + 4 * HOUR)),
    ]);
    expect([...(a?.removed ?? []), ...(b?.removed ?? [])]).toHaveLength(1);
    const after = rollout();
    expect(after.spec.template.spec.affinity?.nodeAffinity).toBeUndefined();
    expect(
      Object.keys(after.metadata.annotations ?? {}).filter((k) => k.startsWith('rollout-doctor.io/')),
    ).toEqual([]);
    expect((await listExclusions(s.client, [ref.namespace])).exclusions).toEqual([]);
  });

  it('apply --lasts 3d records the exclusion as a chat approval choosing 3d does (issue 65 item 5)', async () => {
    const s = await crashLooping();
    const state = mkdtempSync(join(tmpdir(), 'lasts-'));
    const run = fakeIo();
    run.io.env = { ROLLOUT_DOCTOR_STATE_DIR: state };
    const argv = ['apply', 'deployment/checkout', '-n', 'shop', '--remediation', 'exclude-node'];
    const code = await runCli(
      [...argv, '--lasts', '3d', '--yes', '--timeout', '20', '--kubeconfig', s.kubeconfig],
      run.io,
    );
    expect(run.stdout()).toContain('--lasts 3d: the exclusion ends after 3d');
    expect([0, 1]).toContain(code);
    const record = readRecord(deployment(s).metadata.annotations);
    if (!record) throw new Error(`no record: ${run.stderr()}`);
    expect(Date.parse(record.expiresAt) - Date.parse(record.setAt)).toBe(72 * HOUR);
    rmSync(state, { recursive: true, force: true });
  });
});
