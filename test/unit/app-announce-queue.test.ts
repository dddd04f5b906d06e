import type { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartedRun } from '../../src/chat/adapter.js';
import { plain } from '../../src/message/rich.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import { announceRun } from '../../src/chat/notify/announce.js';
import type { AppServices } from '../../src/app/services.js';

const IN_C1 = { platform: 'slack', id: 'C1' };

/** A command's run whose announcement reads `text`. */
const runOf = (jobId: string, text: string): StartedRun => ({
  cluster: 'default',
  jobId,
  addedAt: Date.now(),
  what: 'diagnose',
  announcement: { summary: plain(text), parts: [] },
  owner: { requestedBy: 'U0ASKER', cluster: 'default' },
  cannotPost: { summary: plain('cannot post'), parts: [] },
});

/**
 * Announcements run after the ack, a few at a time in arrival order, so a burst of
 * commands does not make them compete with the acks still to come.
 */

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every settled promise chain run (setImmediate stays real under the fake timers). */
async function drain(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((r) => setImmediate(r));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('announceRun', () => {
  it('posts at most 4 announcements at once, the others in arrival order as slots free up', async () => {
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const client = {
      chat: {
        postMessage: async ({ text }: { text: string }) => {
          started.push(text);
          const gate = deferred();
          gates.set(text, gate);
          await gate.promise;
          return { ok: true, ts: `ts-${text}` };
        },
      },
    } as unknown as webApi.WebClient;
    const subscribed: string[] = [];
    const services = {
      config: { runDeadlineMs: 600_000 },
      logger: { warn: () => undefined },
      subscriptions: {
        subscribe: async (_cluster: string, _job: string, ref: { ts: string }) => {
          subscribed.push(ref.ts);
          return { state: 'none' };
        },
      },
    } as unknown as AppServices;
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const runs = names.map((text) =>
      announceRun(services, createSlackChatAdapter(client), IN_C1, runOf(text, text)),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    gates.get('c')?.resolve();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const name of ['a', 'b', 'd']) gates.get(name)?.resolve();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(names);
    for (const name of ['e', 'f']) gates.get(name)?.resolve();
    const refs = await Promise.all(runs);
    expect(refs.map((r) => r?.id)).toEqual(names.map((n) => `ts-${n}`));
    expect(subscribed.sort()).toEqual(names.map((n) => `ts-${n}`));
  });

  it('frees the slot when posting fails', async () => {
    // Fake setTimeout: the 10 s safety release cannot stand in for the real one.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = {
      chat: {
        postMessage: async () => {
          throw new Error('not_in_channel');
        },
      },
    } as unknown as webApi.WebClient;
    const warned: string[] = [];
    const services = {
      subscriptions: { subscribe: async () => ({ state: 'none' }) },
      logger: { warn: (fields: { err: Error }) => warned.push(fields.err.message) },
    } as unknown as AppServices;
    const outcomes: string[] = [];
    // Six at once: the last two only run if the first four give their slots back.
    for (let i = 0; i < 6; i += 1) {
      announceRun(services, createSlackChatAdapter(client), IN_C1, runOf('j', 't')).then(
        (ref) => outcomes.push(ref === null ? 'not posted' : 'posted'),
        (err: Error) => outcomes.push(err.message),
      );
    }
    await drain();
    // Each answered "not posted" (the caller tells the person), and each logged why.
    expect(outcomes).toEqual(Array(6).fill('not posted'));
    expect(warned).toEqual(Array(6).fill('not_in_channel'));
  });

  it('lends a slot to a call hanging on Slack for 10 s at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const started: string[] = [];
    const client = {
      chat: {
        postMessage: ({ text }: { text: string }) => {
          started.push(text);
          return new Promise(() => undefined); // Slack never answers
        },
      },
    } as unknown as webApi.WebClient;
    const services = {
      subscriptions: { subscribe: async () => ({ state: 'none' }) },
    } as unknown as AppServices;
    for (const text of ['h1', 'h2', 'h3', 'h4', 'h5']) {
      void announceRun(services, createSlackChatAdapter(client), IN_C1, runOf(text, text));
    }
    await drain();
    expect(started).toEqual(['h1', 'h2', 'h3', 'h4']);
    vi.advanceTimersByTime(9_999);
    await drain();
    expect(started).toHaveLength(4);
    vi.advanceTimersByTime(1);
    await drain();
    expect(started).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
  });

  it("keeps each app runtime's slots apart: one whose calls hang never delays another's", async () => {
    const started: string[] = [];
    const hanging = {
      chat: {
        postMessage: ({ text }: { text: string }) => {
          started.push(text);
          return new Promise(() => undefined); // a stopped runtime's chat API, never answering
        },
      },
    } as unknown as webApi.WebClient;
    const answering = {
      chat: {
        postMessage: async ({ text }: { text: string }) => {
          started.push(text);
          return { ok: true, ts: `ts-${text}` };
        },
      },
    } as unknown as webApi.WebClient;
    const runtime = () =>
      ({
        config: { runDeadlineMs: 600_000 },
        subscriptions: { subscribe: async () => ({ state: 'none' }) },
      }) as unknown as AppServices;
    const stopped = runtime();
    for (const text of ['s1', 's2', 's3', 's4', 's5', 's6']) {
      void announceRun(stopped, createSlackChatAdapter(hanging), IN_C1, runOf(text, text));
    }
    await drain();
    const posted = await announceRun(runtime(), createSlackChatAdapter(answering), IN_C1, runOf('n', 'new'));
    expect(posted?.id).toBe('ts-new');
    expect(started).toEqual(['s1', 's2', 's3', 's4', 'new']);
  });
});

describe('an announcement catching up with its run', () => {
  /** A finished run's result: the asked-for workload does not exist. */
  const finished = {
    kind: 'diagnosis-result' as const,
    jobId: 'j',
    cluster: 'default',
    runTs: 1,
    seq: 2,
    outcome: { status: 'failed' as const, reason: 'deployment/web in shop: cluster unreachable' },
  };
  /** A Slack adapter recording its updates; `failing`: each update throws as a rate limit would. */
  const slackChat = (name: string, updates: string[], failing = false) =>
    createSlackChatAdapter({
      chat: {
        postMessage: async () => ({ ok: true, ts: '1700000000.000100' }),
        update: async ({ text }: { text: string }) => {
          if (failing) throw Object.assign(new Error('rate limited'), { retryAfter: 30 });
          updates.push(`${name}: ${text}`);
          return { ok: true };
        },
      },
    } as unknown as webApi.WebClient);
  const services = (notify: ReturnType<typeof slackChat>) => {
    const confirm = vi.fn(async () => ({ wanted: 1, reached: 1 }));
    const warn = vi.fn();
    const value = {
      config: { runDeadlineMs: 600_000 },
      logger: { warn, info: vi.fn() },
      audit: { record: vi.fn() },
      plans: { get: async () => undefined, claimOf: async () => undefined },
      subscriptions: {
        subscribe: async () => ({ state: 'final', update: finished }),
        approvedPlanOf: async () => null,
        answered: async () => false,
        markAnswered: vi.fn(async () => undefined),
      },
      replication: { socket: () => 0, confirm },
      chats: { slack: notify },
    } as unknown as AppServices;
    return { value, confirm, warn };
  };

  it('speaks through the adapter that posted it, not the notify client', async () => {
    const updates: string[] = [];
    const { value } = services(slackChat('notify', updates, true));
    const posted = await announceRun(value, slackChat('listener', updates), IN_C1, runOf('j', 'asked'));
    expect(posted?.id).toBe('1700000000.000100');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatch(/^listener: .*cluster unreachable/);
  });

  it('a failed catch-up leaves the subscription guarded and the deadline watched, and says why', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const updates: string[] = [];
    const { value, confirm, warn } = services(slackChat('notify', updates));
    const posted = await announceRun(value, slackChat('listener', updates, true), IN_C1, runOf('j', 'asked'));
    expect(posted?.id).toBe('1700000000.000100');
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ label: 'subscription' }));
    expect(warn).toHaveBeenCalledWith(expect.anything(), 'announcement not caught up with its run');
    // The result never reached the message: at the deadline, it says the run could not finish.
    vi.advanceTimersByTime(600_000);
    await drain();
    expect(updates).toEqual([expect.stringMatching(/^notify: .*this run could not finish/)]);
  });
});
