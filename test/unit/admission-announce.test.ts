/**
 * Issue 56.3, the webhook's side: a warned apply is announced in the background, bounded,
 * deduplicated per workload, never for a dry run, and a send that hangs or fails never
 * delays or changes the admission answer. The app's side: only the admission key may
 * sign the announcement, and it signs nothing else.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { generatePlanKeys } from '../../src/trust/keygen.js';
import { fakeIo } from '../support/cli-io.js';
import { parsePublicKeys } from '../../src/trust/approval-signature.js';
import {
  createAnnouncer,
  DEDUP_MS,
  PER_NAMESPACE_PER_MINUTE,
  REMEMBERED,
  SEND_TIMEOUT_MS,
  type AdmissionWarningJob,
} from '../../src/admission/announce.js';
import { answerReview } from '../../src/admission/review-handler.js';
import { createAdmissionMetrics } from '../../src/admission/metrics.js';
import type { CheckResult } from '../../src/check/check.js';
import type { CheckSource } from '../../src/check/source.js';
import type { AdmissionRequest } from '../../src/admission/review.js';
import { notifyKeys, signNotify, verifyNotify } from '../../src/queue/notify-signature.js';
import { createLogger } from '../../src/logger.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';

const logger = createLogger({ level: 'silent', name: 'test' });

function warned(name = 'embedder', namespace = 'ml'): CheckResult {
  return {
    target: { kind: 'Deployment', namespace, name },
    rollout: 'template',
    changes: ['spec.containers[0].image'],
    verdict: 'never-finishes',
    reason: 'its new pod needs 1 nvidia.com/gpu, held by its old pods',
    fix: {
      words: 'maxSurge 0, maxUnavailable 1',
      cost: '',
      patch: { type: 'merge', body: {} },
      yaml: '',
    },
    findings: [
      { code: 'RolloutSurgeDeadlock', severity: 'critical', summary: '', explanation: '', evidence: [] },
    ],
  };
}

function request(user = 'alice@example.com', dryRun = false): AdmissionRequest {
  return {
    uid: 'u1',
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    operation: 'UPDATE',
    namespace: 'ml',
    userInfo: { username: user },
    ...(dryRun ? { dryRun: true } : {}),
  };
}

function announcer(send: (job: AdmissionWarningJob, id: string) => Promise<void>, now?: () => number) {
  const metrics = createAdmissionMetrics();
  const a = createAnnouncer({ cluster: 'prod', send, metrics, logger, ...(now ? { now } : {}) });
  const counted = async (): Promise<string> =>
    metrics.registry.getSingleMetricAsString('rollout_doctor_admission_announcements_total');
  return { a, metrics, counted };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('announcing warned applies', () => {
  it('sends one job per workload with the user cut to its bound, the reason and the fix', async () => {
    const sent: { job: AdmissionWarningJob; id: string }[] = [];
    const { a, counted } = announcer(async (job, id) => void sent.push({ job, id }));
    const long = `mallory\u202e${'x'.repeat(300)}`;
    a.onWarned(warned(), request(long));
    a.onWarned(warned(), request('bob'));
    await a.idle();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.job).toMatchObject({
      kind: 'admission-warning',
      cluster: 'prod',
      workload: { kind: 'Deployment', namespace: 'ml', name: 'embedder' },
      code: 'RolloutSurgeDeadlock',
      reason: 'its new pod needs 1 nvidia.com/gpu, held by its old pods',
      fix: 'maxSurge 0, maxUnavailable 1',
    });
    expect(sent[0]?.job.user).toHaveLength(128);
    expect(sent[0]?.id).toMatch(/^admission-warning-[0-9a-f]{32}$/);
    expect(await counted()).toMatch(/outcome="queued"\} 1/);
    expect(await counted()).toMatch(/outcome="deduplicated"\} 1/);
  });

  it('names the reviewed object’s generation and uid, which the app waits to see (issue 67.1, 67.5)', async () => {
    const sent: AdmissionWarningJob[] = [];
    const { a } = announcer(async (job) => void sent.push(job));
    const object = { metadata: { name: 'embedder', generation: 7, uid: 'a1b2' } };
    a.onWarned(warned(), { ...request(), object });
    a.onWarned(warned('other'), { ...request(), object: { metadata: { generation: 'x', uid: 3 } } });
    await a.idle();
    expect(sent[0]).toMatchObject({ generation: 7, uid: 'a1b2' });
    expect(sent[1]).not.toHaveProperty('generation');
    expect(sent[1]).not.toHaveProperty('uid');
  });

  it('announces nothing for a dry run, and at most the per-namespace cap a minute', async () => {
    const sent: string[] = [];
    let now = 0;
    const { a, counted } = announcer(
      async (job) => void sent.push(job.workload.name),
      () => now,
    );
    a.onWarned(warned(), request('alice', true));
    for (let i = 0; i < PER_NAMESPACE_PER_MINUTE + 3; i += 1) a.onWarned(warned(`w${i}`), request());
    await a.idle();
    expect(sent).toHaveLength(PER_NAMESPACE_PER_MINUTE);
    expect(await counted()).toMatch(/outcome="dry-run"\} 1/);
    expect(await counted()).toMatch(/outcome="namespace-limit"\} 3/);
    now = DEDUP_MS + 1;
    a.onWarned(warned('w0'), request());
    await a.idle();
    expect(sent).toHaveLength(PER_NAMESPACE_PER_MINUTE + 1);
  });

  it('remembers a bounded number of workloads, forgetting the least recent alone, never all at once', async () => {
    const sent: string[] = [];
    const { a } = announcer(async (job) => void sent.push(job.workload.name));
    // One more workload than it remembers, each in a namespace of its own (no namespace cap).
    for (let i = 0; i <= REMEMBERED; i += 1) {
      a.onWarned(warned(`w${i}`, `ns${i}`), { ...request(), namespace: `ns${i}` });
      if (i % 10 === 0) await a.idle();
    }
    await a.idle();
    expect(sent).toHaveLength(REMEMBERED + 1);
    // w1 is still remembered (only w0, the least recent, was forgotten): deduplicated.
    a.onWarned(warned('w1', 'ns1'), { ...request(), namespace: 'ns1' });
    a.onWarned(warned('w0', 'ns0'), { ...request(), namespace: 'ns0' });
    await a.idle();
    expect(sent.slice(REMEMBERED + 1)).toEqual(['w0']);
  });

  it('gives up a send that hangs after its bound, counts it, and tries again on the next warned apply', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const { a, counted } = announcer(() => {
      calls += 1;
      return new Promise<void>(() => undefined);
    });
    a.onWarned(warned(), request());
    await vi.advanceTimersByTimeAsync(SEND_TIMEOUT_MS + 1);
    await a.idle();
    expect(await counted()).toMatch(/outcome="failed"\} 1/);
    a.onWarned(warned(), request());
    expect(calls).toBe(2);
  });

  it('never delays or changes the answer: a warned review is answered at once while Redis hangs or fails', async () => {
    const metrics = createAdmissionMetrics();
    const hanging = createAnnouncer({
      cluster: 'prod',
      send: () => new Promise<void>(() => undefined),
      metrics,
      logger,
    });
    const failing = createAnnouncer({
      cluster: 'prod',
      send: () => Promise.reject(new Error('ECONNREFUSED')),
      metrics,
      logger,
    });
    const result = warned();
    const source = {} as CheckSource;
    const deps = (onWarned: (r: CheckResult, q: AdmissionRequest) => void) => ({
      source: () => source,
      refuses: () => Promise.resolve(false),
      memo: <T>() => Promise.resolve(result as T),
      budgetMs: 2000,
      metrics,
      logger,
      onWarned,
    });
    const object = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'embedder', namespace: 'ml' },
      spec: {
        selector: { matchLabels: { app: 'e' } },
        template: { metadata: { labels: { app: 'e' } }, spec: { containers: [{ name: 'e', image: 'e:2' }] } },
      },
    };
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { ...request(), object },
    };
    for (const a of [hanging, failing]) {
      const started = performance.now();
      const answer = await answerReview(review, deps(a.onWarned));
      expect(performance.now() - started).toBeLessThan(200);
      expect(answer.outcome).toBe('warned');
      expect(answer.body).toMatchObject({ response: { allowed: true } });
      expect((answer.body as { response: { warnings: string[] } }).response.warnings[0]).toContain(
        'can never finish',
      );
    }
    await failing.idle();
  });
});

describe('the announcement’s signature', () => {
  const admission = ephemeralPlanKeys({ seal: 's9', approval: 'a9', notify: 'adm-1' });
  const job: AdmissionWarningJob = {
    kind: 'admission-warning',
    cluster: 'prod',
    workload: { kind: 'Deployment', namespace: 'ml', name: 'embedder' },
    user: 'alice',
    code: 'RolloutSurgeDeadlock',
    at: '2026-11-26T00:00:00.000Z',
  };
  const appKey = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };
  const keys = notifyKeys(
    testKeys.notify.keys.worker,
    appKey,
    new Map([['adm-1', ['prod']]]),
    parsePublicKeys(admission.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS),
  );
  const queued = (data: unknown): unknown => JSON.parse(JSON.stringify(data));

  it('verifies under the admission key only, for its own cluster', () => {
    expect(verifyNotify(queued(signNotify(job, 'admission', admission.notify.signing)), keys)).toMatchObject({
      ok: true,
    });
    // A worker's key cannot announce a warned apply, nor the app's.
    expect(verifyNotify(queued(signNotify(job, 'worker', testKeys.notify.signing)), keys).ok).toBe(false);
    expect(verifyNotify(queued(signNotify(job, 'app', appKey)), keys).ok).toBe(false);
    const elsewhere = { ...job, cluster: 'stage' };
    expect(
      verifyNotify(queued(signNotify(elsewhere, 'admission', admission.notify.signing)), keys),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('bound to cluster(s) prod') as string,
    });
  });

  it('signs nothing but warned applies: a result or an outcome under the admission key is refused', () => {
    const outcome = {
      kind: 'remediation-outcome' as const,
      planId: 'p',
      cluster: 'prod',
      channel: 'C1',
      messageTs: '1.2',
      stage: 'rolled-out' as const,
      detail: 'x',
    };
    const forged = { ...signNotify(outcome, 'admission', admission.notify.signing) };
    expect(verifyNotify(queued(forged), keys).ok).toBe(false);
    const asWorker = { ...forged, sig: { ...forged.sig, by: 'worker' } };
    expect(verifyNotify(queued(asWorker), keys).ok).toBe(false);
  });
});

describe('serve-admission’s announcement settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'announce-cli-'));
  const cert = join(dir, 'tls.crt');
  const key = join(dir, 'tls.key');
  writeFileSync(cert, 'x');
  writeFileSync(key, 'x');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function serve(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
    const io = fakeIo();
    io.io.env = env;
    const code = await runCli(
      ['serve-admission', '--tls-cert', cert, '--tls-key', key, '--port', '0'],
      io.io,
    );
    return { code, stderr: io.stderr() };
  }

  it('needs REDIS_URL and the signing key together, and never repeats a bad key', async () => {
    const half = await serve({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('needs both REDIS_URL and ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY');
    const bad = await serve({
      REDIS_URL: 'redis://127.0.0.1:6379',
      ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY: 'k1:s3cr3t-value',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY is not a valid key');
    expect(bad.stderr).not.toContain('s3cr3t-value');
  });

  // issue 67.1: only the API server's reviews may open a thread.
  it('announcing needs --client-ca; --client-name needs it too', async () => {
    const signing = generatePlanKeys({ seal: 's1', approval: 'a1' }).ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY;
    const open = await serve({
      REDIS_URL: 'redis://127.0.0.1:6379',
      ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY: signing,
    });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('announcing warned applies needs --client-ca');
    const io = fakeIo();
    io.io.env = {};
    const named = await runCli(
      ['serve-admission', '--tls-cert', cert, '--tls-key', key, '--client-name', 'kube-apiserver'],
      io.io,
    );
    expect(named).toBe(2);
    expect(io.stderr()).toContain('--client-name needs --client-ca');
  });
});
