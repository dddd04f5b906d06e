/**
 * What Slack says of a user, from one `users.info` with `include_locale` (scope
 * users:read): their language (the `locale`, `ko-KR`, read as one of our languages) and
 * their name (the profile's real name, else its display name: untrusted text, for a pull
 * request's "approved by"). Asked inside a press's or command's window, so bounded
 * (`timeoutMs`; past it, or on any error, the answer is "not known": the workspace's
 * language, the user's id) and cached per user (`ttlMs`; a failure for a shorter while),
 * in a bounded map: a flood of users cannot grow it.
 */
import type { webApi } from '@slack/bolt';
import { parseLang, type Lang } from '../../i18n/lang.js';
import { Lru } from '../../lru.js';

type UsersClient = Pick<webApi.WebClient, 'users'>;

export interface SlackUsers {
  /** The user's language, or undefined when Slack's locale names none we have or could not be read in time. */
  langOf(client: UsersClient, user: string): Promise<Lang | undefined>;
  /** The user's name, or undefined when Slack gave none or it could not be read in time. */
  nameOf(client: UsersClient, user: string): Promise<string | undefined>;
}

interface SlackUsersOptions {
  ttlMs?: number;
  timeoutMs?: number;
  max?: number;
  now?: () => number;
}

interface Known {
  lang: Lang | undefined;
  name: string | undefined;
}

type SlackUser = NonNullable<Awaited<ReturnType<UsersClient['users']['info']>>['user']>;

function nameOfUser(user: SlackUser | undefined): string | undefined {
  const names = [user?.profile?.real_name, user?.real_name, user?.profile?.display_name];
  return names.find((n): n is string => typeof n === 'string' && n.trim() !== '');
}

export function createSlackUsers(options: SlackUsersOptions = {}): SlackUsers {
  const ttlMs = options.ttlMs ?? 6 * 3600_000;
  const timeoutMs = options.timeoutMs ?? 500;
  const now = options.now ?? (() => Date.now());
  const cache = new Lru<string, Known & { until: number }>(options.max ?? 10_000);
  const known = async (client: UsersClient, user: string): Promise<Known | undefined> => {
    const kept = cache.get(user);
    if (kept && kept.until > now()) return kept;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    try {
      const answer = await Promise.race([client.users.info({ user, include_locale: true }), late]);
      if (answer === 'late') return undefined;
      const read = { lang: parseLang(answer.user?.locale), name: nameOfUser(answer.user) };
      cache.set(user, { ...read, until: now() + ttlMs });
      return read;
    } catch {
      // No scope, rate limited, unknown user: not known, asked again in a minute.
      cache.set(user, { lang: undefined, name: undefined, until: now() + 60_000 });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    langOf: async (client, user) => (await known(client, user))?.lang,
    nameOf: async (client, user) => (await known(client, user))?.name,
  };
}
