/**
 * Drill: a worker process killed with SIGKILL in the middle of a diagnosis and in
 * the middle of a remediation. The job must finish on another worker, the patch must
 * reach the API server once, and the channel must show one result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { buttonsOf } from '../support/slack-sign.js';
import type { StoredMessage } from '../support/slack-standin.js';
import { FAST_RECOVERY, NAME, NS, queuesSettled, realPatches } from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    workerEnv: FAST_RECOVERY,
  });
  const { sim } = stack;
  await sim.waitFor(
    () => ((sim.get('Deployment', NS, NAME) as Deployment).status?.availableReplicas ?? 0) === 1,
  );
  // A new image: the surge pod waits for the GPU the old pod holds (incident A).
  const res = await fetch(`${sim.url}/apis/apps/v1/namespaces/${NS}/deployments/${NAME}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify({
      spec: {
        template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } },
      },
    }),
  });
  expect(res.status).toBe(200);
  await sim.waitFor(() =>
    (sim.list('Event', NS) as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
});

afterAll(async () => {
  await stack?.close();
});

/** Result messages in the channel (the thread report under a result names the finding too). */
const resultMessages = (): StoredMessage[] =>
  [...stack.slack.messages.values()].filter(
    (m) => m.threadTs === undefined && JSON.stringify(m.blocks).includes('RolloutSurgeDeadlock'),
  );

function approve(message: StoredMessage): Promise<{ status: number }> {
  const button = buttonsOf(message).find((b) => b.action_id.startsWith('approve_plan'));
  if (!button) throw new Error('no approve button on the result');
  return stack.click(message, button.action_id);
}

describe('worker killed with SIGKILL', () => {
  it('mid-diagnosis: another worker finishes the job and the channel shows one result', async () => {
    const { sim, slack } = stack;
    // Hold the worker inside the collector long enough to kill it there.
    sim.addFault({ match: { verb: 'list', resource: 'events' }, delayMs: 5_000, times: 1 });
    sim.clearRequests();
    expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
    await sim.waitFor(() => sim.requests.some((r) => r.resource === 'events'), SIGNAL_WAIT_MS);
    const victim = stack.workers[0];
    await victim?.stop('SIGKILL');
    await stack.startWorker();

    const result = await slack.waitFor(() => resultMessages()[0], SIGNAL_WAIT_MS);
    await queuesSettled(stack.redis.url); // a duplicate would have happened by now
    expect(resultMessages()).toHaveLength(1);
    const roots = slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === undefined);
    expect(roots).toHaveLength(1);
    expect(result.text).not.toContain('failed');
  });

  it('mid-remediation after the patch: applied exactly once, one outcome thread, the rollout completes', async () => {
    const { sim, slack } = stack;
    // Its own diagnosis: this drill does not depend on the one above having run.
    const earlier = new Set(resultMessages().map((m) => m.ts));
    expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
    const result = await slack.waitFor(
      () => resultMessages().find((m) => !earlier.has(m.ts)),
      SIGNAL_WAIT_MS,
    );
    // Slow down the rollout watch so the worker is still busy with the job when killed.
    sim.addFault({ match: { verb: 'watch', resource: 'deployments' }, delayMs: 4_000, times: 1 });
    sim.clearRequests();
    expect((await approve(result)).status).toBe(200);
    await sim.waitFor(() => realPatches(sim) === 1, SIGNAL_WAIT_MS);
    const victim = stack.workers.at(-1);
    await victim?.stop('SIGKILL');
    await stack.startWorker();

    const thread = (): StoredMessage[] =>
      [...slack.messages.values()].filter((m) => m.threadTs === result.ts);
    await slack.waitFor(
      () => thread().some((m) => /rolled out|already applied|already-applied/i.test(m.text)) || undefined,
      SIGNAL_WAIT_MS,
    );
    await sim.waitFor(
      () => ((sim.get('Deployment', NS, NAME) as Deployment).status?.updatedReplicas ?? 0) === 1,
      SIGNAL_WAIT_MS,
    );
    await queuesSettled(stack.redis.url);
    expect(realPatches(sim)).toBe(1);
    expect(thread().filter((m) => /^applied/i.test(m.text))).toHaveLength(1);
    expect(thread().filter((m) => /^(failed|refused)/i.test(m.text))).toHaveLength(0);
  });
});
