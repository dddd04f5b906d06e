/**
 * What the preview page shows: every channel's messages in the order they were
 * posted, each thread's replies under its parent, updated messages in place (marked
 * edited), deleted ones gone, and ephemeral answers ("only visible to …") where they
 * appeared, all built from what the Slack stand-in recorded.
 */
import type { SlackCall, StoredMessage } from '../../test/support/slack-standin.js';
import { messageBody } from './blocks.js';
import { el, type RNode } from './render-tree.js';

type Json = Record<string, unknown>;

/** An answer only one user sees: chat.postEphemeral, a command's acknowledgement, a response_url post. */
export interface Ephemeral {
  /** Stable across page updates. */
  id: string;
  channel: string;
  user: string;
  text: string;
  blocks: Json[];
  threadTs?: string;
  at: number;
  /** Where it came from, shown under it. */
  via: string;
}

export interface ViewItem {
  key: string;
  node: RNode;
}

export interface ViewChannel {
  id: string;
  name: string;
  items: ViewItem[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function clock(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}

/** Ephemerals the app sent through the Web API. */
export function ephemeralCalls(calls: readonly SlackCall[]): Ephemeral[] {
  return calls.flatMap((c, index) =>
    c.method === 'chat.postEphemeral' && c.response.ok === true
      ? [
          {
            id: `call-${index}`,
            channel: str(c.args.channel),
            user: str(c.args.user),
            text: str(c.args.text),
            blocks: Array.isArray(c.args.blocks) ? (c.args.blocks as Json[]) : [],
            ...(typeof c.args.thread_ts === 'string' ? { threadTs: c.args.thread_ts } : {}),
            at: c.at,
            via: 'chat.postEphemeral',
          },
        ]
      : [],
  );
}

function head(author: string, at: number, extra: RNode[]): RNode {
  return el('div', 'msg-head', [
    el('span', 'author', [author]),
    el('span', 'app-badge', ['APP']),
    el('span', 'time', [clock(at)]),
    ...extra,
  ]);
}

function messageCard(m: StoredMessage, at: number, replies: RNode[]): RNode {
  const edited = m.updates > 0 ? [el('span', 'edited', ['(edited)'])] : [];
  const thread =
    replies.length > 0
      ? [
          el('div', 'thread', [
            el('div', 'thread-head', [`${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`]),
            ...replies,
          ]),
        ]
      : [];
  return el(
    'div',
    m.threadTs && m.threadTs !== m.ts ? 'msg reply' : 'msg',
    [
      head('rollout-doctor', at, edited),
      el('div', 'msg-body', messageBody(m, { channel: m.channel, ts: m.ts })),
      ...thread,
    ],
    {
      data: {
        kind: 'message',
        channel: m.channel,
        ts: m.ts,
        updates: String(m.updates),
        replies: String(replies.length),
        text: m.text.slice(0, 200),
      },
    },
  );
}

function ephemeralCard(e: Ephemeral, userName: (id: string) => string): RNode {
  return el(
    'div',
    'msg ephemeral',
    [
      head('rollout-doctor', e.at, [el('span', 'only-you', [`Only visible to ${userName(e.user)}`])]),
      el('div', 'msg-body', messageBody({ text: e.text, blocks: e.blocks }, undefined)),
      el('div', 'via', [e.via]),
    ],
    { data: { kind: 'ephemeral', user: e.user, channel: e.channel } },
  );
}

/**
 * The page's channels. `channels` names the ones to show first (id → '#name');
 * a message in any other channel gets a section of its own.
 */
export function buildView(input: {
  calls: readonly SlackCall[];
  messages: ReadonlyMap<string, StoredMessage>;
  ephemerals: readonly Ephemeral[];
  channels: Readonly<Record<string, string>>;
  userName: (id: string) => string;
}): ViewChannel[] {
  // When each message was first posted: the stand-in's call log, in order.
  const postedAt = new Map<string, number>();
  for (const c of input.calls) {
    if (c.method !== 'chat.postMessage' || c.response.ok !== true) continue;
    postedAt.set(`${str(c.response.channel)}/${str(c.response.ts)}`, c.at);
  }
  const atOf = (m: StoredMessage): number =>
    postedAt.get(`${m.channel}/${m.ts}`) ?? Math.round(Number(m.ts.split('.')[0]) * 1000);
  const all = [...input.messages.values()];
  const byKey = new Map(all.map((m) => [`${m.channel}/${m.ts}`, m]));
  const isReply = (m: { channel: string; ts?: string; threadTs?: string }): boolean =>
    m.threadTs !== undefined && m.threadTs !== m.ts && byKey.has(`${m.channel}/${m.threadTs}`);

  const ids = [...Object.keys(input.channels)];
  for (const m of all) if (!ids.includes(m.channel)) ids.push(m.channel);
  for (const e of input.ephemerals) if (!ids.includes(e.channel)) ids.push(e.channel);

  return ids.map((id) => {
    type Entry = { at: number; key: string; node: () => RNode };
    const replies = (root: StoredMessage): RNode[] => {
      const entries: Entry[] = [
        ...all
          .filter((m) => m.channel === id && m.threadTs === root.ts && m.ts !== root.ts)
          .map((m) => ({ at: atOf(m), key: m.ts, node: () => messageCard(m, atOf(m), []) })),
        ...input.ephemerals
          .filter((e) => e.channel === id && e.threadTs === root.ts)
          .map((e) => ({ at: e.at, key: e.id, node: () => ephemeralCard(e, input.userName) })),
      ];
      return entries.sort((a, b) => a.at - b.at).map((e) => e.node());
    };
    const top: Entry[] = [
      ...all
        .filter((m) => m.channel === id && !isReply(m))
        .map((m) => ({
          at: atOf(m),
          key: `${m.channel}/${m.ts}`,
          node: () => messageCard(m, atOf(m), replies(m)),
        })),
      ...input.ephemerals
        .filter((e) => e.channel === id && !(e.threadTs && byKey.has(`${e.channel}/${e.threadTs}`)))
        .map((e) => ({ at: e.at, key: `ephemeral/${e.id}`, node: () => ephemeralCard(e, input.userName) })),
    ];
    return {
      id,
      name: input.channels[id] ?? id,
      items: top.sort((a, b) => a.at - b.at).map((e) => ({ key: e.key, node: e.node() })),
    };
  });
}
