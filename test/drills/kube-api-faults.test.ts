/**
 * Drill: the Kubernetes API answers 500, 429 with Retry-After, too slowly (beyond the
 * worker's request timeout) and with connection resets. Reads are retried a bounded
 * number of times and the diagnosis succeeds once the fault clears, or ends in a
 * clear failure message. Writes are never partial and never land twice: the
 * Deployment is either unchanged or patched exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../sim/index.js';
import { startE2e, type E2eHarness, type StoredMessage } from '../support/e2e-harness.js';
import { buttonsOf } from '../support/slack-sign.js';
import {
  NAME,
  NS,
  deadlockTracker,
  deployment,
  queuesSettled,
  patchAttempts,
  realPatches,
  rolledOut,
} from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

/** Worker request timeout: the "slow" faults below wait longer than this. */
const KUBE_TIMEOUT_MS = 1_000;

let h: E2eHarness;
let result: StoredMessage;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    timeScale: 50,
    workerEnv: { ROLLOUT_DOCTOR_KUBE_TIMEOUT_MS: String(KUBE_TIMEOUT_MS) },
  });
  await deadlockTracker(h.sim);
});

afterAll(async () => {
  await h?.close();
});

const isTarget =
  (verb: string, resource: string) =>
  (r: RecordedRequest): boolean =>
    r.verb === verb && r.resource === resource && r.namespace === NS;

const replies = (): StoredMessage[] => h.replies(result.ts);
const repliesStarting = (prefix: string): StoredMessage[] =>
  replies().filter((m) => m.text.startsWith(prefix));

describe('Kubernetes API faults during a diagnosis', () => {
  it('retries each transient fault a bounded number of times and still gives the verdict', async () => {
    const { sim } = h;
    sim.clearRequests();
    sim.addFault({
      match: { verb: 'get', resource: 'deployments', name: NAME },
      status: 429,
      retryAfterSeconds: 1,
      times: 1,
    });
    sim.addFault({ match: { verb: 'list', resource: 'pods', namespace: NS }, status: 500, times: 2 });
    sim.addFault({
      match: { verb: 'list', resource: 'events', namespace: NS },
      delayMs: 3 * KUBE_TIMEOUT_MS,
      times: 1,
    });
    sim.addFault({ match: { verb: 'list', resource: 'replicasets', namespace: NS }, reset: true, times: 1 });

    expect((await h.command(`${NAME} -n ${NS}`)).status).toBe(200);
    result = await h.waitForResult(NS, NAME, { timeoutMs: 20_000 });
    expect(JSON.stringify(result.blocks)).toContain('RolloutSurgeDeadlock');
    // The verdict came from complete data: nothing is reported as unreadable.
    expect(result.text).not.toMatch(/could not|partial/i);

    const gets = sim.requests.filter((r) => isTarget('get', 'deployments')(r) && r.name === NAME);
    const [throttled, retried] = gets;
    expect(throttled?.status).toBe(429);
    expect(retried?.status).toBe(200);
    // Retry-After: 1 was honoured.
    expect((retried?.receivedAt ?? 0) - (throttled?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
    // Each faulted read was retried just enough: the faults plus one success.
    expect(
      sim.requests
        .filter(isTarget('list', 'pods'))
        .map((r) => r.status)
        .slice(0, 3),
    ).toEqual([500, 500, 200]);
    expect(sim.requests.filter(isTarget('list', 'replicasets')).map((r) => r.status)).toEqual([0, 200]);
    expect(sim.requests.filter(isTarget('list', 'events'))).toHaveLength(2);
    // The client absorbed every fault: the job itself never failed.
    expect(h.logs.filter((line) => line.includes('"job failed"'))).toEqual([]);
  });

  it('gives up after bounded retries on a fault that does not clear, with a clear message', async () => {
    const { sim, slack } = h;
    sim.clearRequests();
    sim.addFault({ match: { verb: 'get', resource: 'deployments', name: NAME }, status: 500 });
    const before = new Set(slack.messages.keys());
    try {
      expect((await h.command(`${NAME} -n ${NS}`)).status).toBe(200);
      const failed = await slack.waitFor(
        () =>
          [...slack.messages.entries()].find(
            ([key, m]) => !before.has(key) && m.text.startsWith('Diagnosis failed'),
          )?.[1],
        SIGNAL_WAIT_MS,
      );
      expect(failed.text).toContain(`deployment/${NAME} in ${NS}`);
      expect(failed.text).toContain('HTTP 500');
      expect(failed.text).toContain('gave up after 3 attempts');
      // 4 attempts per read (the client) x 3 attempts per job (the queue), then stop.
      await queuesSettled(h.redis.url);
      expect(sim.requests.filter((r) => isTarget('get', 'deployments')(r) && r.name === NAME)).toHaveLength(
        12,
      );
    } finally {
      sim.clearFaults();
    }
  });
});

describe('Kubernetes API faults during a remediation', () => {
  it('a write that keeps failing leaves the Deployment unchanged and says so', async () => {
    const { sim } = h;
    const before = deployment(sim);
    sim.clearRequests();
    sim.addFault({
      match: { verb: 'patch', resource: 'deployments', name: NAME, dryRun: false },
      status: 500,
    });
    try {
      expect((await h.click(result, 'approve_plan.1', h.approver)).status).toBe(200);
      const failed = await h.waitForReply(result.ts, 'failed', SIGNAL_WAIT_MS);
      expect(failed.text).toContain('set-recreate');
      expect(failed.text).toContain('HTTP 500');
      // Three job attempts, each one real PATCH refused by the server; nothing landed.
      expect(patchAttempts(sim)).toBe(3);
      const after = deployment(sim);
      // (The resourceVersion moves with status writes by the controllers; the spec must not.)
      expect(after.metadata.generation).toBe(before.metadata.generation);
      expect(after.spec).toEqual(before.spec);
      expect(repliesStarting('applied')).toHaveLength(0);
      expect(failed.text).toContain('press Re-run');

      // The claim was released: Re-run gives a fresh message whose Apply button works
      // again (the API still fails here, so the Deployment stays as it was for the
      // tests below). The old "Approved" button only reports the state.
      expect((await h.click(failed, 'rerun_diagnosis', h.approver)).status).toBe(200);
      const fresh = await h.waitForResult(NS, NAME, { threadTs: result.ts });
      expect((await h.click(fresh, 'approve_plan.1', h.approver)).status).toBe(200);
      await h.slack.waitFor(() => repliesStarting('failed').length === 2 || undefined, SIGNAL_WAIT_MS);
      expect(patchAttempts(sim)).toBe(6);
      expect(deployment(sim).spec).toEqual(before.spec);
    } finally {
      sim.clearFaults();
    }
  });

  it('a write throttled and then reset is retried and applied exactly once', async () => {
    const { sim } = h;
    // One fix per message: approving set-recreate above withdrew the other plans of
    // those messages, so a fresh diagnosis (Re-run) offers set-rolling-update again.
    const lastFailed = repliesStarting('failed').at(-1);
    if (!lastFailed) throw new Error('no failed reply from the previous drill');
    const known = new Set(replies().map((m) => m.ts));
    expect((await h.click(lastFailed, 'rerun_diagnosis', h.approver)).status).toBe(200);
    const fresh = await h.slack.waitFor(
      () =>
        replies().find(
          (m) =>
            !known.has(m.ts) && m.text.startsWith(`deployment/${NAME} in ${NS}:`) && h.buttons(m).length > 0,
        ),
      SIGNAL_WAIT_MS,
    );
    const generation = deployment(sim).metadata.generation ?? 0;
    sim.clearRequests();
    const patch = { verb: 'patch', resource: 'deployments', name: NAME, dryRun: false };
    // Longer than the job's own backoff (2 s): only honouring the server's wait passes.
    sim.addFault({ match: patch, status: 429, retryAfterSeconds: 3, times: 1 });
    sim.addFault({ match: patch, reset: true, times: 1 });

    expect((await h.click(fresh, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);
    await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
    const writes = sim.requests.filter((r) => r.verb === 'patch' && r.name === NAME && !r.dryRun);
    // Refused (429), cut before the server read it (reset), then the one that landed.
    expect(writes.map((r) => r.status)).toEqual([429, 0, 200]);
    // The throttled write was sent again only after the server's Retry-After.
    expect((writes[1]?.receivedAt ?? 0) - (writes[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2_950);
    expect(deployment(sim).metadata.generation).toBe(generation + 1);
    expect(deployment(sim).spec.strategy).toMatchObject({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    });
    expect(repliesStarting('applied')).toHaveLength(1);
    expect(repliesStarting('rolled out')).toHaveLength(1);
  });

  it('a write whose answer times out after the server applied it is not sent again', async () => {
    const { sim } = h;
    // The Undo is offered once, in the fix's "applied" reply.
    const reply = repliesStarting('applied')[0];
    if (!reply) throw new Error('no applied reply from the previous drill');
    const generation = deployment(sim).metadata.generation ?? 0;
    sim.clearRequests();
    // The server applies the Undo after 2.5 s; the worker stops waiting after 1 s.
    sim.addFault({
      match: { verb: 'patch', resource: 'deployments', name: NAME, dryRun: false },
      delayMs: 2.5 * KUBE_TIMEOUT_MS,
      times: 1,
    });
    expect((await h.click(reply, 'undo_plan.0', h.approver)).status).toBe(200);
    // The retry finds its own write in place: it reports the Undo applied (with an
    // Undo of its own) and watches that rollout, as if the answer had come.
    const undoApplied = await h.slack.waitFor(
      () => repliesStarting('applied').find((m) => m.text.includes('earlier attempt wrote it')),
      SIGNAL_WAIT_MS,
    );
    expect(undoApplied.text).toContain('Undo');
    expect(buttonsOf(undoApplied).some((b) => b.action_id.startsWith('undo_plan'))).toBe(true);
    await h.slack.waitFor(
      () => repliesStarting('rolled out').find((m) => Number(m.ts) > Number(undoApplied.ts)),
      SIGNAL_WAIT_MS,
    );
    expect(repliesStarting('applied').filter((m) => m.text.includes('Undo'))).toHaveLength(1);
    await queuesSettled(h.redis.url);
    expect(realPatches(sim)).toBe(1);
    expect(deployment(sim).metadata.generation).toBe(generation + 1);
    // Back to the defaults the Deployment had before the fix.
    expect(deployment(sim).spec.strategy).toMatchObject({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });
    expect(replies().filter((m) => /^(failed|refused)/.test(m.text))).toHaveLength(2); // the set-recreate drill's two tries
  });
});
