/**
 * Prints what the app sends to the Teams stand-in's Bot Connector as it happens: new
 * activities (cards, thread replies) and card updates, as text (teams-render.ts).
 */
import type { TeamsStandin } from '../../test/support/teams-standin.js';
import type { SlackPrinter } from './slack-printer.js';
import { cleanText } from '../../src/text/clean.js';
import { renderActivity } from './teams-render.js';

export function startTeamsPrinter(
  teams: TeamsStandin,
  options: {
    color: boolean;
    write: (line: string) => void;
    /** How to name a channel conversation (19:…) in the bar; its id otherwise. */
    channelNames?: Readonly<Record<string, string>>;
  },
): SlackPrinter {
  const where = (path: string, body: Record<string, unknown>): string => {
    // POST /v3/conversations names its channel in channelData; the others in the path.
    const data = body.channelData as { channel?: { id?: unknown } } | undefined;
    const inPath = /^\/v3\/conversations\/([^/]+)/.exec(path)?.[1];
    const id =
      typeof data?.channel?.id === 'string' ? data.channel.id : inPath ? decodeURIComponent(inPath) : '';
    const channel = id.split(';')[0] ?? id;
    return options.channelNames?.[channel] ?? cleanText(channel, { singleLine: true });
  };
  let printed = 0;
  const bar = (label: string): string => (options.color ? `\u001b[35m${label}\u001b[39m` : label);
  const flush = (): void => {
    while (printed < teams.calls.length) {
      const call = teams.calls[printed];
      printed += 1;
      if (call === undefined) continue;
      if (call.status >= 300) {
        options.write(bar(`  Teams refused ${call.method} ${call.path}: HTTP ${call.status}`));
        continue;
      }
      // POST /v3/conversations opens a thread whose root is `activity`.
      const opens = call.path === '/v3/conversations';
      const activity = opens ? ((call.body.activity ?? {}) as Record<string, unknown>) : call.body;
      const head = call.method === 'PUT' ? 'card updated' : opens ? 'new thread' : 'new post';
      options.write('');
      options.write(bar(`┌─ Teams · ${head} in ${where(call.path, call.body)}`));
      for (const line of renderActivity(activity)) options.write(`${bar('│')} ${line}`);
      options.write(bar('└─'));
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
