/**
 * Draft post-mortem (issue 65.4), the port's side: which replies offer the button, what
 * the button carries (nothing a press may choose), the press's answers when the record
 * is missing, the reader not allowed or Redis not answering, and the draft split for a
 * platform that posts no file.
 */
import { describe, expect, it, vi } from 'vitest';
import { chatActionSchema } from '../../src/chat/actions.js';
import type { ChatAdapter, DraftToPost, PressRequest } from '../../src/chat/adapter.js';
import type { ChatMessage } from '../../src/chat/model.js';
import type { PostmortemButtons } from '../../src/chat/notify/postmortem-buttons.js';
import { plain, plainText } from '../../src/message/rich.js';
import { decodeAction, encodeAction } from '../../src/chat/slack/actions.js';
import { RedisTroubleError } from '../../src/queue/deadline.js';
import { outcomeMessage } from '../../src/chat/use-cases/outcome.js';
import {
  SNIPPET_CHARS,
  SNIPPET_MESSAGES,
  draftPostmortem,
  draftSnippets,
  postDraft,
} from '../../src/chat/use-cases/postmortem-press.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { seedIncidentEvents } from '../support/postmortem-incident.js';
import type { AuditEvent } from '../../src/audit.js';
import { auditEventSchema } from '../../src/postmortem/audit-line.js';
import { incidentIdOf } from '../../src/postmortem/build.js';

const ID = 'default/vision/object-tracker';
type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;
const job = (stage: Outcome['stage']): Outcome => ({
  kind: 'remediation-outcome',
  planId: 'p1',
  cluster: 'default',
  channel: 'C1',
  messageTs: '1700000000.000100',
  stage,
  detail: 'done',
});
const kinds = (m: ChatMessage) =>
  m.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons.map((b) => b.action.kind) : []));

describe('the button', () => {
  const stages: Outcome['stage'][] = [
    'applied',
    'already-applied',
    'rolled-out',
    'pods-ready',
    'still-failing',
    'refused',
    'failed',
    'timeout',
    'paused',
  ];

  it('is on the reply that says the rollout completed, only where the app keeps what it drafts', () => {
    const offered = stages.filter((s) =>
      kinds(outcomeMessage(job(s), 'slack', undefined, 0, {}, 'en', { postmortem: true })).includes(
        'postmortem',
      ),
    );
    expect(offered).toEqual(['rolled-out', 'pods-ready']);
    expect(kinds(outcomeMessage(job('rolled-out'), 'slack', undefined, 0, {}, 'en'))).toEqual([]);
    const ko = outcomeMessage(job('rolled-out'), 'slack', undefined, 0, {}, 'ko', { postmortem: true });
    const labels = ko.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons.map((b) => b.label) : []));
    expect(labels).toEqual(['포스트모템 초안']);
  });

  it('carries nothing: any value beyond its own is refused on both platforms', () => {
    const { actionId, value } = encodeAction({ kind: 'postmortem' }, 0);
    expect(decodeAction(actionId, value)).toEqual({ kind: 'postmortem' });
    for (const forged of [ID, 'other/ns/x', '', 'postmortem:other/ns/x'])
      expect(decodeAction(actionId, forged)).toBeNull();
    expect(chatActionSchema.safeParse({ kind: 'postmortem' }).success).toBe(true);
    expect(chatActionSchema.safeParse({ kind: 'postmortem', incident: ID }).success).toBe(false);
  });
});

function store(over: Partial<PostmortemButtons> = {}): PostmortemButtons {
  return {
    remember: vi.fn(async () => undefined),
    of: vi.fn(async () => ({ incident: ID, cluster: 'default', namespace: 'vision', lang: 'en' as const })),
    claimDraft: vi.fn(async () => null),
    releaseDraft: vi.fn(async () => undefined),
    read: vi.fn(async () => ({ events: seedIncidentEvents(), foreign: 0, unreadable: 0 })),
    ...over,
  };
}

function services(postmortems: PostmortemButtons | undefined, allowed = true, lang?: 'en' | 'ko') {
  return {
    logger: { warn: vi.fn() } as never,
    audit: { record: vi.fn() },
    readPolicy: {
      check: vi.fn(async () => (allowed ? { allowed: true } : { allowed: false, reason: 'not yours' })),
    } as never,
    config: { incidentRetentionMs: 30 * 86_400_000, ...(lang ? { lang } : {}) },
    postmortems,
  };
}

const request: PressRequest = {
  person: { platform: 'slack', id: 'U0READER' },
  message: {
    conversation: { platform: 'slack', id: 'C1', thread: '1700000000.000100' },
    id: '1700000000.000200',
  },
  root: { conversation: { platform: 'slack', id: 'C1' }, id: '1700000000.000100' },
  action: { kind: 'postmortem' },
};
const toldText = (reply: Awaited<ReturnType<typeof draftPostmortem>>) =>
  reply.tell ? plainText(reply.tell.summary) : '';

describe('a press', () => {
  it('drafts the incident the app kept for the pressed message', async () => {
    const kept = store();
    const reply = await draftPostmortem(services(kept), request);
    expect(kept.of).toHaveBeenCalledWith({ channel: 'C1', ts: '1700000000.000200' });
    expect(kept.read).toHaveBeenCalledWith(ID);
    expect(reply.draft?.file.text).toContain('object-tracker');
    expect(kept.claimDraft).toHaveBeenCalledWith(
      { channel: 'C1', ts: '1700000000.000200' },
      seedIncidentEvents().length,
      expect.any(Number),
    );
  });

  it('on a message the app kept nothing for (or long expired): says so, posts nothing', async () => {
    const reply = await draftPostmortem(services(store({ of: async () => null })), request);
    expect(reply.draft).toBeUndefined();
    expect(toldText(reply)).toContain('no longer kept (records are kept 30 days');
  });

  it('with the incident record gone: says so and how to draft from the audit log', async () => {
    const reply = await draftPostmortem(
      services(store({ read: async () => ({ events: [], foreign: 0, unreadable: 0 }) })),
      request,
    );
    expect(reply.draft).toBeUndefined();
    expect(toldText(reply)).toContain(`No record of incident ${ID} in Redis`);
    expect(toldText(reply)).toContain(`rollout-doctor postmortem --from-audit FILE --incident ${ID}`);
  });

  it('with Redis not answering: the words every press uses, nothing posted', async () => {
    const down = new RedisTroubleError('connect ECONNREFUSED 127.0.0.1:6379', { trouble: 'unreachable' });
    for (const broken of [
      store({ of: async () => Promise.reject(down) }),
      store({ read: async () => Promise.reject(down) }),
      store({ claimDraft: async () => Promise.reject(new Error('OOM command not allowed')) }),
    ]) {
      const reply = await draftPostmortem(services(broken), request);
      expect(reply.draft).toBeUndefined();
      expect(toldText(reply)).toMatch(/No post-mortem drafted: Redis is (unreachable|full)/);
    }
  });

  it('by someone the read policy keeps out of the namespace: refused, audited', async () => {
    const s = services(store(), false);
    const reply = await draftPostmortem(s, request);
    expect(reply.draft).toBeUndefined();
    expect(toldText(reply)).toContain('No post-mortem drafted: not yours');
    expect(s.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'refusal',
        planId: 'postmortem',
        reason: 'not-reader',
        namespace: 'vision',
      }),
    );
  });

  it('without incident records in this app: says so', async () => {
    expect(toldText(await draftPostmortem(services(undefined), request))).toContain(
      'keeps no incident records',
    );
  });
});

describe('the draft on a platform that posts no file', () => {
  it('is quoted whole over at most a few messages, then the command', () => {
    const line = `${'x'.repeat(99)}\n`;
    const markdown = line.repeat(Math.ceil((SNIPPET_CHARS * (SNIPPET_MESSAGES + 1)) / line.length));
    const messages = draftSnippets(plain('head'), 'pm.md', markdown, plain('whole: the command'));
    expect(messages).toHaveLength(SNIPPET_MESSAGES);
    const bodies = messages.flatMap((m) => m.parts.flatMap((p) => (p.kind === 'code' ? [p] : [])));
    expect(bodies.every((b) => b.whole && b.body.length <= SNIPPET_CHARS)).toBe(true);
    const shown = bodies.map((b) => b.body).join('');
    expect(markdown.startsWith(shown)).toBe(true);
    const note = messages.at(-1)?.parts.at(-1);
    expect(note?.kind === 'note' && plainText(note.text)).toBe(
      `${markdown.length - shown.length} more characters not posted here. whole: the command`,
    );
    const small = draftSnippets(plain('head'), 'pm.md', 'short', plain('whole'));
    expect(small).toHaveLength(1);
  });

  it('is posted as those messages; a post that fails gives the claim back and tells the presser', async () => {
    const posted: ChatMessage[] = [];
    const tell = vi.fn(async () => undefined);
    const adapter = {
      platform: 'teams',
      post: vi.fn(async (_to: unknown, m: ChatMessage) => {
        posted.push(m);
        return { conversation: { platform: 'teams', id: 'c' }, id: String(posted.length) };
      }),
      update: vi.fn(),
      tell,
    } as unknown as ChatAdapter;
    const release = vi.fn(async () => undefined);
    const draft: DraftToPost = {
      file: { name: 'pm.md', title: 't', text: 'x' },
      comment: { summary: plain('c'), parts: [] },
      snippets: [
        { summary: plain('a'), parts: [] },
        { summary: plain('b'), parts: [] },
      ],
      undelivered: { summary: plain('not posted'), parts: [] },
      release,
      posted: vi.fn(),
    };
    const to = { platform: 'teams', id: 'c', thread: 'r' };
    await postDraft(adapter, to, request.person, draft, { warn: vi.fn() });
    expect(posted.map((m) => plainText(m.summary))).toEqual(['a', 'b']);
    expect(release).not.toHaveBeenCalled();
    expect(draft.posted).toHaveBeenCalledExactlyOnceWith('snippets');
    vi.mocked(adapter.post).mockRejectedValueOnce(new Error('413'));
    await postDraft(adapter, to, request.person, draft, { warn: vi.fn() });
    expect(draft.posted).toHaveBeenCalledOnce();
    expect(release).toHaveBeenCalledOnce();
    expect(tell).toHaveBeenCalledWith(request.person, to, draft.undelivered);
  });
});

describe('cluster text in a draft quoted on Teams', () => {
  it('stays text: no mention, no link, no markup the card would act on', async () => {
    const { renderCard } = await import('../../src/chat/teams/cards.js');
    const hostile = [
      '# 포스트모템',
      '<at>Everyone</at> [click](https://evil.example/x) ![i](https://evil.example/i.png)',
      '**bold** <script>alert(1)</script> \u001b[31mred\u001b[0m \u202Eevil',
    ].join('\n');
    const [message] = draftSnippets(plain('head'), 'pm.md', hostile, plain('whole'));
    if (!message) throw new Error('no snippet');
    const card = JSON.stringify(renderCard(message));
    expect(card).not.toContain('Action.OpenUrl');
    expect(card).not.toContain('"type":"Image"');
    expect(card).not.toContain('mention');
    expect(card).not.toContain('\\u001b');
    expect(card).not.toContain('\u202E');
    // The words are there, as a monospace run of text.
    expect(card).toContain('[click](https://evil.example/x)');
    // (Teams' own tags defanged by the card's cleaning, as on every card.)
    expect(card).toContain('"type":"TextRun","text":"# 포스트모템\\n< at>Everyone< /at>');
  });
});

describe("a press in the thread's language, audited once its draft is posted (issue 65.4)", () => {
  const korean = (over: Partial<PostmortemButtons> = {}) =>
    store({
      of: vi.fn(async () => ({ incident: ID, cluster: 'default', namespace: 'vision', lang: 'ko' as const })),
      ...over,
    });

  it("answers in the language the button's record keeps for its thread, not the workspace's", async () => {
    const gone = { read: async () => ({ events: [], foreign: 0, unreadable: 0 }) };
    const ko = toldText(await draftPostmortem(services(korean(gone), true, 'en'), request));
    expect(ko).toContain(`Redis에 인시던트 ${ID} 기록이 없습니다`);
    expect(ko).toContain(`rollout-doctor postmortem --from-audit FILE --incident ${ID}`);
    const en = toldText(await draftPostmortem(services(store(gone), true, 'ko'), request));
    expect(en).toContain(`No record of incident ${ID} in Redis`);
    const draft = (await draftPostmortem(services(korean()), request)).draft;
    expect(plainText(draft?.comment.summary ?? [])).toContain(`인시던트 ${ID} 포스트모템 초안입니다`);
    expect(draft?.file.title).toBe(`포스트모템 초안: ${ID}`);
    expect(draft?.file.text).toContain('# 포스트모템');
    const refused = toldText(await draftPostmortem(services(korean(), false), request));
    expect(refused).toContain('포스트모템 초안을 만들지 않았습니다: not yours.');
  });

  it("answers in the workspace's language before the thread's is read (no records kept, Redis down)", async () => {
    expect(toldText(await draftPostmortem(services(undefined, true, 'ko'), request))).toContain(
      '인시던트 기록을 보관하지 않습니다',
    );
    const down = new RedisTroubleError('connect ECONNREFUSED 127.0.0.1:6379', { trouble: 'unreachable' });
    const reply = await draftPostmortem(
      services(store({ of: async () => Promise.reject(down) }), true, 'ko'),
      request,
    );
    expect(toldText(reply)).toContain('포스트모템 초안을 만들지 못했습니다: Redis에 연결할 수 없습니다.');
    expect(toldText(reply)).toContain('몇 초 뒤에 다시 눌러 주세요');
  });

  it('audits a posted draft (who, which incident, the file), and nothing for one not posted', async () => {
    const s = services(store());
    const draft = (await draftPostmortem(s, request, Date.parse('2026-11-27T10:00:00Z'))).draft;
    if (!draft) throw new Error('no draft');
    expect(s.audit.record).not.toHaveBeenCalled();
    const postFile = vi.fn(async () => undefined);
    const adapter = {
      platform: 'slack',
      postFile,
      post: vi.fn(),
      tell: vi.fn(async () => undefined),
    } as unknown as ChatAdapter;
    const to = { platform: 'slack', id: 'C1', thread: '1700000000.000100' } as const;
    postFile.mockRejectedValueOnce(new Error('not_in_channel'));
    await postDraft(adapter, to, request.person, draft, { warn: vi.fn() });
    expect(s.audit.record).not.toHaveBeenCalled();
    await postDraft(adapter, to, request.person, draft, { warn: vi.fn() });
    const event = {
      action: 'postmortem',
      planId: 'postmortem',
      cluster: 'default',
      namespace: 'vision',
      incident: ID,
      user: 'U0READER',
      channel: 'C1',
      file: 'postmortem-default-vision-object-tracker-2026-11-27.md',
      posted: 'file',
      entries: seedIncidentEvents().length,
    };
    expect(s.audit.record).toHaveBeenCalledExactlyOnceWith(event);
    // A line the audit log's reader takes back, kept out of the incident's own record.
    expect(auditEventSchema.safeParse(event).success).toBe(true);
    expect(incidentIdOf(event as AuditEvent)).toBeUndefined();
  });
});
