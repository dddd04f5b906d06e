import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/** One Web API call the stand-in received. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  status: number;
  response: Record<string, unknown>;
  at: number;
}

/** A message as the stand-in holds it after posts and updates. */
export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: Record<string, unknown>[];
  updates: number;
}

/** A file shared with files.uploadV2 (getUploadURLExternal, the upload, completeUploadExternal). */
export interface StoredFile {
  id: string;
  name: string;
  title: string;
  /** The uploaded bytes as UTF-8. */
  content: string;
  channel: string;
  threadTs?: string;
  initialComment?: string;
}

export interface SlackStandin {
  /** Base URL for SLACK_API_URL (ends with /api/). */
  apiUrl: string;
  calls: SlackCall[];
  messages: Map<string, StoredMessage>;
  /** Files completed with files.completeUploadExternal, in order. */
  files: StoredFile[];
  /** Answer the next `count` calls of `method` (or any, '*') with 429 and Retry-After, or 500. */
  failNext(method: string, count: number, how: { status: 429; retryAfter: number } | { status: 500 }): void;
  /** Members returned by usergroups.users.list. */
  setUsergroup(id: string, users: string[]): void;
  callsOf(method: string): SlackCall[];
  /**
   * The first chat.update of `message` whose text matches `pattern`. A message's state
   * line moves on (approved, then applied, then rolled out) as fast as the app can edit
   * it: what it reads now may be past the state a test looks for.
   */
  editOf(message: { channel: string; ts: string }, pattern: RegExp): SlackCall | undefined;
  /** Waits until `predicate` holds over the recorded calls. */
  waitFor<T>(predicate: (s: SlackStandin) => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  id: 255,
  actionsElements: 25,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  totalChars: 13_000,
  headerText: 150,
  contextElements: 10,
};

/** Block Kit limits of DESIGN.md §6; returns the first violation, as Slack refuses the whole message. */
export function blockKitViolation(blocks: unknown): string | undefined {
  if (blocks === undefined) return undefined;
  if (!Array.isArray(blocks)) return 'blocks must be an array';
  if (blocks.length > LIMITS.blocks) return `too many blocks (${blocks.length} > ${LIMITS.blocks})`;
  if (JSON.stringify(blocks).length > LIMITS.totalChars) return 'msg_too_long';
  for (const [i, raw] of blocks.entries()) {
    const block = raw as Json;
    const where = `blocks[${i}]`;
    if (typeof block.block_id === 'string' && block.block_id.length > LIMITS.id)
      return `${where}.block_id too long`;
    const textOf = (t: unknown): string =>
      typeof t === 'object' && t !== null && typeof (t as Json).text === 'string'
        ? ((t as Json).text as string)
        : '';
    if (block.type === 'section') {
      if (textOf(block.text).length > LIMITS.sectionText)
        return `${where}.text longer than ${LIMITS.sectionText}`;
      if (!block.text && !block.fields) return `${where} section needs text or fields`;
    } else if (block.type === 'header') {
      if (textOf(block.text).length > LIMITS.headerText)
        return `${where}.text longer than ${LIMITS.headerText}`;
    } else if (block.type === 'context') {
      const els = block.elements as unknown[];
      if (!Array.isArray(els) || els.length === 0 || els.length > LIMITS.contextElements)
        return `${where}.elements must hold 1-${LIMITS.contextElements}`;
    } else if (block.type === 'actions') {
      const els = block.elements as unknown[];
      if (!Array.isArray(els) || els.length === 0 || els.length > LIMITS.actionsElements)
        return `${where}.elements must hold 1-${LIMITS.actionsElements}`;
      const seen = new Set<string>();
      for (const [j, el] of els.entries()) {
        const e = el as Json;
        const at = `${where}.elements[${j}]`;
        if (e.type !== 'button') continue;
        if (textOf(e.text).length > LIMITS.buttonText) return `${at}.text longer than ${LIMITS.buttonText}`;
        if (typeof e.value === 'string' && e.value.length > LIMITS.buttonValue)
          return `${at}.value longer than ${LIMITS.buttonValue}`;
        if (typeof e.action_id !== 'string' || e.action_id.length > LIMITS.id)
          return `${at}.action_id missing or too long`;
        if (seen.has(e.action_id)) return `${at}.action_id duplicated in block`;
        seen.add(e.action_id);
        const confirm = e.confirm as Json | undefined;
        if (confirm) {
          if (textOf(confirm.title).length > LIMITS.confirmTitle) return `${at}.confirm.title too long`;
          if (textOf(confirm.text).length > LIMITS.confirmText)
            return `${at}.confirm.text longer than ${LIMITS.confirmText}`;
          if (
            textOf(confirm.confirm).length > LIMITS.confirmButton ||
            textOf(confirm.deny).length > LIMITS.confirmButton
          )
            return `${at}.confirm buttons too long`;
        }
      }
    } else if (block.type !== 'divider' && block.type !== 'rich_text') {
      return `${where} unsupported block type ${String(block.type)}`;
    }
  }
  return undefined;
}

async function readArgs(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('application/json'))
    return raw ? (JSON.parse(raw) as Json) : {};
  const args: Json = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // WebClient form-encodes objects as JSON strings.
    args[k] = (k === 'blocks' || k === 'attachments') && v.startsWith('[') ? JSON.parse(v) : v;
  }
  return args;
}

/** An upload's bytes as UTF-8: the body itself, or its first part when the client sent multipart/form-data. */
function uploadedBytes(contentType: string | undefined, body: Buffer): string {
  const boundary = /multipart\/form-data;\s*boundary=("?)([^";]+)\1/i.exec(contentType ?? '')?.[2];
  const text = body.toString('utf8');
  if (boundary === undefined) return text;
  const start = text.indexOf('\r\n\r\n', text.indexOf(`--${boundary}`));
  const end = text.indexOf(`\r\n--${boundary}`, start);
  return start < 0 || end < 0 ? text : text.slice(start + 4, end);
}

/** Starts the stand-in on 127.0.0.1 and a free port. */
export async function startSlackStandin(
  options: {
    botToken?: string;
    /** Socket Mode: the app-level token `apps.connections.open` requires (instead of the bot token). */
    appToken?: string;
    /** Socket Mode: the WebSocket URL `apps.connections.open` answers with. */
    socketUrl?: string;
  } = {},
): Promise<SlackStandin> {
  const calls: SlackCall[] = [];
  const messages = new Map<string, StoredMessage>();
  const failures: {
    method: string;
    count: number;
    how: { status: 429; retryAfter: number } | { status: 500 };
  }[] = [];
  const usergroups = new Map<string, string[]>();
  const files: StoredFile[] = [];
  /** Files asked for with getUploadURLExternal: their name, and their bytes once uploaded. */
  const uploads = new Map<string, { name: string; content?: string }>();
  let base = '';
  let tsCounter = 0;
  const nextTs = (): string => `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, '0')}`;

  const handle = (
    method: string,
    args: Json,
  ): { status: number; body: Json; headers?: Record<string, string> } => {
    const failure = failures.find((f) => f.count > 0 && (f.method === method || f.method === '*'));
    if (failure) {
      failure.count -= 1;
      if (failure.how.status === 429)
        return {
          status: 429,
          body: { ok: false, error: 'ratelimited' },
          headers: { 'retry-after': String(failure.how.retryAfter) },
        };
      return { status: 500, body: { ok: false, error: 'internal_error' } };
    }
    const violation = blockKitViolation(args.blocks);
    switch (method) {
      case 'auth.test':
        return {
          status: 200,
          body: {
            ok: true,
            url: 'https://example.slack.com/',
            team: 'Example',
            user: 'rollout-doctor',
            team_id: 'T0001',
            user_id: 'U0BOT',
            bot_id: 'B0BOT',
          },
        };
      case 'chat.postMessage': {
        if (violation)
          return {
            status: 200,
            body: { ok: false, error: 'invalid_blocks', response_metadata: { messages: [violation] } },
          };
        if (typeof args.channel !== 'string')
          return { status: 200, body: { ok: false, error: 'channel_not_found' } };
        if (typeof args.text !== 'string' && !args.blocks)
          return { status: 200, body: { ok: false, error: 'no_text' } };
        const ts = nextTs();
        const message: StoredMessage = {
          channel: args.channel,
          ts,
          text: String(args.text ?? ''),
          blocks: (args.blocks as Json[] | undefined) ?? [],
          updates: 0,
          ...(typeof args.thread_ts === 'string' ? { threadTs: args.thread_ts } : {}),
        };
        messages.set(`${args.channel}/${ts}`, message);
        return {
          status: 200,
          body: { ok: true, channel: args.channel, ts, message: { text: message.text } },
        };
      }
      case 'chat.update': {
        if (violation)
          return {
            status: 200,
            body: { ok: false, error: 'invalid_blocks', response_metadata: { messages: [violation] } },
          };
        const message = messages.get(`${String(args.channel)}/${String(args.ts)}`);
        if (!message) return { status: 200, body: { ok: false, error: 'message_not_found' } };
        message.text = String(args.text ?? message.text);
        if (args.blocks !== undefined) message.blocks = args.blocks as Json[];
        message.updates += 1;
        return { status: 200, body: { ok: true, channel: message.channel, ts: message.ts } };
      }
      case 'chat.delete': {
        const key = `${String(args.channel)}/${String(args.ts)}`;
        if (!messages.has(key)) return { status: 200, body: { ok: false, error: 'message_not_found' } };
        messages.delete(key);
        return { status: 200, body: { ok: true, channel: args.channel, ts: args.ts } };
      }
      case 'chat.postEphemeral':
        if (violation) return { status: 200, body: { ok: false, error: 'invalid_blocks' } };
        if (typeof args.user !== 'string')
          return { status: 200, body: { ok: false, error: 'user_not_in_channel' } };
        return { status: 200, body: { ok: true, message_ts: nextTs() } };
      case 'apps.connections.open':
        return options.socketUrl
          ? { status: 200, body: { ok: true, url: options.socketUrl } }
          : { status: 200, body: { ok: false, error: 'not_allowed_token_type' } };
      case 'files.getUploadURLExternal': {
        if (typeof args.filename !== 'string' || !args.length)
          return { status: 200, body: { ok: false, error: 'invalid_arguments' } };
        const id = `F${String(uploads.size + 1).padStart(6, '0')}`;
        uploads.set(id, { name: args.filename });
        return { status: 200, body: { ok: true, upload_url: `${base}/upload/${id}`, file_id: id } };
      }
      case 'files.completeUploadExternal': {
        const listed = (typeof args.files === 'string' ? JSON.parse(args.files) : args.files) as {
          id: string;
          title?: string;
        }[];
        const done: StoredFile[] = [];
        for (const { id, title } of listed) {
          const upload = uploads.get(id);
          if (upload?.content === undefined)
            return { status: 200, body: { ok: false, error: 'file_not_found' } };
          done.push({
            id,
            name: upload.name,
            title: title ?? upload.name,
            content: upload.content,
            channel: String(args.channel_id),
            ...(typeof args.thread_ts === 'string' ? { threadTs: args.thread_ts } : {}),
            ...(typeof args.initial_comment === 'string' ? { initialComment: args.initial_comment } : {}),
          });
        }
        files.push(...done);
        return { status: 200, body: { ok: true, files: done.map((f) => ({ id: f.id, title: f.title })) } };
      }
      case 'usergroups.users.list': {
        const users = usergroups.get(String(args.usergroup));
        return users
          ? { status: 200, body: { ok: true, users } }
          : { status: 200, body: { ok: false, error: 'no_such_subteam' } };
      }
      default:
        return { status: 200, body: { ok: false, error: 'unknown_method' } };
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      // The upload URL getUploadURLExternal answers with: the file's bytes, as files.slack.com takes them.
      const upload = /^\/upload\/(F\d+)$/.exec(req.url ?? '');
      if (upload) {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const pending = uploads.get(upload[1] ?? '');
        if (pending) pending.content = uploadedBytes(req.headers['content-type'], Buffer.concat(chunks));
        res.writeHead(pending ? 200 : 404, { 'content-type': 'text/plain' });
        res.end(pending ? `OK - ${Buffer.concat(chunks).length}` : 'not found');
        return;
      }
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const args = await readArgs(req);
      const auth =
        req.headers.authorization ?? (typeof args.token === 'string' ? `Bearer ${args.token}` : '');
      let result: { status: number; body: Json; headers?: Record<string, string> };
      // Like Slack, apps.connections.open takes only the app-level token; every other method the bot token.
      const expected = method === 'apps.connections.open' ? options.appToken : options.botToken;
      if (expected && auth !== `Bearer ${expected}`)
        result = { status: 200, body: { ok: false, error: 'invalid_auth' } };
      else result = handle(method, args);
      calls.push({ method, args, status: result.status, response: result.body, at: Date.now() });
      res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
      res.end(JSON.stringify(result.body));
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  const standin: SlackStandin = {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    messages,
    files,
    failNext(method, count, how) {
      failures.push({ method, count, how });
    },
    setUsergroup(id, users) {
      usergroups.set(id, users);
    },
    callsOf(method) {
      return calls.filter((c) => c.method === method);
    },
    editOf(message, pattern) {
      return calls.find(
        (c) =>
          c.method === 'chat.update' &&
          c.args.channel === message.channel &&
          c.args.ts === message.ts &&
          pattern.test(String(c.args.text)),
      );
    },
    async waitFor(predicate, timeoutMs = SIGNAL_WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate(standin);
        if (value) return value;
        if (Date.now() > deadline)
          throw new Error(
            `slack stand-in: condition not met in ${timeoutMs} ms; calls: ${calls.map((c) => c.method).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standin;
}
