/**
 * Two app replicas' root states on one test Redis (a connection each, the same signing
 * key), for the tests that land one replica's edit of an approved message after
 * another's (test/unit/root-stage.test.ts, approval-stage.test.ts); and a held promise.
 */
import { Redis } from 'ioredis';
import type { MessageRef } from '../../src/chat/notify/subscriptions.js';
import { createRootStates, type RootStates } from '../../src/chat/notify/root-store.js';
import { testKeys } from './plan-keys.js';
import { startRedis, type TestRedis } from './redis.js';

export const ROOT_KEY = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };

export interface RootReplicas {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Two fresh replicas over an emptied Redis. */
  fresh(): Promise<[RootStates, RootStates]>;
  /** A connection of the test's own to that Redis (closed by stop()). */
  admin(): Redis;
}

/** `onForgedStage`, `onForgedHeld`: what a replica reports of a stage record that fails its mark. */
export function rootReplicas(
  onForgedStage: (message: MessageRef) => void = () => undefined,
  onForgedHeld: (planId: string) => void = () => undefined,
): RootReplicas {
  let redis: TestRedis | undefined;
  const connections: Redis[] = [];
  const url = (): string => {
    if (!redis) throw new Error('rootReplicas: start() first');
    return redis.url;
  };
  return {
    async start() {
      redis = await startRedis();
    },
    async stop() {
      for (const c of connections) c.disconnect();
      await redis?.close();
    },
    admin() {
      const connection = new Redis(url());
      connections.push(connection);
      return connection;
    },
    async fresh() {
      const replica = (): RootStates => {
        const connection = new Redis(url());
        connections.push(connection);
        return createRootStates(connection, ROOT_KEY, () => undefined, onForgedStage, onForgedHeld);
      };
      const admin = new Redis(url());
      await admin.flushall();
      admin.disconnect();
      return [replica(), replica()];
    },
  };
}

/** A promise and its resolve, to hold one edit until another has landed. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
