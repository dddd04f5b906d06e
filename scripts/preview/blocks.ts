/**
 * Block Kit to render-tree nodes, as the Slack client lays a message out: header,
 * section (text, fields, accessory), context, divider, actions (buttons with their
 * style and confirm dialog), rich_text and image (its alt text: the page loads
 * nothing from outside loopback). Unknown blocks are named, not dropped.
 */
import { STATUS_ACTION_PATTERN } from '../../src/chat/slack/blocks/action-ids.js';
import { mrkdwnNodes, plainNodes } from './mrkdwn.js';
import { el, type ButtonSpec, type ConfirmSpec, type RNode } from './render-tree.js';

type Json = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const arr = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter((x): x is Json => obj(x) !== undefined) : [];

/** A text object: mrkdwn or plain_text. */
export function textObject(t: unknown): RNode[] {
  const o = obj(t);
  if (!o) return [];
  if (o.type === 'mrkdwn') return mrkdwnNodes(str(o.text));
  return plainNodes(str(o.text), o.emoji !== false);
}

/** Where a button sits, so a click can name it as Slack does. */
export interface ButtonPlace {
  channel: string;
  ts: string;
  blockId: string;
}

function confirmOf(c: unknown): ConfirmSpec | undefined {
  const o = obj(c);
  if (!o) return undefined;
  return {
    title: str(obj(o.title)?.text) || 'Are you sure?',
    text: textObject(o.text),
    confirm: str(obj(o.confirm)?.text) || 'Yes',
    deny: str(obj(o.deny)?.text) || 'Cancel',
    ...(typeof o.style === 'string' ? { style: o.style } : {}),
  };
}

/**
 * A button. The app turns an approved plan's button into a status button (its
 * action only reports the plan's state): the page shows it disabled.
 */
export function buttonNode(element: Json, place: ButtonPlace | undefined): RNode {
  const actionId = str(element.action_id);
  const style = str(element.style);
  const disabled = STATUS_ACTION_PATTERN.test(actionId);
  const classes = ['btn', style === 'primary' || style === 'danger' ? style : '', disabled ? 'disabled' : '']
    .filter(Boolean)
    .join(' ');
  const confirm = confirmOf(element.confirm);
  const spec: ButtonSpec | undefined = place
    ? {
        ...place,
        actionId,
        ...(disabled ? { disabled: true } : {}),
        ...(confirm ? { confirm } : {}),
      }
    : undefined;
  return el('button', classes, plainNodes(str(obj(element.text)?.text)), {
    data: { actionId, ...(style ? { style } : {}) },
    ...(spec ? { button: spec } : {}),
  });
}

/** An interactive element other than a button, named (the preview does not run selects). */
function elementNode(element: Json, place: ButtonPlace | undefined): RNode {
  if (element.type === 'button') return buttonNode(element, place);
  if (element.type === 'image') return el('span', 'img-alt', [`[image: ${str(element.alt_text)}]`]);
  const placeholder = str(obj(element.placeholder)?.text);
  return el('span', 'unsupported', [`[${str(element.type)}${placeholder ? `: ${placeholder}` : ''}]`]);
}

/** rich_text inline elements (text with style, link, emoji, user, channel). */
function richInline(elements: Json[]): RNode[] {
  return elements.map((e): RNode => {
    switch (e.type) {
      case 'text': {
        const style = obj(e.style) ?? {};
        let node: RNode = str(e.text);
        if (style.code === true) node = el('code', undefined, [node]);
        if (style.strike === true) node = el('s', undefined, [node]);
        if (style.italic === true) node = el('i', undefined, [node]);
        if (style.bold === true) node = el('b', undefined, [node]);
        return node;
      }
      case 'link': {
        const url = str(e.url);
        const label = str(e.text) || url;
        return /^(https?:\/\/|mailto:)/i.test(url)
          ? el('a', undefined, [label], { href: url, title: url })
          : el('span', 'link-unsafe', [label], { title: url });
      }
      case 'emoji':
        return plainNodes(`:${str(e.name)}:`)[0] ?? '';
      case 'user':
        return el('span', 'mention', [`@${str(e.user_id)}`]);
      case 'channel':
        return el('span', 'mention', [`#${str(e.channel_id)}`]);
      case 'usergroup':
        return el('span', 'mention', [`@${str(e.usergroup_id)}`]);
      default:
        return str(e.text);
    }
  });
}

function richText(block: Json): RNode[] {
  return arr(block.elements).map((part): RNode => {
    const inner = richInline(arr(part.elements));
    switch (part.type) {
      case 'rich_text_preformatted':
        return el('pre', undefined, inner);
      case 'rich_text_quote':
        return el('blockquote', undefined, inner);
      case 'rich_text_list':
        return el(
          part.style === 'ordered' ? 'ol' : 'ul',
          undefined,
          arr(part.elements).map((item) => el('li', undefined, richInline(arr(item.elements)))),
        );
      default:
        return el('div', undefined, inner);
    }
  });
}

/** One block; `place` (channel, ts) makes its buttons clickable, absent for a dialog preview. */
export function blockNode(
  block: Json,
  index: number,
  where: { channel: string; ts: string } | undefined,
): RNode {
  const blockId = typeof block.block_id === 'string' ? block.block_id : `b${index}`;
  const place = where ? { ...where, blockId } : undefined;
  const type = str(block.type);
  const data = { blockType: type };
  switch (type) {
    case 'section': {
      const main: RNode[] = [];
      if (block.text !== undefined) main.push(el('div', 'text', textObject(block.text)));
      const fields = arr(block.fields);
      if (fields.length > 0)
        main.push(
          el(
            'div',
            'fields',
            fields.map((f) => el('div', 'field', textObject(f))),
          ),
        );
      const accessory = obj(block.accessory);
      const parts: RNode[] = [el('div', 'section-main', main)];
      if (accessory) parts.push(el('div', 'accessory', [elementNode(accessory, place)]));
      return el('div', 'block section', parts, { data });
    }
    case 'header':
      return el('h3', 'block header', textObject(block.text), { data });
    case 'context':
      return el(
        'div',
        'block context',
        arr(block.elements).map((e) =>
          e.type === 'image'
            ? el('span', 'img-alt', [`[${str(e.alt_text)}]`])
            : el('span', 'context-item', textObject(e)),
        ),
        { data },
      );
    case 'divider':
      return el('hr', 'block divider', [], { data });
    case 'actions':
      return el(
        'div',
        'block actions',
        arr(block.elements).map((e) => elementNode(e, place)),
        { data },
      );
    case 'rich_text':
      return el('div', 'block rich-text', richText(block), { data });
    case 'image':
      return el('div', 'block img-alt', [`[image: ${str(block.alt_text) || str(block.image_url)}]`], {
        data,
      });
    default:
      return el('div', 'block unsupported', [`[${type || 'unknown'} block]`], { data });
  }
}

/** A message body: its blocks when it has them (text is then only the notification), else its text. */
export function messageBody(
  message: { text: string; blocks: readonly Json[] },
  where: { channel: string; ts: string } | undefined,
): RNode[] {
  if (message.blocks.length === 0)
    return [el('div', 'block section', [el('div', 'text', mrkdwnNodes(message.text))])];
  return message.blocks.map((b, i) => blockNode(b, i, where));
}
