/**
 * Redis Sentinel failover under the real app and worker (bench/lib/stack.ts on a
 * loopback set: one master, one replica, three sentinels, down-after-milliseconds
 * 500): the master is SIGKILLed, then the time until the next command is accepted and
 * its result posted, and until an approval clicked right after the death is applied.
 * Commands accepted without a result and approvals without an outcome are counted as
 * lost; real PATCH requests beyond one as applied twice.
 */
import { STACK_APPROVER, STACK_SECRET, startStack } from './lib/stack.js';
import {
  FAST_RECOVERY,
  NAME,
  NS,
  clickButton,
  deadlockTracker,
  queuesSettled,
  realPatches,
} from '../test/drills/support/drill-kit.js';
import type { StoredMessage } from '../test/support/slack-standin.js';
import type { Section } from './report.js';
import { median } from './lib/stats.js';

export interface FailoverBench {
  /** Master's death → a command accepted (not "queue unavailable"), per run. */
  toCommandAcceptedMs: number[];
  /** Master's death → that command's result posted, per run. */
  toResultMs: number[];
  /** Master's death → "applied" in the thread of an approval clicked at once. */
  toAppliedMs: number;
  commandsLost: number;
  approvalsLost: number;
  appliedTwice: number;
}

export async function runFailoverBench(options: { runs?: number } = {}): Promise<FailoverBench> {
  const stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    redis: 'sentinel',
    workerEnv: FAST_RECOVERY,
  });
  const set = stack.sentinel;
  if (!set) throw new Error('no sentinel set');
  try {
    const { slack, sim } = stack;
    await deadlockTracker(sim);
    const results = (): StoredMessage[] =>
      [...slack.messages.values()].filter(
        (m) => m.threadTs === undefined && JSON.stringify(m.blocks).includes('RolloutSurgeDeadlock'),
      );
    const out: FailoverBench = {
      toCommandAcceptedMs: [],
      toResultMs: [],
      toAppliedMs: 0,
      commandsLost: 0,
      approvalsLost: 0,
      appliedTwice: 0,
    };
    const accepted = async (): Promise<void> => {
      for (;;) {
        const ack = await stack.command(`${NAME} -n ${NS}`);
        if (ack.status === 200 && !ack.body.includes('queue is unavailable')) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    for (let run = 0; run < (options.runs ?? 3); run += 1) {
      await set.synced();
      const before = results().length;
      const killedAt = Date.now();
      const { old } = await set.killMaster();
      await accepted();
      out.toCommandAcceptedMs.push(Date.now() - killedAt);
      try {
        await slack.waitFor(() => results().length > before || undefined, 60_000);
        out.toResultMs.push(Date.now() - killedAt);
      } catch {
        out.commandsLost += 1;
      }
      await set.revive(old);
    }
    await set.synced();
    await queuesSettled(stack.redisUrl, 60_000);
    // The latest result that offers the plan (a later result of the same target may
    // point at an earlier message's buttons instead of offering them again).
    const result = results()
      .filter((m) => JSON.stringify(m.blocks).includes('"action_id":"approve_plan.0"'))
      .at(-1);
    if (!result) throw new Error('no result to approve');
    sim.clearRequests();
    const killedAt = Date.now();
    await set.killMaster();
    const root = (): string => slack.messages.get(`${result.channel}/${result.ts}`)?.text ?? '';
    const snapshot = { ...result, blocks: structuredClone(result.blocks) }; // the button as shown
    while (!/approved/.test(root())) {
      await clickButton(stack.appUrl, STACK_SECRET, snapshot, 'approve_plan.0', STACK_APPROVER);
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      await slack.waitFor(
        () =>
          [...slack.messages.values()].find((m) => m.threadTs === result.ts && m.text.startsWith('applied')),
        60_000,
      );
      out.toAppliedMs = Date.now() - killedAt;
    } catch {
      out.approvalsLost += 1;
    }
    await queuesSettled(stack.redisUrl, 60_000);
    out.appliedTwice = Math.max(0, realPatches(sim) - 1);
    return out;
  } finally {
    await stack.close();
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function failoverSection(r: FailoverBench): Section {
  const runs = r.toCommandAcceptedMs.length;
  return {
    title: 'Redis Sentinel failover (master SIGKILLed under the app and worker)',
    rows: [
      {
        figure: `master killed → next command accepted (${runs} runs)`,
        median: seconds(median(r.toCommandAcceptedMs)),
        comparison: 'sentinel down-after-milliseconds 500 on loopback',
        target: '—',
        met: undefined,
      },
      {
        figure: `master killed → that command's result posted (${r.toResultMs.length} runs)`,
        median: r.toResultMs.length ? seconds(median(r.toResultMs)) : '—',
        comparison: 'includes the diagnosis itself',
        target: '—',
        met: undefined,
      },
      {
        figure: 'master killed → approval clicked at once applied (1 run)',
        median: r.toAppliedMs ? seconds(r.toAppliedMs) : '—',
        comparison: 'clicks answered "queue unavailable" until the new master, then one claim',
        target: '—',
        met: undefined,
      },
      {
        figure: 'commands and approvals lost; plans applied twice',
        median: `${r.commandsLost + r.approvalsLost} lost; ${r.appliedTwice} twice`,
        comparison: 'accepted without a result or outcome; real PATCHes beyond one',
        target: '0; 0',
        met: r.commandsLost + r.approvalsLost === 0 && r.appliedTwice === 0,
      },
    ],
    notes: [
      'One master, one replica and three sentinels on loopback (test/support/redis-sentinel.ts); production failover time adds your sentinels’ down-after-milliseconds and election.',
    ],
  };
}
