/**
 * Draft post-mortem (docs/postmortem.md): the button on the reply that says an incident's
 * rollout completed (src/chat/use-cases/outcome.ts). A press drafts the post-mortem of
 * the incident the app recorded for that message (src/chat/notify/postmortem-buttons.ts:
 * never an id the platform sends back) from its record in Redis
 * (src/queue/incident-journal.ts), in the thread's language, with the renderer
 * `rollout-doctor postmortem` uses (src/postmortem/render.ts), and asks the adapter to
 * post it in the thread (`PressReply.draft`, posted by postDraft): a file where the
 * platform posts files (Slack), else a message that quotes it as code (Teams). It reads,
 * never writes the cluster: anyone the read policy lets see the incident's namespace
 * from this channel may press.
 *
 * A second press on the same record (no event since the last draft posted from this
 * message) posts nothing and says when that draft was posted; a press after the record
 * grew (a later Undo, a new diagnosis) posts a fresh draft. A record gone (retention)
 * is said so, with the command that drafts from the audit log; Redis that does not
 * answer is said as every other press says it (redis-words.ts).
 */
import type { Audit } from '../../audit.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import { DEFAULT_LANG, type Lang } from '../../i18n/lang.js';
import type { Logger } from '../../logger.js';
import type { ReadPolicy } from '../../policy/read-policy.js';
import { buildIncidentRecord } from '../../postmortem/build.js';
import { renderPostmortem } from '../../postmortem/render.js';
import { deadlineIn } from '../../queue/deadline.js';
import { messageTime } from '../../text/time.js';
import type { ChatAdapter, DraftToPost, PressReply, PressRequest } from '../adapter.js';
import type { ChatMessage, ConversationRef, Part, PersonRef, Rich } from '../model.js';
import type { PostmortemButtons } from '../notify/postmortem-buttons.js';
import { say } from '../../message/rich.js';
import { POSTMORTEM_PRESS_WORDS } from '../words/postmortem.js';
import { textMessage } from './command.js';
import { subscribed } from './press.js';
import { ANSWER_DEADLINE_MS, redisTroubleWords, tryAgainWords } from './redis-words.js';

/** What the press needs of the app's services (src/chat/services.ts has them all). */
interface PostmortemServices {
  logger: Logger;
  audit: Audit;
  readPolicy: ReadPolicy;
  /** The record's retention, and the workspace's language (ROLLOUT_DOCTOR_LANG) for a press before its thread's is read. */
  config: { incidentRetentionMs: number; lang?: Lang };
  postmortems?: PostmortemButtons | undefined;
}

const told = (text: Parameters<typeof textMessage>[0]): PressReply => ({ tell: textMessage(text) });

/** "postmortem-prod-vision-web-2026-11-27.md": a file name of the incident, safe on every platform. */
function draftFileName(incident: string, at: number): string {
  const day = new Date(at).toISOString().slice(0, 10);
  return `postmortem-${incident.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 180)}-${day}.md`;
}

const DAY_MS = 86_400_000;

/**
 * A press's answers are in its thread's language: the one the button's record keeps
 * (whoever started the thread), and before that is read (no records kept, Redis not
 * answering) the workspace's.
 */
export async function draftPostmortem(
  services: PostmortemServices,
  request: PressRequest,
  now = Date.now(),
): Promise<PressReply> {
  const drafts = services.postmortems;
  let lang = services.config.lang ?? DEFAULT_LANG;
  let w = wordsIn(POSTMORTEM_PRESS_WORDS, lang);
  if (!drafts) return told(w.noRecords({}));
  const message = subscribed(request.message);
  // One deadline for the answer's Redis calls (src/queue/deadline.ts), as every press.
  const deadline = deadlineIn(ANSWER_DEADLINE_MS);
  const redisDown = (error: unknown): PressReply => {
    services.logger.warn({ err: error }, 'post-mortem draft: Redis did not answer');
    return told(w.redisDown({ trouble: redisTroubleWords(error, lang), again: tryAgainWords(error, lang) }));
  };
  let button;
  try {
    button = await deadline.bound(drafts.of(message), 'read the post-mortem button');
  } catch (error) {
    return redisDown(error);
  }
  const days = Math.round(services.config.incidentRetentionMs / DAY_MS);
  if (button === null)
    return told(w.buttonGone({ days, command: 'rollout-doctor postmortem --from-audit FILE' }));
  const { incident, cluster, namespace } = button;
  lang = button.lang;
  w = wordsIn(POSTMORTEM_PRESS_WORDS, lang);
  const user = request.person.id;
  const channel = request.message.conversation.id;
  const read = await services.readPolicy.check({ user, channel, cluster, namespace });
  if (!read.allowed) {
    services.audit.record({
      action: 'refusal',
      planId: 'postmortem',
      cluster,
      namespace,
      user,
      reason: 'not-reader',
      detail: `channel ${channel}`,
    });
    return told(w.refused({ reason: read.reason }));
  }
  let log;
  try {
    log = await deadline.bound(drafts.read(incident), 'read the incident record');
  } catch (error) {
    return redisDown(error);
  }
  if (log.events.length === 0) {
    const command = `rollout-doctor postmortem --from-audit FILE --incident ${incident}`;
    return told(w.noRecord({ incident, days, command }));
  }
  const entries = log.events.length;
  let earlier: number | null;
  try {
    earlier = await deadline.bound(drafts.claimDraft(message, entries, now), 'claim the post-mortem draft');
  } catch (error) {
    return redisDown(error);
  }
  if (earlier !== null) return told(w.alreadyPosted({ incident, at: messageTime(earlier) }));
  const markdown = renderPostmortem(buildIncidentRecord(incident, log.events), { lang, zone: 'UTC' });
  const name = draftFileName(incident, now);
  const headline = w.headline({ incident, entries, at: messageTime(now) });
  const whole = w.whole({ command: `rollout-doctor postmortem --incident ${incident} --lang ${lang}` });
  const draft: DraftToPost = {
    file: { name, title: w.fileTitle({ incident }), text: markdown },
    comment: textMessage(headline),
    snippets: draftSnippets(headline, name, markdown, whole, lang),
    undelivered: textMessage(w.undelivered({ incident })),
    release: () => drafts.releaseDraft(message, entries),
    // Audited once posted, as the press's other outcomes are: who, which incident, what file.
    posted: (as) =>
      services.audit.record({
        action: 'postmortem',
        planId: 'postmortem',
        cluster,
        namespace,
        incident,
        user,
        channel,
        file: name,
        posted: as,
        entries,
      }),
  };
  return { draft };
}

/** Characters of the draft one snippet message quotes: within a Teams card's 28 KB, Korean and escapes included. */
export const SNIPPET_CHARS = 8_000;
/** Snippet messages one draft posts at most; the rest is the command's. */
export const SNIPPET_MESSAGES = 5;

/** `text` in pieces of at most `max` characters, cut after a line where one ends within the piece. */
function pieces(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const newline = rest.lastIndexOf('\n', max - 1);
    const cut = newline > 0 ? newline + 1 : max;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

/**
 * The draft as messages for a platform that posts no file: each quotes a piece of it as
 * code, whole (the adapter escapes it as any code body), at most SNIPPET_MESSAGES of
 * SNIPPET_CHARS; past that, the last one says how much more there is and the command
 * that drafts it whole.
 */
export function draftSnippets(
  headline: Rich,
  name: string,
  markdown: string,
  whole: Rich,
  lang: Lang = 'en',
): ChatMessage[] {
  const all = pieces(markdown, SNIPPET_CHARS);
  const shown = all.slice(0, SNIPPET_MESSAGES);
  const left = all.slice(SNIPPET_MESSAGES).reduce((n, piece) => n + piece.length, 0);
  return shown.map((body, i) => {
    const title = shown.length > 1 ? say`${name} (${i + 1}/${shown.length})` : say`${name}`;
    const last = i === shown.length - 1;
    const parts: Part[] = [
      ...(i === 0 ? [{ kind: 'paragraph' as const, text: headline }] : []),
      { kind: 'code', title, body, whole: true },
      ...(last
        ? [
            {
              kind: 'note' as const,
              text: left > 0 ? translate(POSTMORTEM_PRESS_WORDS, lang, 'moreChars', { left, whole }) : whole,
            },
          ]
        : []),
    ];
    return { summary: i === 0 ? headline : title, parts };
  });
}

/**
 * Posts a press's draft in `to` (the pressed message's thread): as a file where the
 * adapter posts files, else as its snippet message. When neither lands, the claim is
 * given back and the presser told.
 */
export async function postDraft(
  adapter: ChatAdapter,
  to: ConversationRef,
  person: PersonRef,
  draft: DraftToPost,
  logger: Pick<Logger, 'warn'>,
): Promise<void> {
  try {
    if (adapter.postFile) await adapter.postFile(to, draft.file, draft.comment);
    else for (const snippet of draft.snippets) await adapter.post(to, snippet);
  } catch (error) {
    logger.warn({ err: error }, 'post-mortem draft not posted');
    await draft.release().catch(() => undefined);
    await adapter.tell(person, to, draft.undelivered).catch(() => undefined);
    return;
  }
  draft.posted(adapter.postFile ? 'file' : 'snippets');
}
