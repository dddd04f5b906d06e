/**
 * A Redis writer queues diagnose jobs itself (issue 27.1): a cluster-wide scan in a
 * person's name, a diagnosis signed with a made-up key, one marked as the early
 * warning's with the wrong seal key. The worker reads nothing of the cluster for them,
 * posts nothing, and audits each; the app's own jobs still run. A captured genuine job
 * re-added under other ids, or after its expiry, is refused the same way (issue 41.4);
 * and a refused job, or a job record planted under a workload's fixed id, is never
 * joined: the next request runs (issue 41.3). Real app, worker, Redis, simulator and
 * Slack stand-in.
 */
import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/trust/clock-skew.js';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGNED_JOB_MS,
  signDiagnoseByApp,
  signDiagnoseByWorker,
  WATCH_REQUESTER,
} from '../../src/queue/diagnose-signature.js';
import { diagnoseJobId, scanJobId } from '../../src/queue/job-ids.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let h: E2eHarness;
let redis: Redis;
let queue: Queue;
let events: QueueEvents;
const attacker = ephemeralPlanKeys({ seal: 's1', approval: 'a1' });

beforeAll(async () => {
  h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
  redis = new Redis(h.redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(diagnoseQueueName('default'), { connection: redis, prefix: QUEUE_PREFIX });
  events = new QueueEvents(diagnoseQueueName('default'), {
    connection: redis.duplicate(),
    prefix: QUEUE_PREFIX,
  });
  await events.waitUntilReady();
});
afterAll(async () => {
  await events?.close();
  await queue?.close();
  redis?.disconnect();
  await h?.close();
});

const scan: DiagnoseJob = { mode: 'scan', cluster: 'default', requestedBy: 'U0LEAD' };
const diagnosis: DiagnoseJob = {
  mode: 'workload',
  cluster: 'default',
  target: { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' },
  requestedBy: WATCH_REQUESTER,
};

describe('diagnose jobs the app or a worker did not queue', () => {
  it.each([
    ['an unsigned cluster-wide scan', 'forged-scan', scan],
    [
      'a scan signed with an app key the workers do not know',
      'forged-app-key',
      {
        ...scan,
        sig: signDiagnoseByApp(scan, 'forged-app-key', {
          keyId: 'a1',
          privateKey: attacker.approval.privateKey,
        }),
      },
    ],
    [
      'an early-warning job marked with another seal key',
      'forged-seal',
      { ...diagnosis, sig: signDiagnoseByWorker(diagnosis, 'forged-seal', attacker.seal) },
    ],
  ])('%s reads nothing and posts nothing', async (_what, jobId, data) => {
    const reads = h.sim.requests.length;
    const posts = h.slack.calls.length;
    const job = await queue.add(data.mode, data, { jobId });
    await expect(job.waitUntilFinished(events, SIGNAL_WAIT_MS)).rejects.toThrow(/refused/);
    expect(h.sim.requests.length).toBe(reads);
    expect(h.slack.calls.length).toBe(posts);
    expect(h.audit()).toContainEqual(
      expect.objectContaining({
        action: 'refusal',
        reason: 'tampered',
        detail: expect.stringContaining(jobId),
      }),
    );
  });

  it('a captured genuine scan re-added under new ids: refused and audited each time, nothing read', async () => {
    // What the app signed for the cluster-wide scan, with its own key (as read off Redis).
    const app = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };
    const captured = { ...scan, sig: signDiagnoseByApp(scan, scanJobId(undefined), app) };
    const reads = h.sim.requests.length;
    for (const jobId of ['replay-1', 'replay-2', 'replay-3']) {
      const job = await queue.add('scan', captured, { jobId });
      await expect(job.waitUntilFinished(events, SIGNAL_WAIT_MS)).rejects.toThrow(
        /does not verify \(for this job id\)/,
      );
    }
    // Under its own id, after its expiry (and the clock skew tolerated): genuine, so it is
    // answered, naming the clocks, but nothing is read.
    const old = {
      ...scan,
      sig: signDiagnoseByApp(
        scan,
        scanJobId(undefined),
        app,
        Date.now() - SIGNED_JOB_MS - CLOCK_SKEW_TOLERANCE_MS - 1,
      ),
    };
    const late = await queue.add('scan', old, { jobId: scanJobId(undefined) });
    await expect(late.waitUntilFinished(events, SIGNAL_WAIT_MS)).rejects.toThrow(/expired/);
    await queue.remove(scanJobId(undefined));
    expect(h.sim.requests.length).toBe(reads);
    const refusals = h
      .audit()
      .filter((e) => e.action === 'refusal' && /job (replay-\d|scan\.all)/.test(e.detail ?? ''));
    expect(refusals.map((e) => e.action === 'refusal' && e.reason)).toEqual([
      'tampered',
      'tampered',
      'tampered',
      'expired',
    ]);
  });

  it('a refused job under the workload’s fixed id is not joined: each later request runs, each refusal audited', async () => {
    const jobId = diagnoseJobId('vision', 'vision-object-tracker');
    const refusedOf = () =>
      h
        .audit()
        .filter(
          (e) =>
            e.action === 'refusal' && e.reason === 'tampered' && (e.detail ?? '').includes(`job ${jobId}:`),
        );
    for (const round of [1, 2]) {
      // An unsigned job that stays in the failed set (no removeOnFail), as a Redis writer queues it.
      const forged = await queue.add('deployment', { ...diagnosis, requestedBy: 'U0LEAD' }, { jobId });
      await expect(forged.waitUntilFinished(events, SIGNAL_WAIT_MS)).rejects.toThrow(/refused/);
      expect(await queue.getJobState(jobId)).toBe('failed');
      expect(refusedOf()).toHaveLength(round);
      const asked = await h.command('diagnose deployment/vision-object-tracker -n vision', {
        user: `U0ROUND${round}`,
        channel: `C0ROUND${round}`,
      });
      expect(asked.status).toBe(200);
      const post = await h.slack.waitFor(
        () =>
          h.slack.calls.find(
            (c) =>
              c.method === 'chat.postMessage' &&
              c.args.channel === `C0ROUND${round}` &&
              String(c.args.text).includes('asked for'),
          ),
        SIGNAL_WAIT_MS,
      );
      expect(String(post.args.text)).not.toContain('joining the run already in progress');
      await h.slack.waitFor(
        () =>
          [...h.slack.messages.values()].find(
            (m) =>
              m.channel === `C0ROUND${round}` &&
              m.text.startsWith('deployment/vision-object-tracker in vision:'),
          ),
        SIGNAL_WAIT_MS,
      );
    }
  });

  it('a job record planted under the fixed id, in no list a worker takes from, is not joined', async () => {
    const jobId = diagnoseJobId('vision', 'vision-object-tracker');
    await redis.hset(queue.toKey(jobId), {
      name: 'deployment',
      data: JSON.stringify({ ...diagnosis, requestedBy: 'U0LEAD' }),
      opts: '{}',
      timestamp: String(Date.now()),
    });
    await h.command('diagnose deployment/vision-object-tracker -n vision', {
      user: 'U0PIN',
      channel: 'C0PIN',
    });
    const post = await h.slack.waitFor(
      () =>
        h.slack.calls.find(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.channel === 'C0PIN' &&
            String(c.args.text).includes('asked for'),
        ),
      SIGNAL_WAIT_MS,
    );
    expect(String(post.args.text)).not.toContain('joining the run already in progress');
    await h.slack.waitFor(
      () =>
        [...h.slack.messages.values()].find(
          (m) => m.channel === 'C0PIN' && m.text.startsWith('deployment/vision-object-tracker in vision:'),
        ),
      SIGNAL_WAIT_MS,
    );
  });

  it('a person’s own command still runs (the app signs what it queues)', async () => {
    expect((await h.command('scan -n vision')).status).toBe(200);
    await h.slack.waitFor(
      () => h.slack.calls.some((c) => String(c.args.text ?? '').includes('scanned')),
      SIGNAL_WAIT_MS,
    );
  });
});
