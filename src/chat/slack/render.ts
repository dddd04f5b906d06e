/**
 * The chat port's messages (src/chat/model.ts) as Slack mrkdwn and Block Kit. Every
 * text span goes through escapeMrkdwn (blocks/mrkdwn.ts): the port carries no markup,
 * so bold, code, mentions and links exist only where a structured span asked for
 * them, and the limits of DESIGN.md §6 are kept by the builders of blocks/text.ts.
 */
import type { Button, ChatMessage, Choice, Icon, Part, PersonRef, Rich, Span } from '../model.js';
import { encodeAction } from './actions.js';
import { ACTION, ROOT_BLOCK } from './blocks/action-ids.js';
import {
  approverMention,
  escapeMrkdwn,
  inlineCode,
  asIs,
  joinMrkdwn,
  mrkdwn,
  trusted,
  userMention,
  type Mrkdwn,
} from './blocks/mrkdwn.js';
import { LIMITS, codeSections, context, plain, proseSections, type Block } from './blocks/text.js';
import { table } from '../../message/evidence.js';
import { openableUrl } from '../../message/rich.js';

/** This adapter's platform name, as person and conversation refs carry it. */
export const SLACK = 'slack';

/** The emoji shortcode of each icon (a new icon in the port fails to compile until mapped). */
export const SLACK_ICONS: Readonly<Record<Icon, string>> = {
  ok: 'white_check_mark',
  warning: 'warning',
  refused: 'no_entry',
  failed: 'x',
  expired: 'hourglass',
  waiting: 'hourglass_flowing_sand',
  undo: 'leftwards_arrow_with_hook',
  diagnosing: 'stethoscope',
  inspect: 'mag',
  working: 'gear',
  fix: 'wrench',
  thread: 'thread',
  paused: 'double_vertical_bar',
  superseded: 'arrows_counterclockwise',
  more: 'arrow_down_small',
  log: 'scroll',
  alert: 'rotating_light',
  pinned: 'pushpin',
  note: 'memo',
  unknown: 'grey_question',
  connection: 'electric_plug',
  calendar: 'calendar',
  progress: 'traffic_light',
  balance: 'scales',
  'rolled-out': 'rocket',
  repeat: 'repeat',
  red: 'red_circle',
  orange: 'large_orange_circle',
  blue: 'large_blue_circle',
  report: 'page_facing_up',
  forbidden: 'no_entry_sign',
  locked: 'lock',
  link: 'link',
  info: 'information_source',
  chart: 'bar_chart',
};

const one = (text: string): Mrkdwn => escapeMrkdwn(text, { singleLine: true });

/** A person: a mention when the id is a Slack user's, else the name or id as text. */
function person(ref: PersonRef): Mrkdwn {
  return ref.platform === SLACK ? userMention(ref.id) : one(ref.name ?? ref.id);
}

/** A link Slack cannot misread: http(s), no credentials, nothing that ends `<url|label>` early; else its label. */
function link(url: string, label: string): Mrkdwn {
  const parsed = openableUrl(url);
  const ok = parsed !== undefined && !/[<>|\s]/.test(parsed.href);
  return ok ? (`<${parsed.href.replace(/&/g, '&amp;')}|${one(label)}>` as Mrkdwn) : one(label);
}

function span(s: Span): Mrkdwn {
  switch (s.kind) {
    case 'text':
      return one(s.text);
    case 'strong':
      return `*${one(s.text)}*` as Mrkdwn;
    case 'emphasis':
      return `_${one(s.text)}_` as Mrkdwn;
    case 'code':
      return inlineCode(s.text);
    case 'mention':
      return person(s.person);
    case 'group':
      return s.platform === SLACK ? approverMention(s.id) : one(s.id);
    case 'link':
      return link(s.url, s.label);
    case 'icon':
      return `:${SLACK_ICONS[s.icon]}:` as Mrkdwn;
    case 'break':
      return trusted('\n');
  }
}

/** Inline content as mrkdwn, every text span escaped. */
export function toMrkdwn(content: Rich): Mrkdwn {
  return joinMrkdwn(content.map(span), '');
}

/** A button as a Block Kit button element; `index` keeps action ids distinct in one block. */
function button(b: Button, index: number): Block {
  const { actionId, value } = encodeAction(b.action, index);
  return {
    type: 'button',
    action_id: actionId,
    ...(b.style ? { style: b.style } : {}),
    text: plain(b.label, LIMITS.buttonText),
    value,
    ...(b.confirm
      ? {
          confirm: {
            title: plain(b.confirm.title, LIMITS.confirmTitle),
            text: plain(b.confirm.text, LIMITS.confirmText),
            confirm: plain(b.confirm.yes, LIMITS.confirmButton),
            deny: plain(b.confirm.no, LIMITS.confirmButton),
          },
        }
      : {}),
  };
}

/**
 * A button's choice as a static select beside it, its action id the button's index
 * suffixed (blocks/action-ids.ts ACTION.lasts): its first option chosen until changed.
 */
function choiceSelect(choice: Choice, index: number): Block {
  const options = choice.options.map((o) => ({ text: plain(o.label, LIMITS.optionText), value: o.value }));
  return {
    type: 'static_select',
    action_id: `${ACTION.lasts}.${index}`,
    placeholder: plain(choice.label, LIMITS.optionText),
    options,
    ...(options[0] ? { initial_option: options[0] } : {}),
  };
}

/** A button, after its choice when it has one. */
function buttonElements(b: Button, index: number): Block[] {
  return b.choice ? [choiceSelect(b.choice, index), button(b, index)] : [button(b, index)];
}

/** Code under an optional title, over as many sections as it needs. */
function code(title: Rich | undefined, body: string, whole: boolean): Block[] {
  const blocks = codeSections(toMrkdwn(title ?? []), body, { whole });
  if (title && title.length > 0) return blocks;
  // No title: the first section starts with the fence, not an empty line.
  const [first, ...rest] = blocks as { type: string; text: { type: string; text: string } }[];
  return first
    ? [{ ...first, text: { ...first.text, text: first.text.text.replace(/^\n/, '') } }, ...rest]
    : [];
}

function part(p: Part): Block[] {
  switch (p.kind) {
    case 'heading':
      return [{ type: 'header', text: plain(p.text, LIMITS.headerText) }];
    case 'paragraph': {
      const [first, ...rest] = proseSections(toMrkdwn(p.text));
      if (!first) return [];
      return [p.role ? { ...first, block_id: ROOT_BLOCK[p.role] } : first, ...rest];
    }
    case 'note':
      return [context(toMrkdwn(p.text))];
    case 'code':
      return code(p.title, p.body, p.whole === true);
    case 'table':
      return code(
        p.title,
        table(
          [...p.header],
          p.rows.map((r) => [...r]),
        ),
        false,
      );
    case 'actions':
      return p.buttons.length === 0 ? [] : [{ type: 'actions', elements: p.buttons.flatMap(buttonElements) }];
    case 'divider':
      return [{ type: 'divider' }];
  }
}

/** A rendered message: the fallback text (notifications) and the blocks (at most 50). */
export interface SlackRendering {
  text: Mrkdwn;
  blocks: Block[];
}

/** Slack refuses messages far below the per-block limits (~13k characters in blocks). */
export const MAX_BLOCKS_CHARS = 11_000;
/** Blocks per thread-report message: below Slack's 50, with room for the part line. */
const THREAD_BLOCKS = 45;

const fits = (blocks: readonly Block[]): boolean =>
  blocks.length <= LIMITS.blocks && JSON.stringify(blocks).length <= MAX_BLOCKS_CHARS;

/** A message as Slack shows it: its brief form when the whole does not fit Slack's limits. */
export function renderMessage(message: ChatMessage): SlackRendering {
  let blocks = message.parts.flatMap(part);
  if (message.brief && !fits(blocks)) blocks = message.brief.flatMap(part);
  return {
    text: toMrkdwn(message.summary),
    blocks: blocks.length > LIMITS.blocks ? blocks.slice(0, LIMITS.blocks) : blocks,
  };
}

/**
 * A thread report (src/chat/use-cases/result.ts) as replies: its blocks packed into
 * messages within Slack's per-message limits, in order, never splitting a block; a
 * report of several messages says which part each one is.
 */
export function renderThreadReport(messages: readonly ChatMessage[]): SlackRendering[] {
  return messages.flatMap((message) => {
    const summary = toMrkdwn(message.summary);
    const groups: Block[][] = [];
    let current: Block[] = [];
    let size = 0;
    for (const block of message.parts.flatMap(part)) {
      const cost = JSON.stringify(block).length + 1;
      if (current.length > 0 && (current.length >= THREAD_BLOCKS || size + cost > MAX_BLOCKS_CHARS - 400)) {
        groups.push(current);
        current = [];
        size = 0;
      }
      current.push(block);
      size += cost;
    }
    if (current.length) groups.push(current);
    const n = groups.length;
    return groups.map((group, i) => ({
      text: n > 1 ? mrkdwn`${asIs(summary)} (part ${i + 1} of ${n})` : summary,
      blocks: n > 1 ? [context(mrkdwn`Full report, part ${i + 1} of ${n}`), ...group] : group,
    }));
  });
}

/** A run's message and, under a final result, its thread report, as Slack posts them. */
export interface SlackRun extends SlackRendering {
  thread: SlackRendering[];
}

export function renderRun(run: { message: ChatMessage; thread: readonly ChatMessage[] }): SlackRun {
  return { ...renderMessage(run.message), thread: renderThreadReport(run.thread) };
}
