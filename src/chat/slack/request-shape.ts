/**
 * What a request to POST /slack/events must be before Bolt sees it: one of the requests
 * this app is set up for (slack/manifest.yaml: the slash command and interactivity, no
 * event subscriptions), in the shape Slack sends. Bolt parses the body and reads it
 * unguarded: a body that parses to `null` (`payload=null`) threw in a promise nobody
 * awaits and ended the process; `user: null`, `actions` that is not a list or a command
 * without `text` failed inside Bolt or a listener (500s, and requests held for 3 s). A
 * signed body is as hostile as any other here: the signing secret may be shared with
 * another app (docs/configuration.md, SLACK_APP_ID).
 *
 * The body is parsed exactly as Bolt parses it (HTTPModuleFunctions.parseHTTPRequestBody);
 * one it cannot parse is left to Bolt, which answers 400.
 */
import type { IncomingMessage } from 'node:http';
import { HTTPModuleFunctions, isValidSlackRequest } from '@slack/bolt';
import { z } from 'zod';

const id = z.string().min(1);

/** The slash command's form (querystring: a repeated field is a list, refused). */
const slashCommand = z
  .object({
    command: id,
    text: z.string(),
    user_id: id,
    channel_id: id,
    response_url: id,
    team_id: z.string().optional(),
  })
  .loose();

/** A button press on one of the app's messages: what Bolt and the listeners read of it. */
const blockActions = z
  .object({
    type: z.literal('block_actions'),
    user: z.object({ id }).loose(),
    actions: z.array(z.object({ action_id: z.string(), type: z.string() }).loose()).min(1),
    channel: z.object({ id: z.string() }).loose().optional(),
    // Slack sends it with every press (the message, or the view, it came from); the
    // listeners read the channel from it where `channel` is absent.
    container: z.object({}).loose(),
    team: z.object({ id: z.string() }).loose().nullable().optional(),
  })
  .loose();

/** Slack's own checks, answered by Bolt. */
const sslCheck = z.object({ ssl_check: z.literal('1') }).loose();
const urlVerification = z.object({ type: z.literal('url_verification'), challenge: z.string() }).loose();

/**
 * Why the body of a signed `req` (its `rawBody`, read by the body gate) is not a request
 * this app serves, in a few words, or undefined when it is one, when Bolt cannot parse it
 * (Bolt answers 400), or when it is not signed (Bolt answers 401).
 */
export function slackBodyProblem(
  req: IncomingMessage & { rawBody: Buffer },
  signingSecret: string,
): string | undefined {
  const problem = shapeProblem(req);
  // Only a signed request is answered on its shape: an unsigned one goes on to Bolt,
  // which refuses it with a bare 401 whatever it holds (and the signature is computed
  // here only for a body already found wrong, never on the path that acks).
  return problem !== undefined && signed(req, signingSecret) ? problem : undefined;
}

function signed(req: IncomingMessage & { rawBody: Buffer }, signingSecret: string): boolean {
  const signature = req.headers['x-slack-signature'];
  const timestamp = Number(req.headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !Number.isFinite(timestamp)) return false;
  return isValidSlackRequest({
    signingSecret,
    body: req.rawBody.toString(),
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
  });
}

function shapeProblem(req: IncomingMessage & { rawBody: Buffer }): string | undefined {
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(
      req as unknown as Parameters<typeof HTTPModuleFunctions.parseHTTPRequestBody>[0],
    );
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `the body is ${body === null ? 'null' : Array.isArray(body) ? 'a list' : typeof body}, not an object`;
  const fields = body as { type?: unknown; ssl_check?: unknown };
  // Interactive payloads and Slack's checks say what they are; a slash command's form does not.
  const schema =
    fields.ssl_check !== undefined
      ? sslCheck
      : fields.type === 'url_verification'
        ? urlVerification
        : fields.type === 'block_actions'
          ? blockActions
          : fields.type === undefined
            ? slashCommand
            : undefined;
  if (!schema) return `a ${String(fields.type).slice(0, 40)} request, which this app does not serve`;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || 'the body'}: ${issue?.message ?? 'not the shape Slack sends'}`;
}
