import type { webApi } from '@slack/bolt';
import type { Mrkdwn } from '../chat/slack/blocks/mrkdwn.js';
import { whileRedisAway } from '../queue/connection.js';
import { applySubscribeResult } from './notify/run-delivery.js';
import { subscriberOf, type MessageOwner, type SubscribeResult } from './notify/subscriptions.js';
import type { AppServices } from './services.js';
import { watchRunDeadline, type WatchedRun } from './run-deadline.js';

/**
 * Announcements in flight at once. Announcing (chat.postMessage, then the Redis
 * subscription) happens after the ack and costs more CPU than validating,
 * enqueueing and acking together; under a burst of commands on a busy machine,
 * running every announcement at once made them compete with the acks still to come
 * for the event loop, and Slack's 3-second ack window is the hard limit. Bounded,
 * the acks go first and the visible messages follow in arrival order. A few at a
 * time keep several hundred announcements per second possible when there is CPU.
 */
const ANNOUNCE_CONCURRENCY = 4;
/** A slot is lent for at most this long, so calls hanging on Slack cannot stop the others. */
const SLOT_MS = 10_000;
let announcing = 0;
const waiting: (() => void)[] = [];

async function announceSlot(): Promise<() => void> {
  if (announcing >= ANNOUNCE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else announcing += 1;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    // Hand the slot straight to the next waiter (FIFO), or free it.
    const next = waiting.shift();
    if (next) next();
    else announcing -= 1;
  };
  const timer = setTimeout(release, SLOT_MS);
  timer.unref();
  return release;
}

/**
 * Posts the visible "diagnosing…" message and subscribes it to the run, catching
 * up with the run's state when it already progressed or finished. Call after the
 * ack: announcements queue (FIFO, a few at a time) behind each other, never in
 * front of acks.
 * @returns the posted message, or null when the bot cannot post in the channel.
 */
export async function announceRun(
  services: AppServices,
  client: webApi.WebClient,
  input: {
    channel: string;
    cluster: string;
    jobId: string;
    /** Posted as the message text, which Slack parses like mrkdwn. */
    text: Mrkdwn;
    addedAt: number;
    threadTs?: string;
    /**
     * Who asked: may dismiss the result, and does not count toward a two-person approval
     * (null: nobody asked, said so in the signed subscription).
     */
    owner: MessageOwner | null;
    /** What was asked for, as the audit names it when the run cannot finish. */
    run: Pick<WatchedRun, 'what' | 'deployment'>;
  },
): Promise<{ channel: string; ts: string } | null> {
  const release = await announceSlot();
  try {
    const posted = await client.chat.postMessage({
      channel: input.channel,
      text: input.text,
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
    });
    if (!posted.ts) return null;
    const message = { channel: input.channel, ts: posted.ts };
    // A message posted in a thread (Re-run) keeps its thread root: its thread report
    // goes there, since Slack threads do not nest.
    const owner = input.owner && input.threadTs ? { ...input.owner, threadTs: input.threadTs } : input.owner;
    // Subscribing again is harmless (the member is the same), and catches up again.
    // Retried while Redis is away (a failover): the message is posted already, and must
    // not be left without the subscription its result goes to.
    let socket: number | undefined; // the connection's socket the subscription went out on
    const subscribe = async (): Promise<SubscribeResult> => {
      const state = await whileRedisAway(() => {
        socket = services.replication?.socket();
        return services.subscriptions.subscribe(input.cluster, input.jobId, message, input.addedAt, owner);
      });
      await applySubscribeResult(services, client, subscriberOf(message, owner), state);
      return state;
    };
    const state = await subscribe();
    // The message's subscription decides where the result goes: on a replica before
    // the next message, subscribed again if a failover lost it.
    await services.replication?.confirm({
      label: 'subscription',
      fields: { jobId: input.jobId, channel: message.channel, ts: message.ts },
      ...(socket === undefined ? {} : { socket }),
      redo: async () => void (await subscribe()),
    });
    // A person's run ends in an answer: the result, or "could not finish" at the deadline.
    if (state.state !== 'final' && input.owner) {
      watchRunDeadline(services, client, {
        message,
        cluster: input.cluster,
        jobId: input.jobId,
        addedAt: input.addedAt,
        requestedBy: input.owner.requestedBy,
        ...input.run,
        ...(input.owner.namespace ? { namespace: input.owner.namespace } : {}),
      });
    }
    return message;
  } finally {
    release();
  }
}
