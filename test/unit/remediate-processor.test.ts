import type { Job } from 'bullmq';
import type { ApplyResult } from '../../src/kube/write/executor.js';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createAudit } from '../../src/audit.js';
import { createLogger } from '../../src/logger.js';
import { approvalClaims, signApproval, type SignedApproval } from '../../src/trust/approval-signature.js';
import { planDigest, sealPlan } from '../../src/trust/plan-seal.js';
import type { PlanStore, StoredPlan } from '../../src/queue/plan-store.js';
import type { NotifyJobInput, RemediateJob } from '../../src/queue/schemas.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';
import { createPlanTrust } from '../../src/worker/plan-trust.js';
import { createRemediateProcessor, type RemediateDeps } from '../../src/worker/remediate-processor.js';
import { JobLostError } from '../../src/worker/job-fence.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { outcomeMessage } from '../../src/chat/use-cases/outcome.js';
import { plainText } from '../../src/message/rich.js';

const plan: WorkloadPatchPlan = {
  id: 'set-recreate-0123456789abcdef',
  kind: 'set-recreate',
  target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
  summary: 'Switch to Recreate',
  impact: 'outage',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } },
  preconditions: { uid: 'u1', generation: 2, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
};

/** SET NX / GET over a Map: the replay guard's two Redis calls. */
function memoryRedis(): Redis {
  const values = new Map<string, string>();
  return {
    set: async (key: string, value: string) => {
      if (values.has(key)) return null;
      values.set(key, value);
      return 'OK';
    },
    get: async (key: string) => values.get(key) ?? null,
  } as unknown as Redis;
}

/** What the app signs at claim time, for `stored`, by `approvers` (with `lasts`: the exclusion's duration chosen). */
function approve(
  stored: StoredPlan,
  approvers = ['U0LEAD'],
  keys = testKeys,
  lasts?: SignedApproval['claims']['lasts'],
): SignedApproval {
  return signApproval(
    approvalClaims({
      lasts,
      planId: stored.plan.id,
      digest: planDigest(stored),
      cluster: stored.cluster,
      planExpiresAt: stored.expiresAt,
      approvers,
      channel: 'C1',
      messageTs: '1.1',
      now: Date.now(),
      keyId: keys.approval.keyId,
    }),
    keys.approval.privateKey,
  );
}

function harness(storedCluster: string, apply?: RemediateDeps['apply'], planned: RemediationPlan = plan) {
  const notes: NotifyJobInput[] = [];
  const dedupIds: (string | undefined)[] = [];
  const applied: RemediationPlan[] = [];
  const saved: StoredPlan[] = [];
  const watched: number[] = [];
  const replacedWatched: ({ name: string; uid: string }[] | undefined)[] = [];
  const unsealed: StoredPlan = {
    plan: planned,
    cluster: storedCluster,
    createdAt: 0,
    expiresAt: Date.now() + 60_000,
  };
  const stored: StoredPlan = { ...unsealed, seal: sealPlan(unsealed, testKeys.seal) };
  const approval = approve(stored);
  const released: { id: string; claimedAt?: number | undefined }[] = [];
  const plans = {
    get: async () => stored,
    claimOf: async () => ({ approvers: ['U0LEAD'], at: 1 }),
    release: async (id: string, options: { claimedAt?: number } = {}) => {
      released.push({ id, claimedAt: options.claimedAt });
    },
    save: async (entry: StoredPlan) => {
      saved.push(entry);
    },
  } as unknown as PlanStore;
  const logger = createLogger({ level: 'silent', name: 'test' });
  const deps: RemediateDeps = {
    apply: async (p, hooks) => {
      applied.push(p);
      return apply
        ? apply(p, hooks)
        : { status: 'applied', changes: [], generation: 3, resourceVersion: '9' };
    },
    watch: async (_ref, since, replaced) => {
      watched.push(since);
      replacedWatched.push(replaced);
      return replaced
        ? { outcome: 'complete', summary: 'the replacement pods are Ready (3 of 3 pods Ready)' }
        : { outcome: 'complete', summary: 'rolled out' };
    },
    currentFinding: async () => undefined,
    inverse: (p, change) =>
      change.changes.length > 0 ? { ...p, id: `undo-${p.id}`, summary: `Undo: ${p.summary}` } : null,
    plans,
    trust: createPlanTrust({
      seal: testKeys.seal,
      approvalKeys: testKeys.approval.publicKeys,
      redis: memoryRedis(),
    }),
    planTtlMs: 60_000,
    notify: async (job, options) => {
      notes.push(job);
      dedupIds.push(options?.deduplication?.id);
    },
    audit: createAudit(logger),
    logger,
  };
  const job = (
    cluster: string,
    attemptsStarted = 1,
    change: { id?: string; data?: Partial<RemediateJob> | Record<string, unknown> } = {},
  ) =>
    ({
      id: change.id ?? 'job-1',
      data: {
        planId: planned.id,
        cluster,
        approvedBy: ['U0LEAD'],
        channel: 'C1',
        messageTs: '1.1',
        approval,
        ...change.data,
      },
      attemptsMade: attemptsStarted - 1,
      attemptsStarted,
      opts: { attempts: 3 },
    }) as unknown as Job<RemediateJob>;
  return {
    process: createRemediateProcessor(deps),
    deps,
    job,
    notes,
    dedupIds,
    applied,
    saved,
    watched,
    replacedWatched,
    stored,
    released,
  };
}

describe('remediate processor', () => {
  it('a worker whose job another took over applies nothing and says nothing; one that cannot tell fails the attempt', async () => {
    const h = harness('prod');
    const checked: string[] = [];
    const lost = createRemediateProcessor({
      ...h.deps,
      holds: async (_job, token) => {
        checked.push(token);
        throw new JobLostError("job remediate.x is no longer this worker's (its lock is another worker's)");
      },
    });
    expect(await lost(h.job('prod'), 'token-a')).toBe('lost');
    expect(checked).toEqual(['token-a']);
    expect(h.applied).toHaveLength(0);
    expect(h.notes).toHaveLength(0);
    const unsure = createRemediateProcessor({
      ...h.deps,
      holds: async () => {
        throw new Error('job lock check: Redis did not answer within 2000 ms');
      },
    });
    await expect(unsure(h.job('prod'), 'token-a')).rejects.toThrow(
      /cannot confirm this worker still holds the job/,
    );
    expect(h.applied).toHaveLength(0);
    expect(h.notes).toHaveLength(0);
    // Holding it: the write and the replies, each naming the attempt that made them.
    const holding = createRemediateProcessor({ ...h.deps, holds: async () => undefined });
    await holding(h.job('prod', 2), 'token-b');
    expect(h.applied).toHaveLength(1);
    expect(h.notes.map((n) => (n.kind === 'remediation-outcome' ? [n.stage, n.attempt] : []))).toEqual([
      ['applied', 2],
      ['rolled-out', 2],
    ]);
  });

  it('posts that a stepped walk started, one progress reply per finished step, before the applied reply, with deterministic ids', async () => {
    const h = harness('prod', async (_p, hooks) => {
      const base = { of: 3, replicaSet: 'edge-old' };
      hooks?.onStep?.({ phase: 'waiting-ready', step: 1, ...base, pod: 'edge-old-a' });
      hooks?.onStep?.({ phase: 'ready', step: 1, ...base, pod: 'edge-old-a' });
      hooks?.onStep?.({ phase: 'waiting-ready', step: 2, ...base, pod: 'edge-old-b' });
      hooks?.onStep?.({ phase: 'stopped', step: 2, ...base, reason: 'ready-timeout' });
      hooks?.onStep?.({ phase: 'marks-left', step: 2, ...base, namespace: 'edge', pods: ['edge-old-c'] });
      return { status: 'applied', changes: [], generation: 3, resourceVersion: '9' };
    });
    await h.process(h.job('prod'));
    const stages = h.notes.map((n) => (n.kind === 'remediation-outcome' ? n.stage : n.kind));
    // Step 1 under way (the write is visible at once); later waits are not posted.
    expect(stages).toEqual(['progress', 'progress', 'progress', 'progress', 'applied', 'rolled-out']);
    // A mark that could not be taken off is a reply of its own, before the outcome.
    expect(h.notes[3]).toMatchObject({
      stage: 'progress',
      step: { phase: 'marks-left', pods: ['edge-old-c'], namespace: 'edge' },
    });
    expect(h.notes[0]).toMatchObject({
      stage: 'progress',
      step: { phase: 'waiting-ready', step: 1, of: 3, replicaSet: 'edge-old', pod: 'edge-old-a' },
    });
    expect(h.notes[1]).toMatchObject({
      stage: 'progress',
      step: { phase: 'ready', step: 1, of: 3, replicaSet: 'edge-old', pod: 'edge-old-a' },
    });
    expect(h.notes[2]).toMatchObject({ step: { phase: 'stopped', step: 2, reason: 'ready-timeout' } });
    expect(h.dedupIds.slice(0, 4)).toEqual([
      `step-${h.stored.plan.id}-1-waiting-ready`,
      `step-${h.stored.plan.id}-1-ready`,
      `step-${h.stored.plan.id}-2-stopped`,
      `step-${h.stored.plan.id}-2-marks-left`,
    ]);
  });

  describe('what is watched after the write, from what the plan kind changes', () => {
    const pods = [{ name: 'detector-5d8f7c9b6-x2kqp', uid: 'p1' }];
    const deviceTaint = {
      apiVersion: 'resource.k8s.io/v1' as const,
      name: 'rollout-doctor-gpu-0',
      driver: 'gpu.nvidia.com',
      pool: 'gpu-node-1',
      device: 'gpu-0',
      node: 'gpu-node-1',
      resourceID: 'gpu.nvidia.com/gpu-node-1/gpu-0',
      taint: { key: 'rollout-doctor.io/unhealthy', value: 'Unhealthy', effect: 'NoSchedule' as const },
    };
    const of = (kind: RemediationPlan['kind'], extra: Partial<RemediationPlan> = {}): RemediationPlan =>
      ({
        ...plan,
        id: `${kind}-0123456789abcdef`,
        kind,
        summary: `${kind} summary`,
        patch: null,
        ...extra,
      }) as RemediationPlan;
    const stages = (h: ReturnType<typeof harness>) =>
      h.notes.map((n) => (n.kind === 'remediation-outcome' ? [n.stage, n.detail] : [n.kind, '']));

    it.each([
      ['delete-pods', of('delete-pods', { pods })],
      ['taint-device', of('taint-device', { pods, deviceTaint })],
    ])(
      '%s changes no pod template: watches the replacements become Ready, never says rolled out',
      async (_k, p) => {
        const h = harness('prod', undefined, p);
        await expect(h.process(h.job('prod'))).resolves.toBe('pods-ready');
        expect(h.replacedWatched).toEqual([pods]);
        const said = stages(h);
        expect(said.map(([stage]) => stage)).toEqual(['applied', 'pods-ready']);
        expect(said[0]?.[1]).toContain('Watching the replacement of detector-5d8f7c9b6-x2kqp become Ready…');
        expect(JSON.stringify(said)).not.toMatch(/Watching the rollout|rolled out/);
      },
    );

    it.each([
      ['untaint-device', of('untaint-device', { deviceTaint })],
      ['scale-back-old-replicaset', of('scale-back-old-replicaset', { patch: { type: 'json', body: [] } })],
    ])('%s moves no pod of the Deployment: nothing is watched, and it says so', async (_k, p) => {
      const h = harness('prod', undefined, p);
      await expect(h.process(h.job('prod'))).resolves.toBe('applied');
      expect(h.watched).toEqual([]);
      const said = stages(h);
      expect(said.map(([stage]) => stage)).toEqual(['applied']);
      expect(said[0]?.[1]).toContain('Nothing to watch:');
      expect(said[0]?.[1]).not.toContain('Watching');
    });

    it('a pod template change is still followed as a rollout', async () => {
      const h = harness('prod', undefined, of('exclude-node', { patch: plan.patch }));
      await expect(h.process(h.job('prod'))).resolves.toBe('rolled-out');
      expect(h.replacedWatched).toEqual([undefined]);
      expect(stages(h)[0]?.[1]).toContain('Watching the rollout…');
    });
  });

  it('writes each reply in every language: English in detail, Korean beside it, and a Korean thread shows the Korean', async () => {
    const h = harness('prod', inPlace);
    await expect(h.process(h.job('prod', 2))).resolves.toBe('rolled-out');
    const [applied] = h.notes;
    expect(applied).toMatchObject({
      stage: 'applied',
      detail:
        'Switch to Recreate (found in place on this retry: the earlier attempt wrote it; changed spec.strategy.type). Watching the rollout…',
      detailIn: {
        ko: '전략을 Recreate로 바꿉니다. (재시도에서 이미 적용된 것을 확인했습니다: 앞선 시도가 썼습니다. 바뀐 필드: spec.strategy.type) 롤아웃을 지켜봅니다…',
      },
    });
    const refused = harness('staging');
    await expect(refused.process(refused.job('prod'))).rejects.toThrow('another cluster');
    expect(refused.notes[0]).toMatchObject({
      stage: 'refused',
      detailIn: {
        ko: expect.stringContaining(
          '적용하지 않았습니다: 이 조치는 prod 클러스터가 아니라 staging 클러스터용입니다.',
        ),
      },
    });
    // The app: the thread's language where the worker wrote it, else the English detail.
    if (applied?.kind !== 'remediation-outcome') throw new Error('no applied reply');
    const job = { ...applied, messageTs: '1764212345.000100' };
    const text = (lang: 'en' | 'ko', j = job) =>
      outcomeMessage(j, 'slack', undefined, 0, {}, lang).parts.flatMap((p) =>
        p.kind === 'paragraph' ? [plainText(p.text)] : [],
      )[0];
    expect(text('ko')).toContain('재시도에서 이미 적용된 것을 확인했습니다');
    expect(text('en')).toContain('found in place on this retry');
    const { detailIn: _older, ...olderWorker } = job;
    expect(text('ko', olderWorker)).toContain('found in place on this retry');
  });

  it('applies a plan made for the cluster it serves', async () => {
    const h = harness('prod');
    await expect(h.process(h.job('prod'))).resolves.toBe('rolled-out');
    expect(h.applied).toHaveLength(1);
  });

  it('a paused Deployment: says the change waits for the resume, with the Undo, and asks for no fresh finding', async () => {
    const h = harness('prod', async () => ({
      status: 'applied',
      changes: [{ path: '/spec/strategy/type', before: 'RollingUpdate', after: 'Recreate' }],
      generation: 4,
      resourceVersion: '10',
    }));
    const waits = 'deployment "tracker" is paused and no ReplicaSet runs its pod template yet';
    h.deps.watch = async () => ({ outcome: 'paused', summary: waits });
    let asked = 0;
    h.deps.currentFinding = async () => {
      asked += 1;
      return 'RolloutSurgeDeadlock: the new pod waits for the GPU';
    };
    await expect(h.process(h.job('prod'))).resolves.toBe('paused');
    expect(h.notes).toMatchObject([
      { stage: 'applied' },
      { stage: 'paused', detail: `deployment/tracker: ${waits}`, undoPlanId: `undo-${plan.id}` },
    ]);
    expect(asked).toBe(0);
  });

  it('refuses a plan stored for another cluster and applies nothing', async () => {
    const h = harness('staging');
    await expect(h.process(h.job('prod'))).rejects.toThrow('another cluster');
    expect(h.applied).toHaveLength(0);
    expect(h.notes).toMatchObject([{ stage: 'refused', detail: expect.stringContaining('cluster staging') }]);
  });

  const inPlace: RemediateDeps['apply'] = async () => ({
    status: 'already-applied',
    reason: 'the live Deployment already has every value this plan sets',
    generation: 3,
    changes: [{ path: '/spec/strategy/type', before: undefined, after: 'Recreate' }],
  });

  it('a retry that finds its own change in place reports it applied, with Undo, and watches the rollout', async () => {
    const h = harness('prod', inPlace);
    await expect(h.process(h.job('prod', 2))).resolves.toBe('rolled-out');
    expect(h.saved.map((s) => [s.plan.id, s.undoOf])).toEqual([[`undo-${plan.id}`, plan.id]]);
    expect(h.watched).toEqual([3]);
    expect(h.notes).toMatchObject([
      { stage: 'applied', undoPlanId: `undo-${plan.id}`, detail: expect.stringContaining('earlier attempt') },
      { stage: 'rolled-out', undoPlanId: `undo-${plan.id}` },
    ]);
  });

  it('a second run of one approval queues its replies under the first run’s ids; another approval has its own', async () => {
    const results: ApplyResult[] = [
      {
        status: 'applied',
        changes: [{ path: '/spec/strategy/type', before: undefined, after: 'Recreate' }],
        generation: 3,
        resourceVersion: '9',
      },
    ];
    const h = harness('prod', async (p, hooks) => results.shift() ?? inPlace(p, hooks));
    await h.process(h.job('prod', 1));
    const first = [...h.dedupIds];
    expect(h.notes.map((n) => (n.kind === 'remediation-outcome' ? n.stage : n.kind))).toEqual([
      'applied',
      'rolled-out',
    ]);
    expect(new Set(first).size).toBe(2);
    // The job taken again (a failover lost its completion): its change is in place.
    h.dedupIds.length = 0;
    await h.process(h.job('prod', 2));
    expect(h.dedupIds).toEqual(first);
    // Taken again with its start count lost too (a Sentinel failover to a replica that never
    // saw the start): it finds its own change in place as a first attempt would, and its
    // "already applied" goes under the id of the approval's one report of the write, so a
    // thread that was told "applied" is not told "already applied" as well.
    h.dedupIds.length = 0;
    await h.process(h.job('prod', 1));
    expect(h.dedupIds).toEqual([first[0]]);
    // The plan approved again (say after a failed attempt released it): new replies.
    h.dedupIds.length = 0;
    results.push({ status: 'applied', changes: [], generation: 4, resourceVersion: '10' });
    await h.process(h.job('prod', 1, { data: { approval: approve(h.stored) } }));
    expect(h.dedupIds).toHaveLength(2);
    expect(h.dedupIds.filter((id) => first.includes(id))).toEqual([]);
  });

  it('a stepped walk the Deployment moved on under (rolled back, new rollout) offers no Undo and says why', async () => {
    const h = harness('prod', async () => ({
      status: 'applied',
      changes: [{ path: 'replicasets/x/spec/replicas', before: 3, after: 2 }],
      generation: 5,
      resourceVersion: '10',
      noUndo: 'the Deployment was rolled back to ReplicaSet x',
    }));
    await h.process(h.job('prod', 1));
    expect(h.saved).toEqual([]);
    expect(h.notes[0]).toMatchObject({
      stage: 'applied',
      detail: expect.stringContaining('no Undo: the Deployment was rolled back'),
    });
    expect(h.notes.some((n) => 'undoPlanId' in n)).toBe(false);
  });

  it("a first attempt that finds the change in place says so and offers no Undo of someone else's change", async () => {
    const h = harness('prod', inPlace);
    await expect(h.process(h.job('prod', 1))).resolves.toBe('already-applied');
    expect(h.saved).toEqual([]);
    expect(h.watched).toEqual([]);
    expect(h.notes).toMatchObject([{ stage: 'already-applied' }]);
    expect(h.notes[0]).not.toHaveProperty('undoPlanId');
  });

  it('audits a plan outside its kind as tampered, says so in the thread, and offers no Re-run of it', async () => {
    const lines: string[] = [];
    const h = harness('prod', async () => ({
      status: 'refused',
      reason: 'the patch changes /spec/template/spec/hostPID, outside what set-recreate may change',
      tampered: true,
    }));
    const audit = createAudit(
      createLogger({ level: 'info', name: 'audit-test' }, {
        write: (line: string) => lines.push(line),
      } as never),
    );
    const process = createRemediateProcessor({ ...h.deps, audit });
    await expect(process(h.job('prod'))).resolves.toBe('refused');
    expect(
      lines.map((l) => JSON.parse(l) as { event?: { outcome?: string } }).map((l) => l.event?.outcome),
    ).toEqual(['tampered']);
    expect(h.notes).toMatchObject([{ stage: 'refused', detail: expect.stringContaining('outside what') }]);
    expect(h.notes[0]).not.toHaveProperty('rerun');
  });

  it("a genuine approval's refused job releases its own claim at once, and only that one (issue 54.3)", async () => {
    const stale = harness('prod', async () => ({ status: 'refused', reason: 'generation changed' }));
    await expect(stale.process(stale.job('prod'))).resolves.toBe('refused');
    expect(stale.released).toEqual([{ id: plan.id, claimedAt: 1 }]);
    // An approval that does not verify (another key signed it) is not the claim's: the claim stays.
    const forged = harness('prod');
    const other = approve(forged.stored, ['U0LEAD'], ephemeralPlanKeys({ seal: 's9', approval: 'a9' }));
    await expect(forged.process(forged.job('prod', 1, { data: { approval: other } }))).resolves.toBe(
      'refused',
    );
    expect(forged.released).toEqual([]);
    // Applied: the claim stays (it is what "already approved" means).
    const ok = harness('prod');
    await ok.process(ok.job('prod'));
    expect(ok.released).toEqual([]);
  });

  describe('trusts nothing it reads from Redis', () => {
    function auditLines() {
      const lines: string[] = [];
      const audit = createAudit(
        createLogger({ level: 'info', name: 'audit-test' }, {
          write: (line: string) => lines.push(line),
        } as never),
      );
      const events = () =>
        lines.map(
          (l) =>
            (JSON.parse(l) as { event: { outcome: string; detail?: string; approvedBy: string[] } }).event,
        );
      return { audit, events };
    }

    const forgeries: [string, (h: ReturnType<typeof harness>) => void][] = [
      ['an unsealed plan', (h) => delete h.stored.seal],
      ['a plan altered after sealing', (h) => (h.stored.plan.target.namespace = 'kube-system')],
      [
        'a patch swapped after sealing',
        (h) =>
          (h.stored.plan.patch = {
            type: 'merge',
            body: { spec: { template: { spec: { hostPID: true } } } },
          }),
      ],
      [
        'a plan sealed with a key workers do not hold',
        (h) => (h.stored.seal = sealPlan(h.stored, ephemeralPlanKeys({ seal: 's1', approval: 'a1' }).seal)),
      ],
    ];
    it.each(forgeries)('refuses %s, applies nothing, audits it as tampered', async (_name, forge) => {
      const h = harness('prod');
      forge(h);
      const { audit, events } = auditLines();
      await expect(createRemediateProcessor({ ...h.deps, audit })(h.job('prod'))).resolves.toBe('refused');
      expect(h.applied).toEqual([]);
      expect(events()).toMatchObject([{ outcome: 'tampered' }]);
      expect(h.notes).toMatchObject([
        { stage: 'refused', detail: expect.stringContaining('Nothing was changed') },
      ]);
    });

    it('refuses approvals that do not name this plan as stored, or were not signed by the app', async () => {
      const other = ephemeralPlanKeys({ seal: 's1', approval: 'a1' });
      const cases: Record<string, unknown>[] = [
        { approval: approve({ ...harness('prod').stored, expiresAt: 1 }) },
        { approval: approve(harness('prod').stored, ['U0LEAD'], other) },
        { approvedBy: ['U0LEAD', 'U0MALLORY'] },
        { channel: 'C0ELSEWHERE' },
      ];
      for (const data of cases) {
        const h = harness('prod');
        const { audit, events } = auditLines();
        await expect(
          createRemediateProcessor({ ...h.deps, audit })(h.job('prod', 1, { data })),
        ).resolves.toBe('refused');
        expect(h.applied).toEqual([]);
        expect(events()).toMatchObject([{ outcome: 'tampered' }]);
      }
    });

    it('refuses a job without an approval as tampered and does not retry it', async () => {
      const h = harness('prod');
      const { audit, events } = auditLines();
      await expect(
        createRemediateProcessor({ ...h.deps, audit })(h.job('prod', 1, { data: { approval: undefined } })),
      ).rejects.toThrow('malformed');
      expect(h.applied).toEqual([]);
      expect(events()).toMatchObject([{ outcome: 'tampered' }]);
    });

    it('honours an approval for one job: its retry passes, a copy under another job id is refused', async () => {
      const h = harness('prod');
      await expect(h.process(h.job('prod', 1, { id: 'job-1' }))).resolves.toBe('rolled-out');
      await expect(h.process(h.job('prod', 2, { id: 'job-1' }))).resolves.toBe('rolled-out');
      await expect(h.process(h.job('prod', 1, { id: 'job-copy' }))).resolves.toBe('refused');
      expect(h.applied).toHaveLength(2);
      expect(h.notes.at(-1)).toMatchObject({
        stage: 'refused',
        detail: expect.stringContaining('already used'),
      });
    });

    it('audits the approvers the app signed for', async () => {
      const h = harness('prod');
      const { audit, events } = auditLines();
      await createRemediateProcessor({ ...h.deps, audit })(h.job('prod'));
      expect(events()[0]).toMatchObject({ outcome: 'applied', approvedBy: ['U0LEAD'] });
    });

    /**
     * Issue 68.1: the approvers a job names are exactly the ones the app's signature
     * covers (src/trust/approval-signature.ts verifyApproval), as a set: every other
     * set is refused whatever its size, and the signed ones in any order are applied.
     */
    describe("a job's approvers against the signed ones", () => {
      it.each([
        ['another approver in the place of the signed one', ['U0LEAD'], ['U0MALLORY']],
        ['fewer approvers than were signed', ['U0LEAD', 'U0TWO'], ['U0LEAD']],
        ['more approvers than were signed', ['U0LEAD'], ['U0LEAD', 'U0MALLORY']],
        ['one signed approver twice, the other left out', ['U0LEAD', 'U0TWO'], ['U0LEAD', 'U0LEAD']],
      ])('refuses a job that names %s, applies nothing', async (_name, signed, named) => {
        const h = harness('prod');
        const { audit, events } = auditLines();
        const job = h.job('prod', 1, { data: { approval: approve(h.stored, signed), approvedBy: named } });
        await expect(createRemediateProcessor({ ...h.deps, audit })(job)).resolves.toBe('refused');
        expect(h.applied).toEqual([]);
        expect(events()).toMatchObject([
          { outcome: 'tampered', detail: 'the job names other approvers than the approval' },
        ]);
      });

      it('applies a job naming the signed approvers in another order, and audits them as signed', async () => {
        const h = harness('prod');
        const { audit, events } = auditLines();
        // The app signs its approvers sorted (approvalClaims); the job names them as they approved.
        const approval = approve(h.stored, ['U0TWO', 'U0LEAD']);
        expect(approval.claims.approvers).toEqual(['U0LEAD', 'U0TWO']);
        const job = h.job('prod', 1, { data: { approval, approvedBy: ['U0TWO', 'U0LEAD'] } });
        await expect(createRemediateProcessor({ ...h.deps, audit })(job)).resolves.toBe('rolled-out');
        expect(h.applied).toHaveLength(1);
        expect(events()[0]).toMatchObject({ outcome: 'applied', approvedBy: ['U0LEAD', 'U0TWO'] });
      });
    });
  });

  describe("the exclusion's duration its approvers chose (issue 65.5)", () => {
    const expiresAt = '/metadata/annotations/rollout-doctor.io~1exclusion.expires-at';
    const exclusion = {
      ...plan,
      id: 'exclude-node-0123456789abcdef',
      kind: 'exclude-node',
      summary: 'Keep tracker off node-b',
      patch: {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/generation', value: 2 },
          { op: 'add', path: '/metadata/annotations/rollout-doctor.io~1exclusion.set-at', value: '$NOW' },
          { op: 'add', path: expiresAt, value: '$NOW+24h' },
        ],
      },
    } as RemediationPlan;
    const written = (p: RemediationPlan | undefined) =>
      (p?.patch?.body as { path: string; value?: unknown }[] | undefined)?.find((op) => op.path === expiresAt)
        ?.value;

    it.each([
      ['3d', '$NOW+3d', 'the exclusion ends after 3d'],
      ['until-removed', 'never', 'the exclusion lasts until someone removes it'],
    ] as const)(
      'a signed %s is what the executor writes, and the applied reply says it',
      async (lasts, marker, words) => {
        const h = harness('prod', undefined, exclusion);
        const job = h.job('prod', 1, { data: { approval: approve(h.stored, ['U0LEAD'], testKeys, lasts) } });
        await expect(h.process(job)).resolves.toBe('rolled-out');
        expect(written(h.applied[0])).toBe(marker);
        const applied = h.notes.find((n) => n.kind === 'remediation-outcome' && n.stage === 'applied');
        expect(applied).toMatchObject({ detail: expect.stringContaining(words) });
      },
    );

    it("no duration signed: the plan's own is written and said", async () => {
      const h = harness('prod', undefined, exclusion);
      await expect(h.process(h.job('prod'))).resolves.toBe('rolled-out');
      expect(written(h.applied[0])).toBe('$NOW+24h');
      const applied = h.notes.find((n) => n.kind === 'remediation-outcome' && n.stage === 'applied');
      expect(applied).toMatchObject({ detail: expect.stringContaining('the exclusion ends after 24h') });
    });

    it('a duration signed for a plan that writes no exclusion is refused as tampered, nothing applied', async () => {
      const h = harness('prod');
      const job = h.job('prod', 1, { data: { approval: approve(h.stored, ['U0LEAD'], testKeys, '7d') } });
      await expect(h.process(job)).resolves.toBe('refused');
      expect(h.applied).toEqual([]);
    });

    it('a duration outside the choices does not pass the approval schema', async () => {
      const h = harness('prod', undefined, exclusion);
      const approval = approve(h.stored, ['U0LEAD'], testKeys, '3d');
      const forged = { ...approval, claims: { ...approval.claims, lasts: '9999d' } };
      await expect(h.process(h.job('prod', 1, { data: { approval: forged } }))).rejects.toThrow();
      expect(h.applied).toEqual([]);
    });
  });
});
