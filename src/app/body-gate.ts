import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { peerKey, refusalLog } from './connection-guard.js';
import { describeRequest, plain, type Handler } from './http-server.js';

/**
 * Largest body accepted on POST /slack/events before the signature is checked.
 * Slack's payloads (slash commands, block_actions with a message's blocks, view
 * submissions) are tens of KB at most; 64 KiB leaves room and caps what an
 * unauthenticated client can make the app hold. Alertmanager has its own limit
 * (ROLLOUT_DOCTOR_ALERT_MAX_BYTES, enforced in routes/alertmanager.ts).
 */
export const SLACK_MAX_BODY_BYTES = 64 * 1024;

/**
 * Unauthenticated Slack bodies read at the same time. With the body limit this bounds
 * their memory to 64 x 64 KiB = 4 MiB whatever the clients do. At the cap a new body
 * takes the place of the one read longest (see bodyGate), so the cap bounds
 * memory without letting slow clients keep Slack out.
 */
export const MAX_CONCURRENT_SLACK_BODIES = 64;

/**
 * Bodies one peer (an IPv4 address, an IPv6 /64) may have in reading; its next one
 * takes the place of its oldest, so one address cannot push out other peers' bodies.
 * Behind a proxy every request is the proxy's, and this decides nothing that the
 * global cap does not (see docs/operations.md, "Behind a proxy or ingress").
 */
const MAX_SLACK_BODIES_PER_PEER = 8;

/**
 * Time from the headers to the last byte of the body. Slack sends the body with the
 * headers and gives up on an answer after 3 seconds
 * (Bolt docs, https://slack.dev/bolt-js/concepts/acknowledge), so a body
 * still arriving after 2 s is either not Slack or too late to answer in time.
 */
const SLACK_BODY_DEADLINE_MS = 2_000;

/**
 * Least average rate of a body still being read after SLACK_BODY_RATE_GRACE_MS: a
 * client that trickles gives its slot back after the grace instead of at the deadline,
 * and one that wants the whole deadline must send 16 KiB for it. The grace covers a
 * lost packet's retransmission (Linux's minimum RTO is 200 ms) for a genuine body.
 */
const SLACK_BODY_MIN_BYTES_PER_SECOND = 8 * 1024;
const SLACK_BODY_RATE_GRACE_MS = 1_000;

export interface SlackBodyLimits {
  maxBytes: number;
  maxConcurrent: number;
  maxPerPeer: number;
  deadlineMs: number;
  minBytesPerSecond: number;
  rateGraceMs: number;
}

const DEFAULT_SLACK_BODY_LIMITS: SlackBodyLimits = {
  maxBytes: SLACK_MAX_BODY_BYTES,
  maxConcurrent: MAX_CONCURRENT_SLACK_BODIES,
  maxPerPeer: MAX_SLACK_BODIES_PER_PEER,
  deadlineMs: SLACK_BODY_DEADLINE_MS,
  minBytesPerSecond: SLACK_BODY_MIN_BYTES_PER_SECOND,
  rateGraceMs: SLACK_BODY_RATE_GRACE_MS,
};

export interface SlackBodyGate {
  /** Reads a Slack body within the limits, then hands the request on with `rawBody` set. */
  handler(next: Handler): Handler;
  /** Bodies being read now (for tests and metrics). */
  inFlight(): number;
}

/** One body being read: `cut` ends it with an answer, once. */
interface Reading {
  /** performance.now() when its headers were in. */
  started: number;
  bytes(): number;
  cut(status: 408 | 413, reason: string): void;
}

/**
 * Reads POST /slack/events bodies itself, up to `maxBytes`, before Bolt sees them:
 * a declared Content-Length over the limit is refused with 413 before any byte is
 * read, a body (chunked or not) that grows past it is cut off at once. A body must
 * arrive within `deadlineMs` of the headers, and after `rateGraceMs` at no less than
 * `minBytesPerSecond` on average (408 otherwise; checked every quarter of the grace,
 * at most 250 ms). At most `maxConcurrent` bodies are
 * read at a time and `maxPerPeer` per peer: past either, the new body takes the place
 * of the oldest one (408), since a genuine body is never the oldest for long, so
 * however many slow bodies arrive, from one address or many, a signed request still
 * gets read. Bolt then finds `rawBody` already set and checks the signature on it
 * without reading the stream again.
 */
export function bodyGate(logger: Logger, limits: SlackBodyLimits = DEFAULT_SLACK_BODY_LIMITS): SlackBodyGate {
  // Insertion order is age order: the first entry is the oldest body.
  const reading = new Set<Reading>();
  const byPeer = new Map<string, Set<Reading>>();
  const refused = refusalLog(logger);
  const refuse = (req: IncomingMessage, res: ServerResponse, status: 408 | 413, reason: string): void => {
    refused(reason, { ...describeRequest(req), status }, 'slack request refused');
    // Not read further: connection-guard.ts closes the connection once this is answered.
    req.pause();
    plain(res, status, { connection: 'close' });
  };
  const oldest = (set: Set<Reading>): Reading | undefined => set.values().next().value;
  // One sweep over the bodies being read, on an interval that runs only while there
  // are any, rather than a timer per request: a genuine body is read within the turn
  // of the loop that brought its headers, and Slack's acks are the hot path. The cut
  // waits for setImmediate: after a busy turn of the loop the interval may fire late,
  // and a body already in its socket's buffer is then read first (poll phase, 'end'
  // on nextTick) instead of being cut for the loop's delay.
  const firstCheck = Math.min(limits.rateGraceMs, limits.deadlineMs);
  const sweepMs = Math.min(250, Math.max(10, Math.floor(firstCheck / 4)));
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = performance.now();
    for (const body of [...reading]) {
      const elapsed = now - body.started;
      // Age order: every later body is younger still.
      if (elapsed < firstCheck) break;
      if (elapsed >= limits.deadlineMs) body.cut(408, 'body not sent within the deadline');
      else if ((body.bytes() / limits.minBytesPerSecond) * 1000 < elapsed)
        body.cut(408, 'body sent below the minimum rate');
    }
    if (reading.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  return {
    inFlight: () => reading.size,
    handler: (next) => (req, res) => {
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > limits.maxBytes) {
        refuse(req, res, 413, 'declared body over the limit');
        return;
      }
      const peer = peerKey(req.socket.remoteAddress);
      const own = byPeer.get(peer) ?? new Set<Reading>();
      if (own.size >= limits.maxPerPeer) oldest(own)?.cut(408, 'peer has too many bodies in reading');
      if (reading.size >= limits.maxConcurrent) oldest(reading)?.cut(408, 'too many bodies in reading');

      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        reading.delete(entry);
        own.delete(entry);
        if (own.size === 0 && byPeer.get(peer) === own) byPeer.delete(peer);
        return true;
      };
      const entry: Reading = {
        started: performance.now(),
        bytes: () => size,
        cut: (status, reason) => {
          if (!finish()) return;
          chunks.length = 0;
          refuse(req, res, status, reason);
        },
      };
      reading.add(entry);
      own.add(entry);
      byPeer.set(peer, own);
      sweeper ??= setInterval(() => setImmediate(sweep), sweepMs).unref();

      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > limits.maxBytes) {
          entry.cut(413, 'body over the limit');
          return;
        }
        chunks.push(chunk);
      });
      req.once('close', () => finish());
      req.once('end', () => {
        if (!finish()) return;
        Object.assign(req, { rawBody: Buffer.concat(chunks, size) });
        const result = next(req, res);
        if (result instanceof Promise) result.catch(() => undefined);
      });
    },
  };
}
