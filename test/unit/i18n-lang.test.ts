import { describe, expect, it } from 'vitest';
import { defineMessages, translate, wordsIn } from '../../src/i18n/catalogue.js';
import { firstLang, langFromEnvironment, parseLang } from '../../src/i18n/lang.js';

describe('a reader’s language', () => {
  it.each([
    ['ko-KR', 'ko'],
    ['ko_KR.UTF-8', 'ko'],
    ['KO', 'ko'],
    ['en-US', 'en'],
    ['en_GB@euro', 'en'],
    ['C', 'en'],
    ['C.UTF-8', 'en'],
    ['POSIX', 'en'],
  ])('%s reads as %s', (locale, lang) => {
    expect(parseLang(locale)).toBe(lang);
  });

  it.each([['fr-FR'], ['kor'], [''], ['k'], ['../ko']])('%s names no language we have', (locale) => {
    expect(parseLang(locale)).toBeUndefined();
  });

  it('takes the first candidate it knows, else English', () => {
    expect(firstLang(undefined, 'fr_FR', 'ko-KR', 'en')).toBe('ko');
    expect(firstLang('de', undefined)).toBe('en');
  });

  it('reads the shell as gettext does: LC_ALL, then LC_MESSAGES, then LANG', () => {
    expect(langFromEnvironment({ LANG: 'ko_KR.UTF-8' })).toBe('ko');
    expect(langFromEnvironment({ LC_ALL: 'C', LANG: 'ko_KR.UTF-8' })).toBe('en');
    expect(langFromEnvironment({ LC_ALL: '', LC_MESSAGES: 'ko_KR', LANG: 'en_US' })).toBe('ko');
    expect(langFromEnvironment({})).toBe('en');
  });
});

describe('a catalogue', () => {
  const words = defineMessages({
    paused: {
      en: (p: { name: string }) => `${p.name} is paused`,
      ko: (p: { name: string }) => `${p.name} 롤아웃이 일시 중지되어 있습니다`,
    },
    none: { en: () => 'No problem found', ko: () => '문제가 없습니다' },
  });

  it('answers in the reader’s language with the same parameters', () => {
    expect(translate(words, 'ko', 'paused', { name: 'web' })).toBe('web 롤아웃이 일시 중지되어 있습니다');
    expect(translate(words, 'en', 'none')).toBe('No problem found');
    expect(wordsIn(words, 'ko').paused({ name: 'api' })).toBe('api 롤아웃이 일시 중지되어 있습니다');
  });
});

describe('a catalogue’s types', () => {
  it('refuses a language whose message takes other parameters, and a call missing one', () => {
    const words = defineMessages({
      // @ts-expect-error Korean takes `count`, English `name`: not one message
      mismatched: { en: (p: { name: string }) => p.name, ko: (p: { count: number }) => String(p.count) },
      named: { en: (p: { name: string }) => p.name, ko: (p: { name: string }) => p.name },
    });
    // @ts-expect-error `name` is required
    expect(() => translate(words, 'en', 'named', {})).not.toThrow();
    expect(translate(words, 'ko', 'named', { name: 'x' })).toBe('x');
  });
});

describe('Korean particles after a number', () => {
  it.each([
    [0, '으로'],
    [1, '로'],
    [2, '로'],
    [3, '으로'],
    [6, '으로'],
    [7, '로'],
    [10, '으로'],
    [21, '로'],
  ])('%i takes %s', async (n, particle) => {
    const { roAfter } = await import('../../src/i18n/ko.js');
    expect(roAfter(n)).toBe(particle);
  });
});
