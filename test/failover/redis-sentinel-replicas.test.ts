/**
 * Drill: two app replicas and two workers on one Redis Sentinel set (one master, one
 * replica, three sentinels on loopback) through a SIGKILLed master. A command is
 * asked on both replicas as the master dies; then the master dies again and the same
 * approval is clicked on both replicas at once, again and again, until one click is
 * taken. Asserted: one diagnosis result per target (no duplicate post), one claim
 * (the other clicks are told "already approved" or "nothing was applied"), one apply
 * across both workers, one outcome and one rollout reply in the thread, and every
 * process still running.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseJobId } from '../../src/queue/job-ids.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { createPlanStore } from '../../src/queue/plan-store.js';
import { shownDigest } from '../../src/trust/plan-seal.js';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { STACK_APPROVER, STACK_SECRET, startStack, type Stack } from '../../bench/lib/stack.js';
import type { Child } from '../../bench/lib/children.js';
import { HOOK_TIMEOUT_MS, SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';
import type { SentinelSet } from '../support/redis-sentinel.js';
import { buttonsOf, postSigned, slashCommandBody } from '../support/slack-sign.js';
import type { StoredMessage } from '../support/slack-standin.js';
import {
  FAST_RECOVERY,
  NAME,
  NS,
  deadlockTracker,
  deployment,
  queuesSettled,
  realPatches,
  rolledOut,
  waitUntil,
} from '../drills/support/drill-kit.js';

let stack: Stack;
let set: SentinelSet;
let second: { app: Child; url: string };
const exited: string[] = [];

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 2,
    redis: 'sentinel',
    workerEnv: FAST_RECOVERY,
  });
  if (!stack.sentinel) throw new Error('no sentinel set');
  set = stack.sentinel;
  second = await stack.startApp();
  const watch = (name: string, child: Child): void => void child.exited.then(() => exited.push(name));
  watch('app 1', stack.app);
  watch('app 2', second.app);
  stack.workers.forEach((w, i) => watch(`worker ${i + 1}`, w));
  await deadlockTracker(stack.sim);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
});

const command = (url: string) =>
  postSigned(
    `${url}/slack/events`,
    STACK_SECRET,
    slashCommandBody({ text: `${NAME} -n ${NS}`, user_id: 'U0ONCALL' }),
  );

const results = (): StoredMessage[] =>
  [...stack.slack.messages.values()].filter(
    (m) => m.threadTs === undefined && JSON.stringify(m.blocks).includes('RolloutSurgeDeadlock'),
  );

/** What an app said about Redis and the messages it posts, for a failed drill. */
const said = (app: Child): string[] =>
  app
    .output()
    .split('\n')
    .filter((l) =>
      /subscri|failover|replica|could not post|queue|approv|diagnos|attempt|redo|written again/i.test(l),
    )
    .map((l) => l.slice(0, 300))
    .slice(-25);

/**
 * The result message whose Approve shows the plan as stored now: one the latest run of
 * the drill's target went to (its `rd:subsdone` members), or, when that run was final
 * before any message subscribed (each caught up with it at once, which records no
 * member), any message whose first Approve button names the stored plan with its shown
 * digest. A plan id is stable for the same cluster state, so an older message names the
 * same plan; only the digest tells whether a later run re-made it (then "superseded").
 * A plan the failover lost is written again by the worker's guard once it sees the loss
 * (src/worker/guarded-writes.ts), so this waits for the store to hold what a message
 * shows, and names what each message's plan is in the store if it never does.
 */
async function latestResultMessage(): Promise<StoredMessage> {
  const master = await set.master();
  const redis = new Redis({ port: master.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const plans = createPlanStore(redis);
  let seen: string[] = [];
  /** The message's plan as the store holds it: 'stored', 'absent' or 'other digest'. */
  const inStore = async (m: StoredMessage): Promise<string> => {
    const value = buttonsOf(m).find((b) => b.action_id === 'approve_plan.0')?.value;
    if (value === undefined) return 'no Approve';
    const button = parsePlanButtonValue(value);
    const stored = await plans.get(button.planId);
    if (stored === undefined) return `${button.planId} absent`;
    return shownDigest(stored) === button.shown ? 'stored' : `${button.planId} other digest`;
  };
  try {
    const keys = redisKeys.run('default', diagnoseJobId(NS, NAME));
    return await waitUntil('a result message that shows the plan as stored now', async () => {
      const members = await redis.smembers(keys.delivered);
      const shown = members.map((m) => m.split('/').slice(0, 2).join('/'));
      const candidates = [
        ...results().filter((m) => shown.includes(`${m.channel}/${m.ts}`)),
        ...results().filter((m) => !shown.includes(`${m.channel}/${m.ts}`)),
      ];
      seen = [`latest run's: ${shown.join(' ')}`];
      for (const m of candidates) {
        const state = await inStore(m);
        if (state === 'stored') return m;
        seen.push(`${m.ts}: ${state}`);
      }
      return undefined;
    }).catch((error: unknown) => {
      // What the apps and workers said about runs, results and redone writes.
      console.error('app 1:', said(stack.app), 'app 2:', said(second.app));
      stack.workers.forEach((w, i) => console.error(`worker ${i + 1}:`, said(w)));
      throw new Error(`${String(error)}; ${seen.join('; ')}`);
    });
  } finally {
    redis.disconnect();
  }
}

describe('two app replicas and two workers on one Sentinel set', () => {
  it(
    'no duplicate post, claim or apply through a SIGKILLed master',
    async () => {
      const { slack, sim } = stack;
      const apps = [stack.appUrl, second.url];

      // 1. Both replicas asked as the master dies; asked again until one is taken. Every
      // answer is visible: taken, or "Nothing was started".
      let accepted = 0;
      const ask = async (url: string): Promise<void> => {
        const answer = await command(url);
        expect(answer.status).toBe(200);
        if (!answer.body.includes('queue is unavailable')) accepted += 1;
        else expect(answer.body).toContain('Nothing was started');
      };
      const [, , killed] = await Promise.all([ask(apps[0] ?? ''), ask(apps[1] ?? ''), set.killMaster()]);
      await waitUntil(
        'a command taken after the failover',
        async () => {
          await Promise.all(apps.map((url) => ask(url)));
          return accepted > 0;
        },
        SIGNAL_WAIT_MS,
      );
      // Each taken command has its message, and each message gets the result once
      // (commands for one target join one run, whichever replica took them).
      await slack
        .waitFor(() => results().length >= accepted || undefined, SIGNAL_WAIT_MS)
        .catch((error: unknown) => {
          // Which message went without its result, and what the apps said about Redis.
          console.error('drill: results', results().length, 'of', accepted, 'taken commands');
          console.error(
            'posts:',
            slack.callsOf('chat.postMessage').map((c) => String(c.args.text).slice(0, 120)),
          );
          console.error('app 1:', said(stack.app), 'app 2:', said(second.app));
          // Each top-level message as it reads now, and every edit made to one.
          console.error(
            'top-level messages:',
            [...slack.messages.values()]
              .filter((m) => m.threadTs === undefined)
              .map((m) => `${m.ts} ${m.text.slice(0, 100)}`),
            'updates:',
            slack
              .callsOf('chat.update')
              .map((c) => `${String(c.args.ts)} ${String(c.args.text).slice(0, 80)}`),
          );
          throw error;
        });
      await queuesSettled(stack.redisUrl, SIGNAL_WAIT_MS);
      // A message that showed its result and lost it again says what replaced it, and when.
      if (results().length !== accepted)
        console.error(
          'drill: top-level messages now',
          [...slack.messages.values()]
            .filter((m) => m.threadTs === undefined)
            .map((m) => m.text.slice(0, 120)),
          'updates:',
          slack.callsOf('chat.update').map((c) => `${String(c.args.ts)} ${String(c.args.text).slice(0, 80)}`),
        );
      expect(results()).toHaveLength(accepted);
      // Commands taken at different times may have joined two runs (the first finished
      // before the second was asked): a later run re-makes the plan with the state it read,
      // and an older message's Approve says "superseded". The approver clicks a message
      // that shows the plan as stored now.
      const result = await latestResultMessage();
      await set.revive(killed.old);
      await set.synced();

      // 2. The master dies again; the approver clicks on both replicas until one is taken.
      sim.clearRequests();
      await set.killMaster();
      const shown = (): StoredMessage | undefined => slack.messages.get(`${result.channel}/${result.ts}`);
      // Taken: the root reads "<kind> approved; applying", then "<kind>: <stage>" as the
      // fix moves on (an approval taken in an earlier round may be rolled out already).
      const approved = (): boolean => /^set-rolling-update(?: approved|: )/.test(shown()?.text ?? '');
      await waitUntil(
        'an approval taken after the failover',
        async () => {
          if (approved()) return true;
          // A click of an earlier round was taken and its edit is landing (the button
          // goes first): nothing left to click, its text says so next.
          if (!buttonsOf(shown() ?? result).some((b) => b.action_id === 'approve_plan.0')) return false;
          const at = Date.now();
          const clicks = await Promise.all(
            apps.map((url) => stack.click(result, 'approve_plan.0', { appUrl: url })),
          );
          for (const c of clicks) expect(c.status).toBe(200);
          // Each click answered: the message approved, or a reply to each ("try again").
          await waitUntil(
            'an answer to each click',
            () =>
              approved() ||
              slack.callsOf('chat.postEphemeral').filter((c) => c.at >= at && c.args.user === STACK_APPROVER)
                .length >= clicks.length,
          );
          return approved();
        },
        SIGNAL_WAIT_MS,
      ).catch((error: unknown) => {
        // What the result message shows instead, and each edit it had.
        console.error(
          'drill: result message now',
          shown()?.text.slice(0, 200),
          'edits:',
          slack
            .callsOf('chat.update')
            .filter((c) => c.args.ts === result.ts)
            .map((c) => String(c.args.text).slice(0, 120)),
        );
        console.error('app 1:', said(stack.app), 'app 2:', said(second.app));
        throw error;
      });
      await slack.waitFor(
        () =>
          [...slack.messages.values()].find(
            (m) => m.threadTs === result.ts && m.text.startsWith('rolled out'),
          ),
        SIGNAL_WAIT_MS,
      );
      await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
      await queuesSettled(stack.redisUrl, SIGNAL_WAIT_MS); // a second apply would have happened by now
      expect(realPatches(sim)).toBe(1);
      const thread = [...slack.messages.values()].filter(
        (m) => m.threadTs === result.ts && !m.text.startsWith('Full report'),
      );
      expect(thread.map((m) => m.text.split(':')[0]).sort()).toEqual(['applied', 'rolled out']);
      // One "applied" outcome across both workers' audit lines.
      const applied = stack.workers.flatMap((w) =>
        w
          .output()
          .split('\n')
          .filter((l) => l.includes('"action":"outcome"') && l.includes('"outcome":"applied"')),
      );
      expect(applied).toHaveLength(1);
      expect(exited).toEqual([]);
    },
    STORY_TIMEOUT_MS,
  );
});
