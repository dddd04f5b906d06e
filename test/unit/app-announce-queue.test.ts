import type { webApi } from '@slack/bolt';
import { trusted } from '../../src/app/blocks/mrkdwn.js';
import { describe, expect, it } from 'vitest';
import { announceRun } from '../../src/app/announce.js';
import type { AppServices } from '../../src/app/services.js';

/**
 * Announcements run after the ack, a few at a time in arrival order, so a burst of
 * commands does not make them compete with the acks still to come.
 */

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

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
      subscriptions: {
        subscribe: async (_cluster: string, _job: string, ref: { ts: string }) => {
          subscribed.push(ref.ts);
          return { state: 'none' };
        },
      },
    } as unknown as AppServices;
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const runs = names.map((text) =>
      announceRun(services, client, {
        channel: 'C1',
        cluster: 'default',
        jobId: text,
        text: trusted(text),
        addedAt: 0,
      }),
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
    expect(refs.map((r) => r?.ts)).toEqual(names.map((n) => `ts-${n}`));
    expect(subscribed.sort()).toEqual(names.map((n) => `ts-${n}`));
  });

  it('frees the slot when posting fails', async () => {
    const client = {
      chat: {
        postMessage: async () => {
          throw new Error('not_in_channel');
        },
      },
    } as unknown as webApi.WebClient;
    const services = {
      subscriptions: { subscribe: async () => ({ state: 'none' }) },
    } as unknown as AppServices;
    const input = { channel: 'C1', cluster: 'default', jobId: 'j', text: trusted('t'), addedAt: 0 };
    for (let i = 0; i < 6; i += 1) {
      await expect(announceRun(services, client, input)).rejects.toThrow('not_in_channel');
    }
  });
});
