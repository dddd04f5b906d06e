/**
 * Block Kit to terminal text, for the demo: what the Slack client would show, with
 * mrkdwn reduced to plain text (bold in colour when the terminal has it), emoji
 * names as symbols, code blocks indented, and buttons as [Label].
 */

type Json = Record<string, unknown>;

export interface RenderOptions {
  /** ANSI bold for *bold* and dim for context lines. */
  color: boolean;
}

/** Every emoji shortcode the app renders (src/chat/slack/render.ts SLACK_ICONS, test/unit/demo-emoji.test.ts) and a few more. */
export const EMOJI: Record<string, string> = {
  red_circle: '🔴',
  large_orange_circle: '🟠',
  large_blue_circle: '🔵',
  white_check_mark: '✅',
  warning: '⚠️ ',
  x: '❌',
  rocket: '🚀',
  gear: '⚙️ ',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️ ',
  no_entry: '⛔',
  mag: '🔍',
  page_facing_up: '📄',
  rotating_light: '🚨',
  fire: '🔥',
  large_green_circle: '🟢',
  stethoscope: '🩺',
  lock: '🔒',
  calendar: '📅',
  wrench: '🔧',
  thread: '🧵',
  bar_chart: '📊',
  scroll: '📜',
  memo: '📝',
  traffic_light: '🚥',
  leftwards_arrow_with_hook: '↩️ ',
  pushpin: '📌',
  grey_question: '❔',
  link: '🔗',
  double_vertical_bar: '⏸️ ',
  arrows_counterclockwise: '🔄',
  arrow_down_small: '🔽',
  electric_plug: '🔌',
  scales: '⚖️ ',
  repeat: '🔁',
  no_entry_sign: '🚫',
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const textOf = (t: unknown): string => (typeof t === 'object' && t !== null ? str((t as Json).text) : '');

/** Slack mrkdwn → terminal text. Code fences are handled by the caller. */
export function mrkdwnToText(mrkdwn: string, options: RenderOptions): string {
  return (
    mrkdwn
      .replace(/:([a-z0-9_+-]+):/g, (all, name: string) => EMOJI[name] ?? all)
      .replace(/<@([A-Z0-9]+)>/g, '@$1')
      .replace(/<#([A-Z0-9]+)(\|[^>]*)?>/g, '#$1')
      .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
      // ~struck~ (a resolved verdict): struck through where the terminal can, else plain.
      .replace(/(^|[\s(])~([^~\n]+)~/g, (_all, pre: string, inner: string) =>
        options.color ? `${pre}\u001b[9m${inner}\u001b[29m` : `${pre}${inner}`,
      )
      .replace(/(^|[\s(])\*([^*\n]+)\*/g, (_all, pre: string, inner: string) =>
        options.color ? `${pre}\u001b[1m${inner}\u001b[22m` : `${pre}${inner}`,
      )
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  );
}

/** A mrkdwn text with ``` fences: prose converted, code kept verbatim and indented. */
function richText(mrkdwn: string, options: RenderOptions): string[] {
  const parts = mrkdwn.split('```');
  const lines: string[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      // Slack shows &lt; &gt; &amp; inside code blocks as the characters, like in prose.
      const code = part.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      for (const line of code.replace(/^\n/, '').replace(/\n$/, '').split('\n')) lines.push(`    ${line}`);
    } else if (part.trim() !== '') {
      lines.push(...mrkdwnToText(part.replace(/^\n+|\n+$/g, ''), options).split('\n'));
    }
  });
  return lines;
}

function buttonLabel(element: Json): string {
  const style = str(element.style);
  return `[${textOf(element.text)}]${style === 'primary' ? '*' : style === 'danger' ? '!' : ''}`;
}

/** One block as lines of text. */
export function renderBlock(block: Json, options: RenderOptions): string[] {
  switch (block.type) {
    case 'section': {
      const lines = richText(textOf(block.text), options);
      for (const field of Array.isArray(block.fields) ? (block.fields as Json[]) : []) {
        lines.push(...richText(str(field.text), options));
      }
      return lines;
    }
    case 'header':
      return [mrkdwnToText(textOf(block.text), options).toUpperCase()];
    case 'context': {
      const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
      const line = elements.map((e) => mrkdwnToText(str(e.text), options)).join('  ');
      return [options.color ? `\u001b[2m${line}\u001b[22m` : line];
    }
    case 'actions': {
      const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
      return [elements.map(buttonLabel).join(' ')];
    }
    case 'divider':
      return ['────────'];
    default:
      return [];
  }
}

/** A whole message: blocks when it has them, else its text. */
export function renderMessage(
  message: { text: string; blocks: readonly Json[] },
  options: RenderOptions,
): string[] {
  if (message.blocks.length === 0) return mrkdwnToText(message.text, options).split('\n');
  return message.blocks.flatMap((b) => renderBlock(b, options));
}
