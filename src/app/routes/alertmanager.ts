import { redisTrouble, withDeadline } from '../../queue/deadline.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_MAX_ALERT_BODY_BYTES,
  parseAlertmanagerPayload,
  type AlertmanagerPayload,
} from '../alerts/payload.js';
import type { IntakeSummary } from '../alerts/intake.js';

/** Bolt's CustomRoute shape (HTTPReceiver `customRoutes`), kept structural so tests can drive it with node:http. */
export interface AlertmanagerRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** The part of a pino logger the route uses; never given the token or the raw body. */
export interface RouteLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface AlertmanagerRouteOptions {
  /** Expected bearer token (ALERTMANAGER_TOKEN). */
  token: string;
  /** Queues the work for one valid notification; rejects when Redis is unavailable. */
  intake: (payload: AlertmanagerPayload) => Promise<IntakeSummary>;
  logger: RouteLogger;
  maxBodyBytes?: number;
  /** How long the intake's Redis calls may take before the answer is 503 (default ALERT_INTAKE_DEADLINE_MS). */
  deadlineMs?: number;
}

/**
 * The intake answers within this, or 503: a Redis that stalls must not hold
 * Alertmanager's request until its own timeout. Alertmanager sends the notification
 * again; what the stalled intake sent meanwhile is deduplicated on the way back (a
 * thread per workload, a diagnosis per workload per window).
 */
const ALERT_INTAKE_DEADLINE_MS = 5_000;

export const ALERTMANAGER_PATH = '/alerts/alertmanager';

/**
 * Builds the `POST /alerts/alertmanager` custom route. Order of checks: bearer token
 * (401), body size (413), JSON and schema (400 with the reason; nothing queued), then
 * the work is queued and the answer is 200. A queueing failure, or an intake that does
 * not finish within its deadline (a stalled Redis), answers 503 naming what Redis did
 * (`redis`: stalled, full, read-only, unreachable) so Alertmanager retries (it retries
 * on 5xx, not on 4xx).
 *
 * @example new App({ ..., customRoutes: [createAlertmanagerRoute({ token, intake, logger })] })
 */
export function createAlertmanagerRoute(options: AlertmanagerRouteOptions): AlertmanagerRoute {
  if (options.token.length === 0) throw new Error('the Alertmanager route needs a non-empty token');
  const expected = digest(options.token);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_ALERT_BODY_BYTES;
  const { logger } = options;

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hasToken(req.headers.authorization, expected)) {
      req.resume();
      res.setHeader('WWW-Authenticate', 'Bearer');
      reply(res, 401, { error: 'missing or wrong bearer token' });
      return;
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > limit) {
      tooLarge(req, res, limit);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        tooLarge(req, res, limit);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      refused = true;
    });
    req.on('end', () => {
      if (refused) return;
      const parsed = parseAlertmanagerPayload(Buffer.concat(chunks).toString('utf8'));
      if (!parsed.ok) {
        logger.warn({ reason: parsed.reason }, 'alertmanager webhook refused');
        reply(res, 400, { error: parsed.reason });
        return;
      }
      withDeadline(
        options.intake(parsed.payload),
        'alert intake',
        options.deadlineMs ?? ALERT_INTAKE_DEADLINE_MS,
      ).then(
        (summary) => {
          logger.info(
            { receiver: parsed.payload.receiver, status: parsed.payload.status, ...summary },
            'alerts queued',
          );
          reply(res, 200, { status: 'accepted', ...summary });
        },
        (error: unknown) => {
          logger.error(
            { err: error instanceof Error ? error.message : String(error), redis: redisTrouble(error) },
            'alerts not queued',
          );
          reply(res, 503, { error: 'could not queue the alerts; retry later', redis: redisTrouble(error) });
        },
      );
    });
  };
  return { path: ALERTMANAGER_PATH, method: 'POST', handler };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Constant-time: both sides are hashed to equal length before timingSafeEqual. */
function hasToken(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const given = match?.[1];
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), expected);
}

function tooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  // Stop reading and close the connection once answered, so a huge body is not drained.
  req.pause();
  res.setHeader('Connection', 'close');
  res.on('finish', () => req.socket.destroy());
  reply(res, 413, { error: `body larger than ${limit} bytes` });
}

function reply(res: ServerResponse, status: number, body: object): void {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
