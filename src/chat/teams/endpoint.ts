import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../logger.js';
import { parseActivity, tenantOf, type CardActionInvoke, type MessageActivity } from './activity.js';
import type { BotAuthenticator, VerifiedToken } from './bot-auth.js';

/** The messaging endpoint's path (the bot registration's "Messaging endpoint"). */
export const TEAMS_MESSAGES_PATH = '/api/messages';

/** A node:http handler (src/app/http-server.ts's Handler, restated to keep this layer below the app). */
type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The body of an `adaptiveCard/action` invoke's answer (Universal Actions). */
export type CardActionResponse =
  | { statusCode: 200; type: 'application/vnd.microsoft.card.adaptive'; value: Record<string, unknown> }
  | { statusCode: 200; type: 'application/vnd.microsoft.activity.message'; value: string }
  | {
      statusCode: 400 | 401 | 403 | 500;
      type: 'application/vnd.microsoft.error';
      value: { code: string; message: string };
    };

export interface TeamsActivityHandlers {
  /** A message to the bot; resolves once its work is queued (replies go through the connector). */
  message(activity: MessageActivity, token: VerifiedToken): Promise<void>;
  /** An Action.Execute press or card refresh; answered in the HTTP response, within seconds. */
  cardAction(activity: CardActionInvoke, token: VerifiedToken): Promise<CardActionResponse>;
}

interface TeamsEndpointOptions {
  auth: BotAuthenticator;
  handlers: TeamsActivityHandlers;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /**
   * Reads the body within limits and hands the request on with `rawBody` set (the
   * app passes its body gate, src/app/body-gate.ts, with the Teams limits).
   */
  readBody: (next: RequestHandler) => RequestHandler;
}

function answer(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status, { 'cache-control': 'no-store', 'content-length': '0' });
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/**
 * `POST /api/messages`. Order: the bearer token on the headers alone (401, or 503
 * when the signing keys cannot be read, so the connector retries), the body within
 * limits, the activity's schema (400), then the token against the activity
 * (serviceUrl 401, endorsement and tenant 403), then the handler. A refusal says
 * nothing about why to the caller; the log line does.
 */
export function teamsEndpoint(options: TeamsEndpointOptions): RequestHandler {
  const { auth, handlers, logger } = options;

  const afterBody =
    (token: VerifiedToken): RequestHandler =>
    async (req, res) => {
      const raw = (req as IncomingMessage & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
      const parsed = parseActivity(raw.toString('utf8'));
      if (!parsed.ok) {
        logger.warn({ reason: parsed.reason }, 'teams activity refused');
        answer(res, 400);
        return;
      }
      const { activity } = parsed.parsed;
      const checked = auth.checkActivity(token, {
        serviceUrl: activity.serviceUrl,
        channelId: activity.channelId,
        tenantId: tenantOf(activity),
      });
      if (!checked.ok) {
        logger.warn({ reason: checked.reason, status: checked.status }, 'teams activity refused');
        answer(res, checked.status);
        return;
      }
      try {
        if (parsed.parsed.kind === 'message') {
          await handlers.message(parsed.parsed.activity, token);
          answer(res, 200);
        } else if (parsed.parsed.kind === 'card-action') {
          answer(res, 200, await handlers.cardAction(parsed.parsed.activity, token));
        } else {
          logger.debug({ type: activity.type }, 'teams activity ignored');
          answer(res, 200);
        }
      } catch (error) {
        // The body gate drops a rejection; answer here so the connector retries.
        logger.error(
          { err: error instanceof Error ? error : new Error(String(error)) },
          'teams activity failed',
        );
        answer(res, 500);
      }
    };

  return async (req, res) => {
    const verified = await auth.verifyHeader(req.headers.authorization);
    if (!verified.ok) {
      logger.warn({ reason: verified.reason, status: verified.status }, 'teams request refused');
      // The body is not read: connection-guard.ts closes a connection answered early.
      req.pause();
      res.setHeader('connection', 'close');
      if (verified.status === 401) res.setHeader('www-authenticate', 'Bearer');
      answer(res, verified.status);
      return;
    }
    return options.readBody(afterBody(verified.token))(req, res);
  };
}
