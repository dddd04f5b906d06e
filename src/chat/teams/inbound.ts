import { chatActionSchema, lastsOfChoice, type ChatAction } from '../actions.js';
import { parseLang } from '../../i18n/lang.js';
import type { ChatUseCases, PressReply } from '../adapter.js';
import type { Button, ChatMessage, Confirm, ConversationRef, MessageRef, PersonRef } from '../model.js';
import { say } from '../../message/rich.js';
import type { Logger } from '../../logger.js';
import { commandText, type CardActionInvoke, type ChannelAccount, type MessageActivity } from './activity.js';
import { conversationRef, TEAMS, type TeamsAdapter } from './adapter.js';
import { CARD_CONTENT_TYPE, choiceInputId, renderCard, runText, VERBS } from './cards.js';
import { chosenWords, withoutChoices } from './choice.js';
import type { CardActionResponse, TeamsActivityHandlers } from './endpoint.js';
import { applyMark, editPressed, offeredButton } from './mark.js';
import { postDraft } from '../use-cases/postmortem-press.js';
import { teamsPressLookups } from './press-lookups.js';

/**
 * The Teams side of the chat port's inbound half: a message to the bot is a command
 * (`@rollout-doctor diagnose deployment/web -n shop`), an `Action.Execute` is a card
 * refresh (`refresh`: the card as this viewer may see it), a confirm step (`confirm`:
 * the card again with the button's question) or a press (`press`). Presses go to the
 * port's use-cases, which check the approver, claim the plan once and enforce the
 * two-person rule; this file only decodes, checks that the card offered the action,
 * and renders.
 */

interface TeamsInboundOptions {
  useCases: ChatUseCases;
  adapter: TeamsAdapter;
  /** May this person approve anywhere (enables Approve in their view; the press checks the plan's scope). */
  mayApprove(person: PersonRef): Promise<boolean>;
  /** Called with every verified sender (learns Teams user ids and service URLs). */
  seen(account: ChannelAccount, conversationId: string, serviceUrl: string): void;
  logger: Pick<Logger, 'warn' | 'error' | 'info'>;
}

/** The person behind an activity: their Entra object id, which policy lists. */
function personOf(from: ChannelAccount): PersonRef | undefined {
  if (from.aadObjectId === undefined) return undefined;
  return { platform: TEAMS, id: from.aadObjectId.toLowerCase(), ...(from.name ? { name: from.name } : {}) };
}

const cardResponse = (card: Record<string, unknown>): CardActionResponse => ({
  statusCode: 200,
  type: CARD_CONTENT_TYPE,
  value: card,
});
const textResponse = (text: string): CardActionResponse => ({
  statusCode: 200,
  type: 'application/vnd.microsoft.activity.message',
  value: runText(text),
});
const refused = (statusCode: 400 | 403, message: string): CardActionResponse => ({
  statusCode,
  type: 'application/vnd.microsoft.error',
  value: { code: statusCode === 400 ? 'BadRequest' : 'Forbidden', message },
});

/** `told` above the message, as one viewer's card shows it. */
function withTold(message: ChatMessage, told: ChatMessage | undefined): ChatMessage {
  if (told === undefined) return message;
  const first = told.parts.length > 0 ? told.parts : [{ kind: 'paragraph' as const, text: told.summary }];
  return { summary: message.summary, parts: [...first, { kind: 'divider' }, ...message.parts] };
}

/**
 * Invoke activity ids seen recently: a press delivered again (the connector retrying, or
 * a captured request replayed while its token is valid) is answered without reaching the
 * use-cases a second time. One process's memory, on purpose: it is a cheap first filter.
 * Across replicas what a press does is decided in Redis (the plan's single-use claim,
 * each approver counted once, the command budget), so a replay to another replica
 * applies nothing twice (docs/teams.md, Replays; test/hostile/teams-approvals.test.ts).
 */
function replayGuard(max = 10_000, windowMs = 3_600_000, now = Date.now) {
  const seen = new Map<string, number>();
  return (id: string): boolean => {
    const at = seen.get(id);
    if (at !== undefined && now() - at < windowMs) return true;
    seen.delete(id);
    seen.set(id, now());
    while (seen.size > max) {
      const oldest = seen.keys().next().value;
      if (oldest === undefined) break;
      seen.delete(oldest);
    }
    return false;
  };
}

export function teamsInbound(options: TeamsInboundOptions): TeamsActivityHandlers {
  const { useCases, adapter, logger } = options;
  const replayed = replayGuard();
  const background = (what: string, work: Promise<unknown>): void => {
    work.catch((error: unknown) =>
      logger.error({ err: error instanceof Error ? error : new Error(String(error)) }, what),
    );
  };

  const startRun = (
    where: ConversationRef,
    person: PersonRef,
    run: NonNullable<PressReply['started']>,
  ): void =>
    background(
      'teams announcement failed',
      useCases.announce(adapter, where, run).then(async (ref) => {
        if (ref === null) await adapter.tell(person, where, run.cannotPost);
      }),
    );

  const viewFor = async (person: PersonRef, message: ChatMessage, refreshUserIds: readonly string[]) =>
    renderCard(message, { viewer: { mayApprove: await options.mayApprove(person) }, refreshUserIds });

  const press = async (
    person: PersonRef,
    ref: MessageRef,
    message: ChatMessage,
    refreshUserIds: readonly string[],
    action: Parameters<ChatUseCases['press']>[0]['action'],
  ): Promise<CardActionResponse> => {
    const root: MessageRef = { conversation: ref.conversation, id: ref.conversation.thread ?? ref.id };
    const lookups = teamsPressLookups(person);
    const reply = await useCases.press({ person, message: ref, root, action, lookups });
    let shown = message;
    if (reply.replace) shown = reply.replace;
    else if (reply.mark) shown = applyMark(message, reply.mark);
    if (shown !== message || reply.root)
      background('teams card update failed', editPressed(adapter, ref, message, shown, reply));
    if (reply.started) startRun({ ...ref.conversation, thread: root.id }, person, reply.started);
    // A post-mortem draft: a reply in the thread quoting it (a Teams bot attaches a file in
    // a channel only through SharePoint), after the invoke is answered.
    if (reply.draft)
      background(
        'teams post-mortem draft failed',
        postDraft(adapter, { ...ref.conversation, thread: root.id }, person, reply.draft, logger),
      );
    return cardResponse(await viewFor(person, withTold(shown, reply.tell), refreshUserIds));
  };

  return {
    async message(activity: MessageActivity) {
      options.seen(activity.from, activity.conversation.id, activity.serviceUrl);
      const person = personOf(activity.from);
      const conversation = conversationRef(activity.conversation.id);
      if (person === undefined) {
        logger.warn(
          { conversationType: activity.conversation.conversationType },
          'teams message without an Entra user',
        );
        return;
      }
      const lang = parseLang(activity.locale);
      const reply = await useCases.command({
        person,
        conversation,
        text: commandText(activity),
        ...(lang ? { lang } : {}),
      });
      if (reply.kind === 'private')
        background('teams reply failed', adapter.tell(person, conversation, reply.message));
      else startRun(conversation, person, reply.run);
    },

    async cardAction(activity: CardActionInvoke) {
      options.seen(activity.from, activity.conversation.id, activity.serviceUrl);
      const person = personOf(activity.from);
      if (person === undefined) return refused(403, 'No Entra user');
      if (activity.replyToId === undefined) return refused(400, 'No card');
      const ref: MessageRef = {
        conversation: conversationRef(activity.conversation.id),
        id: activity.replyToId,
      };
      const record = await adapter.record(ref);
      if (record === undefined)
        return textResponse('This card is no longer followed: run the command again.');
      const { verb, data } = activity.value.action;
      if (verb === VERBS.refresh)
        return cardResponse(await viewFor(person, record.message, record.refreshUserIds));
      const parsed = chatActionSchema.safeParse(data?.action);
      if (!parsed.success || (verb !== VERBS.press && verb !== VERBS.confirm)) {
        logger.warn({ verb: verb.slice(0, 32) }, 'teams press refused: not an action');
        return refused(400, 'Unknown action');
      }
      const button = offeredButton(record.message, parsed.data);
      if (button === undefined) {
        logger.warn({ kind: parsed.data.kind }, 'teams press refused: the card does not offer it');
        return refused(400, 'This card does not offer that action');
      }
      const action = verb === VERBS.confirm ? chosenAction(button, parsed.data, data) : parsed.data;
      if (action === null) {
        logger.warn({ kind: parsed.data.kind }, 'teams press refused: a choice none of the options has');
        return refused(400, 'That choice is not offered');
      }
      if (verb === VERBS.confirm && button.confirm) {
        const asking = confirmQuestion(button.confirm, button, action);
        const shown = withTold(withoutChoices(record.message), asking);
        const card = await viewFor(person, shown, record.refreshUserIds);
        return cardResponse(confirmVerbs(card));
      }
      if (activity.id !== undefined && replayed(`${activity.conversation.id}\u0000${activity.id}`)) {
        logger.warn({ kind: parsed.data.kind }, 'teams press refused: delivered again');
        return textResponse('This press was already handled.');
      }
      return press(person, ref, record.message, record.refreshUserIds, action);
    },
  };
}

/**
 * The action a confirm step asks about: with the choice beside an Apply (how long an
 * exclusion lasts) read from the card's input, which the question shows and "yes"
 * carries in the action itself; null for a value none of the options has.
 */
function chosenAction(
  button: Button,
  action: ChatAction,
  data: Record<string, unknown> | undefined,
): ChatAction | null {
  if (action.kind !== 'approve' || !button.choice) return action;
  const chosen = lastsOfChoice(data?.[choiceInputId(action.planId)]);
  return chosen === null ? null : { ...action, ...chosen };
}

/** The confirm step's question: the button's words, the choice made beside it, "yes" and "no". */
function confirmQuestion(confirm: Confirm, button: Button, action: ChatAction): ChatMessage {
  const { title, text, yes, no } = confirm;
  const lasting = action.kind === 'approve' && button.choice ? chosenWords(action, button.choice) : '';
  return {
    summary: say`${title}`,
    parts: [
      { kind: 'heading', text: title },
      { kind: 'paragraph', text: say`${text}${lasting ? ` ${lasting}` : ''}` },
      {
        kind: 'actions',
        buttons: [
          { label: yes, action, style: 'primary' },
          { label: no, action: { kind: 'status', planId: 'cancel' } },
        ],
      },
    ],
  };
}

/**
 * In the confirm card, "yes" presses for real and "no" only refreshes; neither asks
 * again. Rewrites the rendered actions: the first button of the question is `press`,
 * the second `refresh`.
 */
function confirmVerbs(card: Record<string, unknown>): Record<string, unknown> {
  const body = card.body as Record<string, unknown>[];
  const index = body.findIndex((b) => b.type === 'ActionSet');
  const set = body[index] as { actions: Record<string, unknown>[] } | undefined;
  if (set === undefined) return card;
  const [yes, no] = set.actions;
  const actions = [
    { ...yes, verb: VERBS.press },
    { ...no, verb: VERBS.refresh, data: {} },
  ];
  const copy = [...body];
  copy[index] = { ...set, actions };
  return { ...card, body: copy };
}
