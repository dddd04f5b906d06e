/**
 * A Slack user's language: `users.info` with `include_locale` (scope users:read), the
 * user's `locale` (`ko-KR`) read as one of our languages. Asked inside the command's
 * 3-second window, so bounded (`timeoutMs`; past it, or on any error, the answer is
 * "not known" and the workspace's language applies) and cached per user (`ttlMs`; a
 * failure for a shorter while), in a bounded map: a flood of users cannot grow it.
 */
import type { webApi } from '@slack/bolt';
import { parseLang, type Lang } from '../../i18n/lang.js';
import { Lru } from '../../lru.js';

export interface SlackLocales {
  /** The user's language, or undefined when Slack's locale names none we have or could not be read in time. */
  langOf(client: Pick<webApi.WebClient, 'users'>, user: string): Promise<Lang | undefined>;
}

export interface SlackLocaleOptions {
  ttlMs?: number;
  timeoutMs?: number;
  max?: number;
  now?: () => number;
}

export function createSlackLocales(options: SlackLocaleOptions = {}): SlackLocales {
  const ttlMs = options.ttlMs ?? 6 * 3600_000;
  const timeoutMs = options.timeoutMs ?? 500;
  const now = options.now ?? (() => Date.now());
  const cache = new Lru<string, { lang: Lang | undefined; until: number }>(options.max ?? 10_000);
  return {
    async langOf(client, user) {
      const known = cache.get(user);
      if (known && known.until > now()) return known.lang;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs);
      });
      try {
        const answer = await Promise.race([client.users.info({ user, include_locale: true }), late]);
        if (answer === 'late') return undefined;
        const lang = parseLang(answer.user?.locale);
        cache.set(user, { lang, until: now() + ttlMs });
        return lang;
      } catch {
        // No scope, rate limited, unknown user: the workspace's language, asked again in a minute.
        cache.set(user, { lang: undefined, until: now() + 60_000 });
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
