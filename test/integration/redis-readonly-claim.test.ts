/**
 * A claim left behind when Redis turns read-only (issue 44.3). The approval's claim is
 * written, then the server is demoted (REPLICAOF a master that does not answer: a
 * partition healed the wrong way round) before the remediation job is added: the job
 * gets READONLY, and so does the release of the claim. The clicker is told nothing was
 * applied. Once the server takes writes again, the plan can be approved again (the
 * claim whose job never came is let go after ORPHAN_CLAIM_MS), and it is applied once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { ORPHAN_CLAIM_MS } from '../../src/queue/plan-store.js';
import { freePort } from '../support/redis.js';
import { waitUntil } from '../drills/support/drill-kit.js';
import { reproduceSurgeDeadlock, startE2e, writesSince, type E2eHarness } from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const NAME = 'vision-object-tracker';
let h: E2eHarness;
let admin: Redis;

beforeAll(async () => {
  h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
  admin = new Redis(h.redis.url);
  await reproduceSurgeDeadlock(h);
});

afterAll(async () => {
  vi.restoreAllMocks();
  admin?.disconnect();
  await h?.close();
});

describe('a claim left behind by a read-only Redis', () => {
  it('is let go once writes work again: approved again, applied once', async () => {
    expect((await h.command(`${NAME} -n vision`)).status).toBe(200);
    const result = await h.waitForResult('vision', NAME);
    const { planId } = parsePlanButtonValue(h.buttons(result)[0]?.value ?? '');

    // Demoted between the claim and the job: the job and the release both meet READONLY.
    const producers = h.app.services.producers;
    const enqueue = producers.enqueueRemediate.bind(producers);
    const nowhere = await freePort();
    const demote = vi.spyOn(producers, 'enqueueRemediate').mockImplementationOnce(async (job) => {
      await admin.call('REPLICAOF', '127.0.0.1', String(nowhere));
      return enqueue(job);
    });
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForEphemeral(h.approver, 'nothing was applied');
    expect(demote).toHaveBeenCalledTimes(1);
    expect(await admin.get(`rd:plan:${planId}:claim`)).not.toBeNull(); // left behind
    await admin.call('REPLICAOF', 'NO', 'ONE');
    await waitUntil('the app to take writes again', () =>
      h.app.services.pingRedis().then(
        () => true,
        () => false,
      ),
    );

    // Within the grace the claim stands (its job might still be on its way) …
    const writes = h.sim.requests.length;
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForEphemeral(h.approver, 'already approved');
    // … after it, the next approval takes the plan.
    const real = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => real() + ORPHAN_CLAIM_MS + 1_000);
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);
    expect(writesSince(h, writes).filter((w) => w.verb === 'patch' && w.name === NAME)).toHaveLength(1);
  });
});
