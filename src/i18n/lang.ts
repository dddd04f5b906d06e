/**
 * The languages a person can read rollout-doctor in, and how a reader's language is
 * found from what their platform or shell says (a Slack locale `ko-KR`, a Teams
 * activity's `locale`, `LANG=ko_KR.UTF-8`). Codes, JSON fields, exit codes and metric
 * names never translate; only sentences a person reads do. Pure.
 */
export const LANGS = ['en', 'ko'] as const;
export type Lang = (typeof LANGS)[number];

export const DEFAULT_LANG: Lang = 'en';

/**
 * The language a locale string names, or undefined when it names none we have.
 * Accepts BCP 47 (`ko-KR`, `en`), POSIX (`ko_KR.UTF-8`, `en_US@euro`) and bare codes,
 * in any case. `C` and `POSIX` are English.
 */
export function parseLang(locale: string | undefined | null): Lang | undefined {
  if (typeof locale !== 'string') return undefined;
  const trimmed = locale.trim();
  if (trimmed === 'C' || trimmed === 'POSIX' || trimmed.startsWith('C.')) return 'en';
  const primary = /^([A-Za-z]{2,3})(?:[-_.@]|$)/.exec(trimmed)?.[1]?.toLowerCase();
  return LANGS.find((lang) => lang === primary);
}

/**
 * The first language of `candidates` we have, in order (a flag before the environment,
 * a user's locale before the workspace default), else English.
 */
export function firstLang(...candidates: readonly (string | undefined | null)[]): Lang {
  for (const candidate of candidates) {
    const lang = parseLang(candidate);
    if (lang !== undefined) return lang;
  }
  return DEFAULT_LANG;
}

/**
 * A shell's language as gettext picks it: LC_ALL, then LC_MESSAGES, then LANG, the
 * first one set and non-empty (an unknown one falls through to English, as a program
 * with no catalogue for it would).
 */
export function langFromEnvironment(env: Readonly<Record<string, string | undefined>>): Lang {
  const set = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  return firstLang(set);
}
