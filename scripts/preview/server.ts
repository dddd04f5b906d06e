/**
 * The Block Kit preview server, on 127.0.0.1 only. It serves a page that shows what
 * the app posted to the Slack stand-in as the Slack client would (scripts/preview/
 * view.ts, rendered by client.js with DOM calls only), pushes every change to the
 * page (server-sent events), and turns the page's clicks and slash commands into the
 * requests Slack would send: a `block_actions` payload echoing the message, or a
 * slash-command form, signed v0 with the app's signing secret and posted to the
 * app's /slack/events. The app cannot tell it from Slack. With `teams`, a second tab
 * shows the app's Teams side, drawn by Microsoft's `adaptivecards` (served from
 * node_modules) and driven through the Teams stand-in (scripts/preview/teams.ts).
 *
 * The page is someone's browser: requests must name this server as Host (no DNS
 * rebinding) and, for writes, as Origin with a JSON body (no other web page can post
 * here), and the page may load nothing but its own script and style (CSP).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  blockActionBody,
  blockActionPayload,
  signedHeaders,
  slashCommandBody,
  type Button,
} from '../../test/support/slack-sign.js';
import type { SlackStandin, StoredMessage } from '../../test/support/slack-standin.js';
import {
  ADAPTIVECARDS_FILES,
  previewTeams,
  teamsExecuteSchema,
  teamsMessageSchema,
  type PreviewTeamsOptions,
  type TeamsState,
} from './teams.js';
import { buildView, ephemeralCalls, type Ephemeral, type ViewChannel } from './view.js';

type Json = Record<string, unknown>;

export interface PreviewUser {
  id: string;
  label: string;
  /** The same person in Teams (29:…), when the preview shows Teams too. */
  teams?: string;
}

export interface PreviewOptions {
  slack: SlackStandin;
  /** The app's `/slack/events`. */
  eventsUrl: string;
  signingSecret: string;
  /** Channels shown first, id → '#name'; the first is where commands go by default. */
  channels: Record<string, string>;
  /** Who the page may act as; the first is the default. */
  users: PreviewUser[];
  /** 0 (default) picks a free port. */
  port?: number;
  /** Teams too: the stand-in the app posts to, drawn with Microsoft's renderer (scripts/preview/teams.ts). */
  teams?: PreviewTeamsOptions;
}

export interface PreviewState {
  ready: boolean;
  status: string[];
  users: PreviewUser[];
  channels: { id: string; name: string }[];
  view: ViewChannel[];
  teams?: TeamsState;
}

export interface PreviewServer {
  url: string;
  /** The line under the page title: what the cluster is doing. */
  setStatus(lines: string[], ready: boolean): void;
  /** The state the page shows (tests read it too). */
  state(): PreviewState;
  close(): Promise<void>;
}

/** Slack gives the app 3 seconds to acknowledge; so does the preview. */
const SLACK_TIMEOUT_MS = 3_000;
/** A response_url takes 5 posts within 30 minutes. */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_TTL_MS = 30 * 60_000;

const commandSchema = z.object({
  channel: z.string().regex(/^[A-Z0-9]{1,20}$/),
  user: z.string().regex(/^[UW][A-Z0-9]{1,20}$/),
  text: z.string().max(4_000),
});
const clickSchema = z.object({
  channel: z.string().min(1).max(40),
  ts: z.string().regex(/^\d+\.\d+$/),
  actionId: z.string().min(1).max(255),
  blockId: z.string().min(1).max(255),
  user: z.string().regex(/^[UW][A-Z0-9]{1,20}$/),
});

const STATIC = new URL('./', import.meta.url);

/** Buttons of a message: actions elements and section accessories, each with Slack's block_id. */
function findButton(message: StoredMessage, actionId: string, blockId: string): Button | undefined {
  for (const [i, block] of message.blocks.entries()) {
    const id = typeof block.block_id === 'string' ? block.block_id : `b${i}`;
    if (id !== blockId) continue;
    const candidates =
      block.type === 'actions' && Array.isArray(block.elements)
        ? (block.elements as Json[])
        : block.type === 'section' && typeof block.accessory === 'object' && block.accessory !== null
          ? [block.accessory as Json]
          : [];
    const found = candidates.find((e) => e.type === 'button' && e.action_id === actionId);
    if (found) return { ...(found as unknown as Omit<Button, 'blockId'>), blockId: id };
  }
  return undefined;
}

async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, {
    'content-type': type === 'application/json' ? 'application/json; charset=utf-8' : type,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rollout-doctor · Block Kit and Adaptive Cards preview</title>
<link rel="stylesheet" href="/adaptivecards.css">
<link rel="stylesheet" href="/style.css">
<script src="/adaptivecards.js" defer></script>
<script src="/client.js" defer></script>
<script src="/teams-client.js" defer></script>
</head>
<body data-cluster="starting" data-tab="slack">
<header>
  <h1>rollout-doctor <span class="sub">Block Kit preview · loopback only</span></h1>
  <div id="status" role="status">starting…</div>
  <label class="acting">Acting as <select id="user"></select></label>
  <nav id="tabs" role="tablist" aria-label="Chat">
    <button type="button" role="tab" id="tab-slack" data-tab="slack" aria-selected="true">Slack · Block Kit</button>
    <button type="button" role="tab" id="tab-teams" data-tab="teams" aria-selected="false" hidden>Teams · Adaptive Cards</button>
  </nav>
</header>
<main id="channels"></main>
<main id="teams" aria-label="Microsoft Teams"></main>
<form id="teams-composer" autocomplete="off">
  <select id="teams-channel" aria-label="Teams channel"></select>
  <input id="teams-text" name="text" aria-label="Teams post" placeholder="@rollout-doctor diagnose deployment/NAME -n NAMESPACE" spellcheck="false">
  <button type="submit" id="teams-send">Post</button>
  <div id="teams-note" role="status"></div>
</form>
<form id="composer" autocomplete="off">
  <select id="channel" aria-label="Channel"></select>
  <input id="command" name="command" aria-label="Slash command" placeholder="/rollout-doctor diagnose deployment/NAME -n NAMESPACE" spellcheck="false">
  <button type="submit" id="send">Send</button>
  <div id="composer-note" role="status"></div>
</form>
<div id="confirm" class="overlay" hidden>
  <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title">
    <h2 id="confirm-title"></h2>
    <div id="confirm-text" class="dialog-text"></div>
    <div class="dialog-buttons">
      <button type="button" id="confirm-deny" class="btn"></button>
      <button type="button" id="confirm-ok" class="btn primary"></button>
    </div>
  </div>
</div>
</body>
</html>
`;

/** Starts the preview server on 127.0.0.1. */
export async function startPreviewServer(options: PreviewOptions): Promise<PreviewServer> {
  const [clientJs, styleCss, teamsJs, cardsJs, cardsCss] = await Promise.all([
    readFile(new URL('client.js', STATIC), 'utf8'),
    readFile(new URL('style.css', STATIC), 'utf8'),
    readFile(new URL('teams-client.js', STATIC), 'utf8'),
    readFile(ADAPTIVECARDS_FILES.js, 'utf8'),
    readFile(ADAPTIVECARDS_FILES.css, 'utf8'),
  ]);
  const teams = options.teams ? previewTeams(options.teams) : undefined;
  const { slack } = options;
  const local: Ephemeral[] = [];
  const responseUrls = new Map<string, { channel: string; user: string; uses: number; until: number }>();
  let status: string[] = ['starting…'];
  let ready = false;
  let statusVersion = 0;
  let origin = '';
  const userName = (id: string): string => {
    const user = options.users.find((u) => u.id === id);
    return user ? `@${user.id} (${user.label})` : `@${id}`;
  };

  const state = (): PreviewState => ({
    ready,
    status,
    users: options.users,
    channels: Object.entries(options.channels).map(([id, name]) => ({ id, name })),
    view: buildView({
      calls: slack.calls,
      messages: slack.messages,
      ephemerals: [...ephemeralCalls(slack.calls), ...local],
      channels: options.channels,
      userName,
    }),
    ...(teams ? { teams: teams.state() } : {}),
  });

  const addLocal = (e: Omit<Ephemeral, 'id' | 'at'>): void => {
    local.push({ ...e, id: `local-${local.length}`, at: Date.now() });
  };

  /** An app answer (acknowledgement or response_url post) as the ephemeral Slack would show. */
  const answer = (raw: string, channel: string, user: string, via: string): void => {
    if (raw.trim() === '') return;
    let body: Json;
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      addLocal({ channel, user, text: raw, blocks: [], via });
      return;
    }
    if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) return;
    addLocal({
      channel,
      user,
      text: typeof body.text === 'string' ? body.text : '',
      blocks: Array.isArray(body.blocks) ? (body.blocks as Json[]) : [],
      via: body.response_type === 'in_channel' ? `${via} (in_channel, shown here to the sender only)` : via,
    });
  };

  const postToApp = async (rawBody: string): Promise<{ status: number; body: string } | 'timeout'> => {
    try {
      const res = await fetch(options.eventsUrl, {
        method: 'POST',
        headers: signedHeaders(options.signingSecret, rawBody),
        body: rawBody,
        signal: AbortSignal.timeout(SLACK_TIMEOUT_MS),
      });
      return { status: res.status, body: await res.text() };
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
        return 'timeout';
      throw error;
    }
  };

  const newResponseUrl = (channel: string, user: string): string => {
    const id = randomBytes(16).toString('hex');
    responseUrls.set(id, { channel, user, uses: 0, until: Date.now() + RESPONSE_URL_TTL_MS });
    return `${origin}/slack/response/${id}`;
  };

  const command = async (input: z.infer<typeof commandSchema>): Promise<Json> => {
    const match = /^\s*(\/[^\s]+)\s*([\s\S]*)$/.exec(input.text);
    if (!match) return { ok: false, error: 'Type a slash command, for example /rollout-doctor help.' };
    const [, name = '', text = ''] = match;
    if (name !== '/rollout-doctor') {
      addLocal({
        channel: input.channel,
        user: input.user,
        text: `\`${name}\` is not a valid command. In this preview only \`/rollout-doctor\` is installed.`,
        blocks: [],
        via: 'Slack',
      });
      return { ok: true, status: 0 };
    }
    const body = slashCommandBody({
      text: text.trim(),
      user_id: input.user,
      channel_id: input.channel,
      response_url: newResponseUrl(input.channel, input.user),
    });
    const result = await postToApp(body);
    if (result === 'timeout' || result.status !== 200) {
      const why = result === 'timeout' ? 'operation_timeout' : `http_${result.status}`;
      addLocal({
        channel: input.channel,
        user: input.user,
        text: `\`/rollout-doctor\` failed with the error "${why}"`,
        blocks: [],
        via: 'Slack',
      });
      return { ok: false, status: result === 'timeout' ? 0 : result.status, error: why };
    }
    answer(result.body, input.channel, input.user, 'command acknowledgement');
    return { ok: true, status: result.status };
  };

  const click = async (input: z.infer<typeof clickSchema>): Promise<Json> => {
    const message = slack.messages.get(`${input.channel}/${input.ts}`);
    if (!message) return { ok: false, error: 'that message is gone (deleted or never posted)' };
    const button = findButton(message, input.actionId, input.blockId);
    if (!button) return { ok: false, error: 'that button is no longer in the message' };
    const payload = blockActionPayload(message, button, input.user);
    payload.response_url = newResponseUrl(input.channel, input.user);
    const result = await postToApp(blockActionBody(payload));
    if (result === 'timeout' || result.status !== 200) {
      const why =
        result === 'timeout' ? 'the app did not answer within 3 s' : `the app answered HTTP ${result.status}`;
      addLocal({
        channel: input.channel,
        user: input.user,
        text: `Click not delivered: ${why}.`,
        blocks: [],
        via: 'Slack',
      });
      return { ok: false, status: result === 'timeout' ? 0 : result.status, error: why };
    }
    return { ok: true, status: result.status };
  };

  // Server-sent events: one timer compares a cheap stamp and pushes the whole state on change.
  const streams = new Set<ServerResponse>();
  let lastStamp = '';
  const stamp = (): string =>
    `${slack.calls.length}/${local.length}/${statusVersion}/${teams?.stamp() ?? ''}`;
  const push = (res: ServerResponse): void => {
    res.write(`data: ${JSON.stringify(state())}\n\n`);
  };
  const timer = setInterval(() => {
    const now = stamp();
    if (now === lastStamp || streams.size === 0) return;
    lastStamp = now;
    for (const res of streams) push(res);
  }, 100);
  const keepAlive = setInterval(() => {
    for (const res of streams) res.write(': keep-alive\n\n');
  }, 15_000);

  const server = createServer((req, res) => {
    void (async () => {
      const { port } = server.address() as AddressInfo;
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      if (!hosts.includes(req.headers.host ?? '')) return send(res, 421, { ok: false, error: 'wrong host' });
      const url = new URL(req.url ?? '/', origin);
      const path = url.pathname;
      if (req.method === 'GET') {
        if (path === '/') {
          res.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy':
              "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            'x-content-type-options': 'nosniff',
            'referrer-policy': 'no-referrer',
            'cache-control': 'no-store',
          });
          res.end(PAGE);
          return;
        }
        if (path === '/client.js') return send(res, 200, clientJs, 'text/javascript; charset=utf-8');
        if (path === '/style.css') return send(res, 200, styleCss, 'text/css; charset=utf-8');
        if (path === '/teams-client.js') return send(res, 200, teamsJs, 'text/javascript; charset=utf-8');
        // Microsoft's Adaptive Cards renderer, from node_modules (no CDN).
        if (path === '/adaptivecards.js') return send(res, 200, cardsJs, 'text/javascript; charset=utf-8');
        if (path === '/adaptivecards.css') return send(res, 200, cardsCss, 'text/css; charset=utf-8');
        if (path === '/api/state') return send(res, 200, state());
        if (path === '/api/events') {
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          });
          streams.add(res);
          req.on('close', () => streams.delete(res));
          push(res);
          return;
        }
        return send(res, 404, { ok: false, error: 'not found' });
      }
      if (req.method !== 'POST') return send(res, 405, { ok: false, error: 'method not allowed' });

      // The app's respond(): only to a response_url we handed out, at most 5 times, for 30 minutes.
      const response = /^\/slack\/response\/([0-9a-f]{32})$/.exec(path);
      if (response) {
        const entry = responseUrls.get(response[1] ?? '');
        if (!entry || entry.uses >= RESPONSE_URL_USES || Date.now() > entry.until)
          return send(res, 404, 'expired_url', 'text/plain');
        entry.uses += 1;
        answer(await readBody(req), entry.channel, entry.user, 'response_url');
        return send(res, 200, 'ok', 'text/plain');
      }

      // The page's own writes: same origin, JSON (a cross-site form cannot send either).
      if (!hosts.map((h) => `http://${h}`).includes(req.headers.origin ?? ''))
        return send(res, 403, { ok: false, error: 'cross-origin request refused' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return send(res, 415, { ok: false, error: 'JSON only' });
      let json: unknown;
      try {
        json = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { ok: false, error: 'bad JSON' });
      }
      if (path === '/api/command') {
        const parsed = commandSchema.safeParse(json);
        if (!parsed.success) return send(res, 400, { ok: false, error: 'bad command request' });
        return send(res, 200, await command(parsed.data));
      }
      if (path === '/api/click') {
        const parsed = clickSchema.safeParse(json);
        if (!parsed.success) return send(res, 400, { ok: false, error: 'bad click request' });
        return send(res, 200, await click(parsed.data));
      }
      if (path === '/api/teams/message' && teams) {
        const parsed = teamsMessageSchema.safeParse(json);
        if (!parsed.success) return send(res, 400, { ok: false, error: 'bad Teams message request' });
        return send(res, 200, await teams.message(parsed.data));
      }
      if (path === '/api/teams/execute' && teams) {
        const parsed = teamsExecuteSchema.safeParse(json);
        if (!parsed.success) return send(res, 400, { ok: false, error: 'bad Teams action request' });
        return send(res, 200, await teams.execute(parsed.data));
      }
      return send(res, 404, { ok: false, error: 'not found' });
    })().catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { ok: false, error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/`,
    setStatus(lines, isReady) {
      status = lines;
      ready = isReady;
      statusVersion += 1;
    },
    state,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        clearInterval(keepAlive);
        for (const res of streams) res.end();
        streams.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
