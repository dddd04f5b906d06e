/**
 * A Slack press's lookups (PressLookups, src/chat/adapter.ts): a person's name through
 * users.info (./user-info.ts, cached and bounded), and the thread's link: its root's
 * permalink from chat.getPermalink (no scope needed), bounded; not read in time, it is
 * built from the workspace's domain the click carried
 * (`https://<domain>.slack.com/archives/<channel>/p<ts without the dot>`), else none.
 */
import type { webApi } from '@slack/bolt';
import type { PressLookups } from '../adapter.js';
import type { SlackUsers } from './user-info.js';

type Client = Pick<webApi.WebClient, 'users' | 'chat'>;

interface SlackThreadPlace {
  channel: string;
  /** The thread root's ts. */
  rootTs: string;
  /** The workspace's domain (`acme` of acme.slack.com), when the click carried it. */
  teamDomain?: string | undefined;
}

/** The permalink Slack gives for a workspace's message, built from its parts; undefined without a domain. */
export function builtPermalink(place: SlackThreadPlace): string | undefined {
  const domain = place.teamDomain;
  if (!domain || !/^[a-z0-9][a-z0-9-]{0,62}$/i.test(domain) || !/^[A-Z0-9]+$/.test(place.channel))
    return undefined;
  if (!/^\d+\.\d+$/.test(place.rootTs)) return undefined;
  return `https://${domain}.slack.com/archives/${place.channel}/p${place.rootTs.replace('.', '')}`;
}

async function permalink(
  client: Client,
  place: SlackThreadPlace,
  timeoutMs: number,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const asked = client.chat.getPermalink({ channel: place.channel, message_ts: place.rootTs });
    const answer = await Promise.race([asked, late]);
    return typeof answer?.permalink === 'string' ? answer.permalink : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export function slackPressLookups(
  client: Client,
  users: SlackUsers,
  place: SlackThreadPlace,
  timeoutMs = 500,
): PressLookups {
  return {
    nameOf: (person) => users.nameOf(client, person),
    threadLink: async () => (await permalink(client, place, timeoutMs)) ?? builtPermalink(place),
  };
}
