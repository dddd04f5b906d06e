/**
 * The demo's stories stop at Ctrl-C: once the signal is aborted no step acts (no
 * slash command, no click, no write to the cluster) and a wait in progress ends at
 * once instead of running to its step timeout. Played against stand-ins whose timing
 * is set by the test, so the interrupt lands exactly where a person's Ctrl-C did.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoryContext } from '../../scripts/demo/context.js';
import { DemoError } from '../../scripts/demo/demo-error.js';
import { playTrackerStory } from '../../scripts/demo/tracker-story.js';
import type { SlackStandin, StoredMessage } from '../support/slack-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let server: Server;
let simUrl = '';
let writes = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    writes += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  simUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The diagnosis the app posts, with the Apply button the story clicks. */
const result: StoredMessage = {
  channel: 'C0INCIDENTS',
  ts: '1.000100',
  text: 'RolloutSurgeDeadlock: the rollout can never finish',
  blocks: [
    {
      type: 'actions',
      block_id: 'plans',
      elements: [
        {
          type: 'button',
          action_id: 'approve',
          value: 'plan-1',
          text: { type: 'plain_text', text: 'Apply: set-rolling-update' },
        },
      ],
    },
  ],
  updates: 0,
};

function storyContext(controller: AbortController, onCommand: (slack: SlackStandin) => void) {
  const messages = new Map<string, StoredMessage>();
  const slack = {
    messages,
    calls: [],
    // What the stand-in offers: a poll with a timeout (no signal).
    async waitFor<T>(
      pick: (s: SlackStandin) => T | undefined | false,
      timeoutMs = SIGNAL_WAIT_MS,
    ): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(slack);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('timeout');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  } as unknown as SlackStandin;
  const user = {
    command: vi.fn(async () => onCommand(slack)),
    click: vi.fn(async () => undefined),
  };
  const sim = {
    url: simUrl,
    get: () => ({ metadata: { generation: 1 }, spec: { replicas: 1 }, status: { availableReplicas: 1 } }),
    list: (kind: string) =>
      kind === 'Event' ? [{ reason: 'FailedScheduling', message: '0/13 nodes are available: ...' }] : [],
  };
  const ctx = {
    sim,
    slack,
    user,
    appUrl: 'http://127.0.0.1:1',
    alertToken: 't',
    say: () => undefined,
    done: () => undefined,
    stepTimeoutMs: 20_000,
    signal: controller.signal,
  } as unknown as StoryContext;
  return { ctx, user };
}

describe('demo stories at Ctrl-C', () => {
  it('Ctrl-C while the slash command is in flight: the result arrives, but the approval is never clicked', async () => {
    const controller = new AbortController();
    const { ctx, user } = storyContext(controller, (slack) => {
      controller.abort(new DemoError('interrupted (SIGINT)'));
      slack.messages.set(`${result.channel}/${result.ts}`, result);
    });
    await expect(playTrackerStory(ctx)).rejects.toThrow('interrupted');
    expect(user.command).toHaveBeenCalledTimes(1);
    expect(user.click).not.toHaveBeenCalled();
  });

  it('Ctrl-C during a wait ends it at once, not at the step timeout', async () => {
    const controller = new AbortController();
    const { ctx, user } = storyContext(controller, () => {
      setTimeout(() => controller.abort(new DemoError('interrupted (SIGINT)')), 50);
    });
    const started = Date.now();
    await expect(playTrackerStory(ctx)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(user.click).not.toHaveBeenCalled();
  });

  it('already interrupted: nothing is written to the cluster and no command is sent', async () => {
    const controller = new AbortController();
    controller.abort(new DemoError('interrupted (SIGINT)'));
    const { ctx, user } = storyContext(controller, () => undefined);
    const before = writes;
    await expect(playTrackerStory(ctx)).rejects.toThrow('interrupted');
    expect(writes).toBe(before);
    expect(user.command).not.toHaveBeenCalled();
  });
});
