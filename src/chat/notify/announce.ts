import type { ChatAdapter, StartedRun } from '../adapter.js';
import type { ConversationRef, MessageRef as PortMessageRef } from '../model.js';
import { chatPlatform, platformTag } from '../../platforms/chat-refs.js';
import { whileRedisAway } from '../../queue/connection.js';
import { deliverRun, type RunDeliveryServices } from './run-delivery.js';
import { subscriberOf, type MessageRef, type SubscribeResult } from './subscriptions.js';
import type { ChatServices } from '../services.js';
import { watchRunDeadline } from './run-deadline.js';

/**
 * Announcements in flight at once. Announcing (posting, then the Redis subscription)
 * happens after the ack and costs more CPU than validating, enqueueing and acking
 * together; under a burst of commands on a busy machine, running every announcement
 * at once made them compete with the acks still to come for the event loop, and
 * Slack's 3-second ack window is the hard limit. Bounded, the acks go first and the
 * visible messages follow in arrival order. A few at a time keep several hundred
 * announcements per second possible when there is CPU.
 */
const ANNOUNCE_CONCURRENCY = 4;
/** A slot is lent for at most this long, so calls hanging on a chat API cannot stop the others. */
const SLOT_MS = 10_000;

/** Lends the slots of one app runtime, FIFO; resolves with the slot's release. */
type AnnounceSlots = () => Promise<() => void>;

function announceSlots(): AnnounceSlots {
  let announcing = 0;
  const waiting: (() => void)[] = [];
  return async () => {
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
  };
}

/**
 * The slots of each app runtime, found by its subscription store (one per runtime). Kept
 * apart, a runtime's announcements never wait behind another's: in one process (tests,
 * benches) a stopped runtime's announcements can still be retrying against a chat API
 * that is gone, each holding a slot for SLOT_MS, and a new runtime's first announcement
 * waited behind them for a minute.
 */
const slotsByRuntime = new WeakMap<object, AnnounceSlots>();

function slotsOf(services: Pick<RunDeliveryServices, 'subscriptions'>): AnnounceSlots {
  let slots = slotsByRuntime.get(services.subscriptions);
  if (!slots) {
    slots = announceSlots();
    slotsByRuntime.set(services.subscriptions, slots);
  }
  return slots;
}

type AnnounceServices = RunDeliveryServices &
  Pick<ChatServices, 'config' | 'audit' | 'logger'> &
  Partial<Pick<ChatServices, 'replication'>>;

/**
 * Posts a run's announcement through `adapter` in `where` (its thread, for a Re-run or
 * a command in a thread) and subscribes the posted message to the run, so its result
 * replaces it, catching up with the run's state when it already progressed or
 * finished; then watches it until the run deadline (./run-deadline.ts). Call after the
 * ack: announcements queue (FIFO, a few at a time) behind each other, never in front
 * of acks. The same for every chat platform.
 * @returns the posted message, or null when the bot cannot post there (logged; the
 *   caller tells the person `run.cannotPost`).
 */
export async function announceRun(
  services: AnnounceServices,
  adapter: ChatAdapter,
  where: ConversationRef,
  run: StartedRun,
): Promise<PortMessageRef | null> {
  const platform = chatPlatform(adapter.platform);
  if (platform === null) return null;
  const release = await slotsOf(services)();
  try {
    let posted: PortMessageRef;
    try {
      posted = await adapter.post(where, run.announcement);
    } catch (error) {
      services.logger.warn({ err: error, platform, conversation: where.id }, 'announcement not posted');
      return null;
    }
    const message: MessageRef = { ...platformTag(platform), channel: posted.conversation.id, ts: posted.id };
    // A message posted in a thread (Re-run, a command in a thread) keeps its thread root:
    // its thread report goes there, since threads do not nest.
    const thread = posted.conversation.thread;
    const owner = { ...run.owner, ...(thread && thread !== posted.id ? { threadTs: thread } : {}) };
    // Subscribing again is harmless (the member is the same), and catches up again.
    // Retried while Redis is away (a failover): the message is posted already, and must
    // not be left without the subscription its result goes to.
    let socket: number | undefined; // the connection's socket the subscription went out on
    const subscribe = async (): Promise<SubscribeResult> => {
      const state = await whileRedisAway(() => {
        socket = services.replication?.socket();
        return services.subscriptions.subscribe(
          run.cluster,
          run.jobId,
          message,
          run.addedAt,
          owner,
          run.joinedRun,
        );
      });
      if (state.state !== 'none') {
        // Caught up through the adapter that posted it. A failure here (a rate limit, an
        // outage) leaves the subscription, its guard and the deadline watch standing: the
        // run's next notification, or the deadline's answer, reaches the message.
        const final = state.state === 'final';
        await deliverRun(services, [subscriberOf(message, owner)], state.update, final, {
          via: adapter,
          catchUp: true,
        }).catch((error: unknown) =>
          services.logger.warn(
            { err: error, platform, jobId: run.jobId },
            'announcement not caught up with its run',
          ),
        );
      }
      return state;
    };
    await subscribe();
    // The message's subscription decides where the result goes: on a replica before
    // the next message, subscribed again if a failover lost it.
    await services.replication?.confirm({
      label: 'subscription',
      fields: { jobId: run.jobId, channel: message.channel, ts: message.ts },
      ...(socket === undefined ? {} : { socket }),
      redo: async () => void (await subscribe()),
    });
    // A person's run ends in an answer: the result, or "could not finish" at the
    // deadline. Armed even for a result caught up with at once: the watch leaves an
    // answered message alone, and answers one whose catch-up failed.
    watchRunDeadline(services, {
      message,
      cluster: run.cluster,
      jobId: run.jobId,
      addedAt: run.addedAt,
      requestedBy: run.owner.requestedBy,
      what: run.what,
      ...(run.deployment ? { deployment: run.deployment } : {}),
      ...(run.owner.namespace ? { namespace: run.owner.namespace } : {}),
      ...(owner.threadTs ? { threadTs: owner.threadTs } : {}),
    });
    return posted;
  } finally {
    release();
  }
}
