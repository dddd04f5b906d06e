/**
 * How many private answers (refusals, help, usage) the bot sends one person a minute
 * on Teams, where each is a message of its own in their personal chat, sent through the
 * Bot Connector. A Slack refusal rides on the request's own answer (the
 * command's ack, an ephemeral message); a Teams one costs an outbound call that the
 * connector throttles per bot, so a flood of refused commands must not turn into a
 * flood of the bot's own posts, public or private, nor use up what the bot may send
 * for everyone else. Past the bound a refusal is not said (it is still audited by the
 * use-case that refused it) and the count is logged once a minute.
 *
 * One replica's memory on purpose, like the invoke replay guard (inbound.ts): it bounds
 * cost, not rights, so N replicas allow N times as many. Bounded in size (oldest first).
 */
export interface PrivateAnswers {
  /** True when one more answer to `person` fits this minute (and counts it). */
  take(person: string): boolean;
}

export function privateAnswers(
  options: { perMinute?: number; max?: number; now?: () => number } = {},
): PrivateAnswers {
  const perMinute = options.perMinute ?? 3;
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(person) {
      const at = now();
      const open = windows.get(person);
      if (open !== undefined && at - open.start < 60_000) {
        open.count += 1;
        return open.count <= perMinute;
      }
      windows.delete(person);
      windows.set(person, { start: at, count: 1 });
      while (windows.size > max) {
        const oldest = windows.keys().next().value;
        if (oldest === undefined) break;
        windows.delete(oldest);
      }
      return perMinute >= 1;
    },
  };
}
