/**
 * Prints what the app sends to the Slack stand-in as it happens: new messages and
 * thread replies in full (verdict, evidence, buttons), progress updates on one line,
 * ephemeral answers marked as such.
 */
import type { SlackCall, SlackStandin } from '../../test/support/slack-standin.js';
import { renderMessage, type RenderOptions } from './slack-render.js';

type Json = Record<string, unknown>;

export interface SlackPrinter {
  /** Prints calls recorded since the last flush. */
  flush(): void;
  stop(): void;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const blocksOf = (args: Json): Json[] => (Array.isArray(args.blocks) ? (args.blocks as Json[]) : []);

/** A progress message: one section starting with the hourglass. */
function isProgress(blocks: readonly Json[]): boolean {
  const first = blocks[0]?.text as Json | undefined;
  return blocks.length === 1 && str(first?.text).startsWith(':hourglass_flowing_sand:');
}

export function startSlackPrinter(
  slack: SlackStandin,
  options: RenderOptions & { channels: Record<string, string>; write: (line: string) => void },
): SlackPrinter {
  let printed = 0;
  const channelName = (id: string): string => options.channels[id] ?? id;
  const bar = (label: string): string => (options.color ? `\u001b[36m${label}\u001b[39m` : label);

  const print = (call: SlackCall): void => {
    if (call.response.ok !== true) {
      if (call.method !== 'auth.test')
        options.write(bar(`  Slack refused ${call.method}: ${str(call.response.error)}`));
      return;
    }
    const args = call.args;
    const channel = channelName(str(args.channel));
    const blocks = blocksOf(args);
    const text = str(args.text);
    let head: string;
    switch (call.method) {
      case 'chat.postMessage':
        head = args.thread_ts ? `thread reply in ${channel}` : `new message in ${channel}`;
        break;
      case 'chat.update':
        if (isProgress(blocks)) {
          options.write(bar(`  ⋯ ${channel}: ${renderMessage({ text, blocks }, options).join(' ')}`));
          return;
        }
        head = `message updated in ${channel}`;
        break;
      case 'chat.postEphemeral':
        head = `only visible to @${str(args.user)} in ${channel}`;
        break;
      default:
        return;
    }
    options.write('');
    options.write(bar(`┌─ Slack · ${head}`));
    for (const line of renderMessage({ text, blocks }, options)) options.write(`${bar('│')} ${line}`);
    options.write(bar('└─'));
  };

  const flush = (): void => {
    while (printed < slack.calls.length) {
      const call = slack.calls[printed];
      printed += 1;
      if (call) print(call);
    }
  };
  const timer = setInterval(flush, 50);
  return {
    flush,
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}
