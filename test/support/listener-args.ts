/**
 * The arguments Bolt hands a listener, as fakes (the Bolt starter template's way of
 * testing listeners: call the function with mocked ack, client, respond and payload),
 * and the few services a listener touches. Each test overrides what it needs.
 */
import { vi } from 'vitest';
import type { AppServices } from '../../src/app/services.js';

export function fakeClient() {
  return {
    chat: {
      postEphemeral: vi.fn(async () => ({ ok: true })),
      postMessage: vi.fn(async () => ({ ok: true, ts: '1700000000.000200' })),
      update: vi.fn(async () => ({ ok: true })),
    },
  };
}

export function fakeServices(overrides: Partial<Record<keyof AppServices, unknown>> = {}) {
  const audit = { record: vi.fn() };
  const enqueueDiagnose = vi.fn(async () => ({ jobId: 'job-1', joined: false }));
  const services = {
    config: { clusters: ['prod'], defaultCluster: 'prod', commandBudget: { perUser: 5, perChannel: 20 } },
    logger: { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() },
    metrics: { commands: { inc: vi.fn() } },
    audit,
    producers: { enqueueDiagnose },
    subscriptions: {
      subscribe: vi.fn(async () => ({ state: 'none' })),
      ownerOf: vi.fn(async () => null),
    },
    readPolicy: { check: vi.fn(async () => ({ allowed: true })) },
    ...overrides,
  };
  return { services: services as unknown as AppServices, audit, enqueueDiagnose };
}

/** A block_actions payload for a button click in C1 (a thread reply when `threadTs` is given). */
export function buttonClick(
  user: string,
  value: string,
  options: { threadTs?: string; blocks?: object[] } = {},
) {
  const action = { type: 'button', action_id: 'x', block_id: 'b', value, action_ts: '1' };
  const body = {
    type: 'block_actions',
    user: { id: user },
    channel: { id: 'C1' },
    container: { channel_id: 'C1', message_ts: '1700000000.000100' },
    message: {
      ts: '1700000000.000100',
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      blocks: options.blocks ?? [],
    },
    actions: [action],
  };
  return { body, action };
}
