/**
 * Issue 56.3 end to end: the admission webhook (HTTPS, in-process), Redis, the app's
 * notify consumer, the Slack stand-in, a worker watching the namespace, and the
 * simulator. A warned apply of the seed incident's image bump is announced only once
 * the cluster shows it (issue 67.1, 67.5): nothing is posted while the object is not
 * at the reviewed generation; when the bump is applied and the worker's early warning
 * diagnoses the stuck rollout, the announcement opens the incident thread in the alert
 * channel, naming the user (escaped, bounded), and the diagnosis goes into that same
 * thread: one thread per rollout.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveAdmission, type ServingAdmission } from '../../src/admission/serve.js';
import { createAnnouncer, type Announcer } from '../../src/admission/announce.js';
import { announceQueue, type AnnounceQueue } from '../../src/admission/announce-queue.js';
import { createLogger } from '../../src/logger.js';
import { parseSigningKey } from '../../src/trust/approval-signature.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { E2E_CHANNEL, deployment, startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';
import { servingCertificate } from '../support/serving-certificate.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { READ_BACK_DELAY_MS } from '../../src/app/alerts/admission-parking.js';
import { Redis } from 'ioredis';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

const admissionKeys = ephemeralPlanKeys({ seal: 's-adm', approval: 'a-adm', notify: 'adm-1' });
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function webhook(
  h: E2eHarness,
): Promise<{ hook: ServingAdmission; ca: string; announcer: () => Announcer }> {
  const dir = mkdtempSync(join(tmpdir(), 'announce-e2e-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, h.sim.kubeconfig);
  const tls = servingCertificate(dir, 'admission');
  const logger = createLogger({ level: 'silent', name: 'admission' });
  const cluster = h.app.services.config.defaultCluster;
  const queue: AnnounceQueue = announceQueue({
    redisUrl: h.redis.url,
    cluster,
    key: parseSigningKey(admissionKeys.env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY),
    logger,
  });
  let made: Announcer | undefined;
  const hook = await serveAdmission({
    kube: { kubeconfig },
    port: 0,
    host: '127.0.0.1',
    tlsCert: tls.cert,
    tlsKey: tls.key,
    budgetMs: 2000,
    cacheSeconds: 10,
    logger,
    onWarned: (metrics) => {
      made = createAnnouncer({ cluster, send: queue.send, metrics, logger });
      return made.onWarned;
    },
  });
  cleanups.push(async () => {
    await hook.close();
    await made?.idle();
    await queue.close();
  });
  await hook.ready;
  return {
    hook,
    ca: tls.ca,
    announcer: () => {
      if (!made) throw new Error('no announcer');
      return made;
    },
  };
}

function validate(port: number, ca: string, body: Json): Promise<Json> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/validate',
        ca,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Json));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('a warned apply opens the incident thread once the cluster shows it', () => {
  it('names who applied it, and the early warning’s diagnosis joins the same thread', async () => {
    const h = await startE2e({
      scenario: 'sim/scenarios/gpu-deadlock.yaml',
      appEnv: {
        ROLLOUT_DOCTOR_ALERT_CHANNEL: E2E_CHANNEL,
        ALERTMANAGER_TOKEN: '',
        ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS: admissionKeys.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
      },
      workerEnv: {
        ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'vision',
        ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
        ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: '200',
      },
    });
    cleanups.push(() => h.close());
    await h.sim.settle();
    await h.sim.waitFor(
      () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
    );
    const { hook, ca, announcer } = await webhook(h);
    const live = deployment(h, 'vision', 'vision-object-tracker');
    const bumped = structuredClone(live) as Deployment;
    const container = bumped.spec.template.spec.containers[0];
    if (!container) throw new Error('no container');
    container.image = 'vision/boost-track-app:1.1';
    // As a validating webhook sees it: after the API server's bump of the generation.
    bumped.metadata.generation = (live.metadata.generation ?? 1) + 1;
    const user = `mallory <!channel> *ops*\u202e${'x'.repeat(200)}`;
    const answer = await validate(hook.port, ca, {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'e2e-1',
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        name: 'vision-object-tracker',
        namespace: 'vision',
        operation: 'UPDATE',
        userInfo: { username: user },
        object: bumped,
        oldObject: live,
      },
    });
    expect(answer['response']['allowed']).toBe(true);
    expect(answer['response']['warnings'][0]).toContain('can never finish');
    await announcer().idle();
    expect(
      await hook.metrics.registry.getSingleMetricAsString('rollout_doctor_admission_announcements_total'),
    ).toMatch(/outcome="queued"\} 1/);
    // Not applied yet: nothing in the channel (another admission step could still refuse it).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rootsNow = (): unknown[] =>
      [...h.slack.messages.values()].filter((m) => m.channel === E2E_CHANNEL && m.threadTs === undefined);
    expect(rootsNow()).toEqual([]);

    // The bump is applied: the rollout starts and stalls; the worker's early warning
    // diagnoses it, which shows the object at the reviewed generation.
    h.sim.apply(bumped);
    const root = await h.slack.waitFor(
      () =>
        [...h.slack.messages.values()].find(
          (m) => m.channel === E2E_CHANNEL && m.threadTs === undefined && m.text.includes('can never finish'),
        ),
      SIGNAL_WAIT_MS,
    );
    expect(root.text).toMatch(
      /^A rollout that can never finish was just applied to deployment\/vision-object-tracker by mallory /,
    );
    // Untrusted: no mention reaches Slack, no bidi control, and the name is cut.
    expect(root.text).not.toContain('<!channel>');
    expect(root.text).not.toContain('\u202e');
    expect(root.text).not.toContain('x'.repeat(100));
    const reply = await h.slack.waitFor(
      () => [...h.slack.messages.values()].find((m) => m.threadTs === root.ts),
      SIGNAL_WAIT_MS,
    );
    expect(reply.text).toContain('vision-object-tracker');
    const roots = [...h.slack.messages.values()].filter(
      (m) => m.channel === E2E_CHANNEL && m.threadTs === undefined,
    );
    expect(roots.map((m) => m.ts)).toEqual([root.ts]);
  });
});

describe('without the watch: the app reads the object back itself (issue 67.1, 67.5)', () => {
  /** A worker with no watch, the webhook, and a warned review of the image bump at the next generation. */
  async function warnedBump(): Promise<{ h: E2eHarness; bumped: Deployment }> {
    const h = await startE2e({
      scenario: 'sim/scenarios/gpu-deadlock.yaml',
      appEnv: {
        ROLLOUT_DOCTOR_ALERT_CHANNEL: E2E_CHANNEL,
        ALERTMANAGER_TOKEN: '',
        ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS: admissionKeys.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
      },
      workerEnv: { ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600' },
    });
    cleanups.push(() => h.close());
    await h.sim.settle();
    await h.sim.waitFor(
      () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
    );
    const { hook, ca, announcer } = await webhook(h);
    const live = deployment(h, 'vision', 'vision-object-tracker');
    const bumped = structuredClone(live) as Deployment;
    const container = bumped.spec.template.spec.containers[0];
    if (!container) throw new Error('no container');
    container.image = 'vision/boost-track-app:1.1';
    bumped.metadata.generation = (live.metadata.generation ?? 1) + 1;
    const answer = await validate(hook.port, ca, {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'e2e-2',
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        name: 'vision-object-tracker',
        namespace: 'vision',
        operation: 'UPDATE',
        userInfo: { username: 'alice' },
        object: bumped,
        oldObject: live,
      },
    });
    expect(answer['response']['warnings'][0]).toContain('can never finish');
    await announcer().idle();
    return { h, bumped };
  }
  const roots = (h: E2eHarness) =>
    [...h.slack.messages.values()].filter((m) => m.channel === E2E_CHANNEL && m.threadTs === undefined);

  it('an apply the API server then stores is announced once the read shows it', async () => {
    const { h, bumped } = await warnedBump();
    h.sim.apply(bumped); // as the API server does after the webhooks allowed it
    const root = await h.slack.waitFor(
      () => roots(h).find((m) => m.text.includes('can never finish')),
      SIGNAL_WAIT_MS + READ_BACK_DELAY_MS,
    );
    expect(root.text).toMatch(
      /^A rollout that can never finish was just applied to deployment\/vision-object-tracker by alice/,
    );
    expect(roots(h)).toHaveLength(1);
  });

  it('an apply another admission step refuses posts nothing and holds no thread key', async () => {
    const { h } = await warnedBump(); // never stored: the generation is never reached
    // The app's read of the object comes and goes, and finds the old generation.
    await new Promise((resolve) => setTimeout(resolve, READ_BACK_DELAY_MS + 3_000));
    expect(roots(h)).toEqual([]);
    const redis = new Redis(h.redis.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await redis.keys('rd:alerts:by-workload:*')).toEqual([]);
      expect(await redis.keys('rd:alerts:thread:*')).toEqual([]);
      // Only the parked announcement, which expires.
      const parked = await redis.keys('rd:alerts:admission-parked:*');
      expect(parked).toHaveLength(1);
      expect(await redis.ttl(String(parked[0]))).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
