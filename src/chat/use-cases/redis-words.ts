/**
 * What an answer says about Redis when it did not take a call (issue 53.6): the
 * trouble as src/queue/deadline.ts classified it, in the words every answer uses. A
 * full Redis is not "unreachable", and one that did not answer in time is "did not
 * answer", so whoever reads it knows what to look at.
 */
import { redisTrouble, type RedisTrouble } from '../../queue/deadline.js';

const WORDS: Record<RedisTrouble, string> = {
  stalled: 'Redis did not answer in time',
  full: 'Redis is full and refuses writes (out of memory)',
  'read-only': 'Redis is read-only for now (a failover is under way)',
  unreachable: 'Redis is unreachable',
};

/** "Redis is full and refuses writes (out of memory)": what the error of a Redis call says about Redis. */
export function redisTroubleWords(error: unknown): string {
  return WORDS[redisTrouble(error)];
}

/**
 * When to press or ask again (issue 67.9): a Sentinel failover (Redis unreachable,
 * read-only, not answering) is over in seconds; a full Redis waits for someone to free
 * memory.
 */
export function tryAgainWords(error: unknown): string {
  return redisTrouble(error) === 'full' ? 'in a minute' : 'in a few seconds';
}

/**
 * The time an answer's Redis calls get before the person is told to try again: Slack
 * waits 3 s for an ack and Teams a few seconds for an invoke's response; the rest of the
 * window is the request's own (signature, parsing, the answer's way back).
 */
export const ANSWER_DEADLINE_MS = 2_000;
