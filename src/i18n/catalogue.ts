/**
 * One catalogue for every sentence a person reads: each message is keyed and written
 * once per language as a function of the same typed parameters, so a language that
 * misses a message, or writes it with other parameters, fails the type check, and a
 * caller that passes a wrong or missing parameter does too.
 *
 * A message returns whatever its surface shows: a string for a terminal or Markdown,
 * `Rich` (built with message/rich.ts `say`, which keeps untrusted text as text) for chat.
 * Parameters that come from the cluster, an alert, a chat or Redis are passed as
 * parameters, never pasted into a literal, so the surface's escaping applies to them.
 *
 * @example
 *   const words = defineMessages({
 *     paused: { en: (p: { name: string }) => `${p.name} is paused`,
 *               ko: (p: { name: string }) => `${p.name} 롤아웃이 일시 중지되어 있습니다` },
 *   });
 *   translate(words, 'ko', 'paused', { name })
 */
import type { Lang } from './lang.js';

/** One message in every language, each a function of the same parameters. */
type Message<P, R = string> = { readonly [L in Lang]: (params: P) => R };

/** The parameters a message takes. */
export type ParamsOf<M> = M extends Message<infer P, unknown> ? P : never;
/** What a message returns. */
type ResultOf<M> = M extends Message<never, infer R> ? R : never;

/** Each message's other languages take English's parameters and return what it returns. */
type Complete<C> = {
  readonly [K in keyof C]: C[K] extends { readonly en: (params: infer P) => infer R } ? Message<P, R> : never;
};

/**
 * A set of messages, checked to be complete in every language. Use one per surface
 * or area (`postmortem/words.ts`, `report/words.ts`), so each stays small.
 */
export function defineMessages<C extends Complete<C>>(catalogue: C): C {
  return catalogue;
}

/** A message without parameters: the same words every time, one per language. */
export const phrase = (en: string, ko: string) => ({ en: (): string => en, ko: (): string => ko });

/** Message `key` of `catalogue` in `lang`. */
export function translate<C extends Record<string, Message<never, unknown>>, K extends keyof C & string>(
  catalogue: C,
  lang: Lang,
  key: K,
  ...params: object extends ParamsOf<C[K]> ? [] | [ParamsOf<C[K]>] : [ParamsOf<C[K]>]
): ResultOf<C[K]> {
  const message = catalogue[key] as unknown as Message<ParamsOf<C[K]>, ResultOf<C[K]>>;
  return message[lang]((params[0] ?? {}) as ParamsOf<C[K]>);
}

/**
 * The messages of `catalogue` bound to one reader's language: `words(lang).paused({ name })`.
 */
export function wordsIn<C extends Record<string, Message<never, unknown>>>(
  catalogue: C,
  lang: Lang,
): { readonly [K in keyof C]: (params: ParamsOf<C[K]>) => ResultOf<C[K]> } {
  const bound: Record<string, (params: unknown) => unknown> = {};
  for (const key of Object.keys(catalogue)) {
    const message = catalogue[key] as unknown as Message<unknown, unknown>;
    bound[key] = (params) => message[lang](params);
  }
  return bound as { readonly [K in keyof C]: (params: ParamsOf<C[K]>) => ResultOf<C[K]> };
}

/**
 * Sample parameters for every message of a catalogue, one or more sets each: the
 * completeness test (test/unit/i18n-catalogue.test.ts) calls every message in every
 * language with each set. The type asks for every key, so a new message needs samples.
 */
type Samples<C> = { readonly [K in keyof C]: readonly ParamsOf<C[K]>[] };

interface RegisteredCatalogue {
  readonly messages: Record<string, Message<never, unknown>>;
  readonly samples: Readonly<Record<string, readonly unknown[]>>;
  /**
   * Registered without samples: its messages are complete in every language (the type
   * check), but the tests cannot render them, so neither parameters nor the glossary are
   * checked. Only the catalogues test/unit/i18n-catalogue.test.ts names may be so.
   */
  readonly unsampled?: true;
}

/** Every catalogue registered for the completeness and glossary tests. */
const REGISTERED = new Map<string, RegisteredCatalogue>();

/**
 * Registers `catalogue` under `name`, with sample parameters for each message, so the
 * tests check it whole in every language and hold its Korean to the glossary.
 */
export function registerCatalogue<C extends Record<string, Message<never, unknown>>>(
  name: string,
  catalogue: C,
  samples?: Samples<C>,
): C {
  REGISTERED.set(name, {
    messages: catalogue,
    samples: (samples ?? {}) as Record<string, readonly unknown[]>,
    ...(samples === undefined ? { unsampled: true } : {}),
  });
  return catalogue;
}

export function registeredCatalogues(): ReadonlyMap<string, RegisteredCatalogue> {
  return REGISTERED;
}
