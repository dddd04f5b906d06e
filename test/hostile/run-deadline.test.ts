/**
 * No Redis write leaves a person waiting forever (issue 41.3). A Redis writer pins a job
 * under the workload's fixed id in BullMQ's active list under a lock that never expires
 * (every request joins it, no worker takes it). Each request's message then ends in
 * "could not finish" within the run's deadline (ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS),
 * never "joining the run already in progress" for ever, and each is audited as
 * `unfinished`. Once the pin is gone the next request gets its diagnosis. A pinned run
 * record (`rd:run:*`, a run number no real run reaches, kept for ever) silences nothing
 * since issue 67.8: it is ignored and reported, and each request gets its diagnosis.
 * Real app, worker, Redis, simulator and Slack stand-in.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { diagnoseJobId } from '../../src/queue/job-ids.js';
import { NOTIFY_QUEUES, QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { startE2e, type E2eHarness, type StoredMessage } from '../support/e2e-harness.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const NAME = 'vision-object-tracker';
const DEADLINE_SECONDS = 4;
const COULD_NOT_FINISH = 'this run could not finish: no result came within 4 s';

let h: E2eHarness;
let redis: Redis;
let queue: Queue;
const jobId = diagnoseJobId('vision', NAME);
const runKey = redisKeys.run('default', jobId).run;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    appEnv: { ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS: String(DEADLINE_SECONDS) },
  });
  redis = new Redis(h.redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(diagnoseQueueName('default'), { connection: redis, prefix: QUEUE_PREFIX });
});
afterAll(async () => {
  await queue?.close();
  redis?.disconnect();
  await h?.close();
});

const unfinished = () =>
  h.audit().filter((e) => e.action === 'refusal' && e.reason === 'unfinished' && e.planId === 'diagnose');

/** Asks in its own channel: the message posted for it, with the text it was first posted with. */
async function ask(channel: string): Promise<{ ts: string; text: string }> {
  expect(
    (await h.command(`diagnose deployment/${NAME} -n vision`, { user: `U0${channel}`, channel })).status,
  ).toBe(200);
  const post = await h.slack.waitFor(
    () =>
      h.slack.calls.find(
        (c) => c.method === 'chat.postMessage' && c.args.channel === channel && !c.args.thread_ts,
      ),
    SIGNAL_WAIT_MS,
  );
  const message = await h.slack.waitFor(
    () => [...h.slack.messages.values()].find((m) => m.channel === channel && !m.threadTs),
    SIGNAL_WAIT_MS,
  );
  return { ts: message.ts, text: String(post.args.text) };
}

/**
 * Until the message posted in `channel` reads `text` (the answer replaces the "asked for"
 * message), past its progress lines ("diagnosing deployment/… in …: collecting…" names
 * the workload too): the run is over, not under way.
 */
const answered = (channel: string, text: string, timeoutMs = SIGNAL_WAIT_MS): Promise<StoredMessage> =>
  h.slack.waitFor(
    () =>
      [...h.slack.messages.values()].find(
        (m) => m.channel === channel && m.text.includes(text) && !m.text.includes('diagnosing '),
      ),
    timeoutMs,
  );

describe('a run that cannot finish ends in an answer', () => {
  it('a pinned run record silences nothing (issue 67.8): each request gets its diagnosis, the record is reported', async () => {
    // A run number above any real one, kept for ever: it once made every genuine notification stale.
    await redis.hset(runKey, { run: String(Number.MAX_SAFE_INTEGER), seq: '0', final: '0', payload: 'junk' });
    await redis.persist(runKey);
    for (const channel of ['CPINA', 'CPINB']) {
      const asked = await ask(channel);
      const result = await answered(channel, `deployment/${NAME} in vision:`);
      expect(result.ts).toBe(asked.ts);
      // Re-pinned after each run: the next request meets the pin again.
      await redis.hset(runKey, {
        run: String(Number.MAX_SAFE_INTEGER),
        seq: '0',
        final: '0',
        payload: 'junk',
      });
      await redis.persist(runKey);
    }
    expect(unfinished()).toEqual([]);
    expect(h.logs.some((l) => l.includes('has no valid mark') && l.includes('run record'))).toBe(true);
    const metric = await h.app.services.metrics.registry.getSingleMetricAsString(
      'rollout_doctor_tampered_records_total',
    );
    expect(metric).toMatch(/record="run record"\} [1-9]/);
  });

  it('a job pinned as active under a lock that never expires: "joining" ends in the same answer', async () => {
    // The runs the test before asked for are over and the app has published everything
    // they said: a late result of one would otherwise answer the joined request below
    // (and the deadline watch would then rightly leave it alone). A finished job is not
    // enough: its result is a notify job the app may consume only later on a busy machine.
    await waitForIdleQueues(h.redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES]);
    await redis.del(runKey);
    const jobKey = queue.toKey(jobId);
    await redis.hset(jobKey, {
      name: 'deployment',
      data: JSON.stringify({
        mode: 'workload',
        cluster: 'default',
        target: { kind: 'Deployment', namespace: 'vision', name: NAME },
        requestedBy: 'U0LEAD',
      }),
      opts: '{}',
      timestamp: String(Date.now()),
      processedOn: String(Date.now()),
    });
    await redis.lpush(queue.toKey('active'), jobId);
    await redis.set(`${jobKey}:lock`, 'pinned');
    expect(await queue.getJobState(jobId)).toBe('active');
    const before = unfinished().length;
    const asked = await ask('CPINC');
    expect(asked.text).toContain('joining the run already in progress');
    const told = await answered('CPINC', COULD_NOT_FINISH);
    expect(told.ts).toBe(asked.ts);
    expect(unfinished()).toHaveLength(before + 1);
    // Unpinned, the next request is diagnosed, and nothing says it could not finish.
    await redis.lrem(queue.toKey('active'), 0, jobId);
    await redis.del(`${jobKey}:lock`, jobKey);
    const fresh = await ask('CFREE');
    expect(fresh.text).not.toContain('joining');
    const result = await answered('CFREE', `deployment/${NAME} in vision:`);
    expect(result.ts).toBe(fresh.ts);
    // Marked answered by the app (the deadline watch then leaves it alone: test/unit/run-deadline.test.ts).
    await vi.waitFor(
      async () =>
        expect(await redis.get(redisKeys.messageAnswered({ channel: 'CFREE', ts: fresh.ts }))).not.toBeNull(),
      { timeout: 10_000, interval: 50 },
    );
    expect(unfinished().filter((e) => e.action === 'refusal' && e.user === 'U0CFREE')).toEqual([]);
  });
});
