/**
 * The Teams side of the preview: what the app posted to the Teams stand-in
 * (test/support/teams-standin.ts), as threads of a Teams channel, for the page to draw
 * with Microsoft's Adaptive Cards renderer (the `adaptivecards` package, served from
 * node_modules: no CDN), and the page's actions turned into what a Teams client causes:
 * a channel post that @mentions the bot, and `adaptiveCard/action` invokes
 * (`Action.Execute`), each signed by the stand-in's key and posted to the app's
 * /api/messages. The app validates them unmodified.
 *
 * Like Teams, the page keeps each person's own view of a card: the card an invoke
 * answered with (a refresh, a confirm step, a press) stands in for the shared one until
 * the bot updates the activity. A press must name an action the card the person sees
 * offers (or the card's refresh, for a person it lists), as only a Teams client could.
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Person, TeamsStandin } from '../../test/support/teams-standin.js';

type Json = Record<string, unknown>;

const ADAPTIVECARDS_JS = createRequire(import.meta.url).resolve('adaptivecards/dist/adaptivecards.min.js');
/** The renderer and its stylesheet, from the installed package. */
export const ADAPTIVECARDS_FILES = {
  js: ADAPTIVECARDS_JS,
  css: ADAPTIVECARDS_JS.replace(/adaptivecards\.min\.js$/, 'adaptivecards.css'),
};

/** Teams expects an invoke answered within a few seconds; so does the page. */
const INVOKE_TIMEOUT_MS = 5_000;
/** How a person addresses the bot in a channel. */
const MENTION = /^@rollout-doctor\s+/i;

export interface PreviewTeamsOptions {
  standin: TeamsStandin;
  /** The app's messaging endpoint (`${appUrl}/api/messages`). */
  botUrl: string;
  /** Teams channels shown, id (19:…@thread.tacv2) → '#name'; the first takes the page's posts. */
  channels: Record<string, string>;
  /** Who the page may act as in Teams. */
  people: Person[];
}

/** A post in a Teams thread, as the page draws it. */
export interface TeamsPost {
  id: string;
  conversationId: string;
  /** 'bot' (the app, through the connector) or a person's name. */
  from: string;
  /** Plain text (a person's post, or a bot message without a card). */
  text?: string;
  /** The card everyone sees. */
  card?: Json;
  /** How often the bot updated it. */
  updates: number;
  /** Per Teams user id: that person's own view (an invoke's card) and what the bot said to them. */
  views: Record<string, { card?: Json; said?: string }>;
}

export interface TeamsThread {
  channel: string;
  /** The thread's root post id (the conversation's `messageid`). */
  root: string;
  posts: TeamsPost[];
}

export interface TeamsState {
  channels: { id: string; name: string }[];
  people: { id: string; name: string }[];
  threads: TeamsThread[];
}

export const teamsMessageSchema = z.object({
  channel: z.string().regex(/^19:[A-Za-z0-9._-]{1,80}@thread\.tacv2$/),
  user: z.string().regex(/^29:[A-Za-z0-9._-]{1,80}$/),
  text: z.string().max(4_000),
});
export const teamsExecuteSchema = z.object({
  conversationId: z.string().min(1).max(200),
  activityId: z.string().regex(/^[0-9A-Za-z:_-]{1,80}$/),
  verb: z.string().min(1).max(64),
  data: z.record(z.string(), z.unknown()),
  user: z.string().regex(/^29:[A-Za-z0-9._-]{1,80}$/),
  trigger: z.enum(['manual', 'automatic']),
});

export interface PreviewTeams {
  state(): TeamsState;
  /** Changes whenever what the page shows does. */
  stamp(): string;
  message(input: z.infer<typeof teamsMessageSchema>): Promise<Json>;
  execute(input: z.infer<typeof teamsExecuteSchema>): Promise<Json>;
}

const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function cardOf(activity: Json): Json | undefined {
  const [first] = Array.isArray(activity.attachments) ? (activity.attachments as unknown[]) : [];
  return isJson(first) && isJson(first.content) ? first.content : undefined;
}

/** The Action.Execute elements of a card (body, ActionSets, select actions, the card's own actions). */
function executeActions(card: Json): Json[] {
  const found: Json[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isJson(v)) return;
    if (v.type === 'Action.Execute') found.push(v);
    for (const [key, value] of Object.entries(v)) if (key !== 'refresh') walk(value);
  };
  walk(card);
  return found;
}

const rootOf = (conversationId: string): string => /;messageid=(.+)$/.exec(conversationId)?.[1] ?? '';

export function previewTeams(options: PreviewTeamsOptions): PreviewTeams {
  const { standin } = options;
  const own: { id: string; conversationId: string; from: string; text: string; at: number }[] = [];
  /** activity id → Teams user id → a view and the activity's update count it was for. */
  const views = new Map<string, Map<string, { updates: number; card?: Json; said?: string }>>();
  let version = 0;
  let counter = 0;
  const person = (id: string): Person | undefined => options.people.find((p) => p.id === id);

  const state = (): TeamsState => {
    const threads = new Map<string, TeamsThread>();
    const thread = (conversationId: string): TeamsThread | undefined => {
      const [channel] = conversationId.split(';');
      const root = rootOf(conversationId);
      if (channel === undefined || !(channel in options.channels) || root === '') return undefined;
      let t = threads.get(conversationId);
      if (!t) threads.set(conversationId, (t = { channel, root, posts: [] }));
      return t;
    };
    const posts: (TeamsPost & { order: string })[] = [];
    for (const p of own) posts.push({ ...p, updates: 0, views: {}, order: p.id });
    for (const a of standin.activities.values()) {
      const card = cardOf(a.activity);
      const mine: TeamsPost['views'] = {};
      for (const [user, view] of views.get(a.id) ?? []) {
        if (view.updates !== a.updates) continue;
        mine[user] = { ...(view.card ? { card: view.card } : {}), ...(view.said ? { said: view.said } : {}) };
      }
      posts.push({
        id: a.id,
        conversationId: a.conversationId,
        from: 'rollout-doctor',
        ...(card ? { card } : { text: typeof a.activity.text === 'string' ? a.activity.text : '' }),
        updates: a.updates,
        views: mine,
        order: a.id,
      });
    }
    // Ids grow with time (the stand-in's and ours alike): the roots first, then replies in order.
    posts.sort(
      (x, y) => x.order.length - y.order.length || (x.order < y.order ? -1 : x.order > y.order ? 1 : 0),
    );
    for (const { order: _order, ...post } of posts) {
      const t = thread(post.conversationId);
      if (!t) continue;
      if (post.id === t.root) t.posts.unshift(post);
      else t.posts.push(post);
    }
    return {
      channels: Object.entries(options.channels).map(([id, name]) => ({ id, name })),
      people: options.people.map((p) => ({ id: p.id, name: p.name })),
      threads: [...threads.values()].sort((x, y) => (x.root < y.root ? -1 : x.root > y.root ? 1 : 0)),
    };
  };

  const send = async (activity: Json): Promise<{ status: number; body: unknown } | 'timeout'> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), INVOKE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([standin.send(options.botUrl, activity), late]);
    } finally {
      clearTimeout(timer);
    }
  };

  const setView = (activityId: string, user: string, view: { card?: Json; said?: string }): void => {
    const updates = standin.activities.get(activityId)?.updates ?? 0;
    let forActivity = views.get(activityId);
    if (!forActivity) views.set(activityId, (forActivity = new Map()));
    const previous = forActivity.get(user);
    const kept = previous?.updates === updates && !view.card ? previous.card : undefined;
    forActivity.set(user, {
      updates,
      ...((view.card ?? kept) ? { card: view.card ?? kept } : {}),
      ...(view.said ? { said: view.said } : {}),
    });
    version += 1;
  };

  return {
    state,
    stamp: () => `${standin.calls.length}/${own.length}/${version}`,

    async message(input) {
      const from = person(input.user);
      if (!from) return { ok: false, error: 'unknown person' };
      if (!(input.channel in options.channels)) return { ok: false, error: 'unknown channel' };
      if (!MENTION.test(input.text))
        return { ok: false, error: 'in a channel the bot hears only posts that start with @rollout-doctor' };
      const text = input.text.replace(MENTION, '').trim();
      // A new post in the channel: it roots a thread whose conversation names it.
      const id = `${Date.now()}${String(++counter).padStart(4, '0')}`;
      const conversationId = `${input.channel};messageid=${id}`;
      own.push({ id, conversationId, from: from.name, text: input.text.trim(), at: Date.now() });
      const activity = { ...standin.message({ text, from, conversationId }), id };
      const result = await send(activity);
      if (result === 'timeout' || result.status !== 200) {
        const why =
          result === 'timeout' ? 'the bot did not answer in time' : `the bot answered HTTP ${result.status}`;
        return { ok: false, error: why };
      }
      return { ok: true };
    },

    async execute(input) {
      const from = person(input.user);
      if (!from) return { ok: false, error: 'unknown person' };
      const posted = standin.activities.get(input.activityId);
      if (!posted || posted.conversationId !== input.conversationId)
        return { ok: false, error: 'that card is gone' };
      const shared = cardOf(posted.activity);
      if (!shared) return { ok: false, error: 'that post has no card' };
      const view = views.get(input.activityId)?.get(input.user);
      const seen = view?.updates === posted.updates && view.card ? view.card : shared;
      if (input.trigger === 'automatic') {
        // Teams fetches a person's own view of a card whose refresh lists them.
        const refresh = isJson(shared.refresh) ? shared.refresh : undefined;
        const action = refresh && isJson(refresh.action) ? refresh.action : undefined;
        const listed = Array.isArray(refresh?.userIds) && (refresh.userIds as unknown[]).includes(input.user);
        if (
          !action ||
          !listed ||
          action.verb !== input.verb ||
          !isDeepStrictEqual(action.data ?? {}, input.data)
        )
          return { ok: false, error: 'that card has no refresh for this person' };
      } else if (
        !executeActions(seen).some(
          (a) =>
            a.verb === input.verb && isDeepStrictEqual(a.data ?? {}, input.data) && a.isEnabled !== false,
        )
      ) {
        return { ok: false, error: 'that button is not on the card' };
      }
      const invoke = standin.cardAction({
        verb: input.verb,
        data: input.data,
        from,
        conversationId: input.conversationId,
        replyToId: input.activityId,
        trigger: input.trigger,
      });
      const result = await send(invoke);
      if (result === 'timeout' || result.status !== 200) {
        const why =
          result === 'timeout'
            ? 'the bot did not answer within 5 s'
            : `the bot answered HTTP ${result.status}`;
        setView(input.activityId, input.user, { said: `Not delivered: ${why}.` });
        return { ok: false, error: why };
      }
      const answer = isJson(result.body) ? result.body : {};
      if (answer.type === 'application/vnd.microsoft.card.adaptive' && isJson(answer.value))
        setView(input.activityId, input.user, { card: answer.value });
      else if (
        answer.type === 'application/vnd.microsoft.activity.message' &&
        typeof answer.value === 'string'
      )
        setView(input.activityId, input.user, { said: answer.value });
      else if (answer.type === 'application/vnd.microsoft.error' && isJson(answer.value))
        setView(input.activityId, input.user, { said: `Refused: ${String(answer.value.message ?? '')}` });
      return { ok: true, type: typeof answer.type === 'string' ? answer.type : '' };
    },
  };
}
