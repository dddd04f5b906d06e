/**
 * A Redis writer queues diagnose jobs itself (issue 27.1): a cluster-wide scan in a
 * person's name, a diagnosis signed with a made-up key, one marked as the early
 * warning's with the wrong seal key. The worker reads nothing of the cluster for them,
 * posts nothing, and audits each; the app's own jobs still run. Real app, worker,
 * Redis, simulator and Slack stand-in.
 */
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signDiagnoseByApp,
  signDiagnoseByWorker,
  WATCH_REQUESTER,
} from '../../src/queue/diagnose-signature.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';

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
}, 120_000);
afterAll(async () => {
  await events?.close();
  await queue?.close();
  redis?.disconnect();
  await h?.close();
});

const scan: DiagnoseJob = { mode: 'scan', cluster: 'default', requestedBy: 'U0LEAD' };
const diagnosis: DiagnoseJob = {
  mode: 'deployment',
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
      { ...scan, sig: signDiagnoseByApp(scan, { keyId: 'a1', privateKey: attacker.approval.privateKey }) },
    ],
    [
      'an early-warning job marked with another seal key',
      'forged-seal',
      { ...diagnosis, sig: signDiagnoseByWorker(diagnosis, attacker.seal) },
    ],
  ])('%s reads nothing and posts nothing', async (_what, jobId, data) => {
    const reads = h.sim.requests.length;
    const posts = h.slack.calls.length;
    const job = await queue.add(data.mode, data, { jobId });
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow(/refused/);
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

  it('a person’s own command still runs (the app signs what it queues)', async () => {
    expect((await h.command('scan -n vision')).status).toBe(200);
    await h.slack.waitFor(
      () => h.slack.calls.some((c) => String(c.args.text ?? '').includes('scanned')),
      20_000,
    );
  });
});
