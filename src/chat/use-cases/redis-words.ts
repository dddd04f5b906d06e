/**
 * What an answer says about Redis when it did not take a call: the
 * trouble as src/queue/deadline.ts classified it, in the words every answer uses. A
 * full Redis is not "unreachable", and one that did not answer in time is "did not
 * answer", so whoever reads it knows what to look at.
 */
import type { Lang } from '../../i18n/lang.js';
import { translate } from '../../i18n/catalogue.js';
import { redisTrouble } from '../../queue/deadline.js';
import { REDIS_WORDS } from '../words/redis.js';

/** "Redis is full and refuses writes (out of memory)": what the error of a Redis call says about Redis, in `lang`. */
export function redisTroubleWords(error: unknown, lang: Lang = 'en'): string {
  return translate(REDIS_WORDS, lang, redisTrouble(error));
}

/**
 * When to press or ask again: a Sentinel failover (Redis unreachable,
 * read-only, not answering) is over in seconds; a full Redis waits for someone to free
 * memory.
 */
export function tryAgainWords(error: unknown, lang: Lang = 'en'): string {
  return translate(REDIS_WORDS, lang, redisTrouble(error) === 'full' ? 'againMinute' : 'againSeconds');
}

/**
 * The time an answer's Redis calls get before the person is told to try again: Slack
 * waits 3 s for an ack and Teams a few seconds for an invoke's response; the rest of the
 * window is the request's own (signature, parsing, the answer's way back).
 */
export const ANSWER_DEADLINE_MS = 2_000;

/**
 * The time an Approve or Undo press's Redis calls get where the platform acked the press
 * before it is decided (Slack: the ack is sent first, the answer comes as the message's
 * edit or a private reply): nobody's HTTP request waits on it, so it covers a Sentinel
 * failover under way (the sentinels' down-after-milliseconds and their election: about
 * 2 s at down-after 500 ms on loopback) rather than refusing the press.
 */
export const ACKED_PRESS_DEADLINE_MS = 6_000;
