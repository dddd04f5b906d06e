/**
 * Every registered catalogue is complete in both languages with matching parameters:
 * each message is written in every language, has samples, returns text for each, and
 * shows every string parameter it is given in every language (a translation that drops
 * a name fails).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGS } from '../../src/i18n/lang.js';
import { catalogueFiles, loadCatalogues, renderAll, stringParams } from '../support/catalogues.js';

let catalogues: Awaited<ReturnType<typeof loadCatalogues>>;
beforeAll(async () => {
  catalogues = await loadCatalogues();
});

describe('the message catalogues', () => {
  it('are found and registered, each under its own name', () => {
    expect(catalogueFiles().length).toBeGreaterThanOrEqual(2);
    expect([...catalogues.keys()]).toEqual(expect.arrayContaining(['finding', 'report']));
  });

  it('write every message in every language, with samples for each', () => {
    const gaps: string[] = [];
    for (const [name, { messages, samples, unsampled }] of catalogues)
      for (const key of Object.keys(messages)) {
        if (unsampled) continue;
        const message = messages[key] as unknown as Record<string, unknown>;
        for (const lang of LANGS)
          if (typeof message[lang] !== 'function') gaps.push(`${name}.${key}: no ${lang}`);
        if ((samples[key] ?? []).length === 0) gaps.push(`${name}.${key}: no samples`);
      }
    expect(gaps).toEqual([]);
  });

  it('leave only the named catalogues without samples (rendered nowhere: their parameters and Korean unchecked)', () => {
    // Debt, written down: the post-mortem's and propose's sentences came before samples
    // were asked for. Give a catalogue samples and take it off this list.
    const unsampled = [...catalogues].filter(([, c]) => c.unsampled).map(([name]) => name);
    expect(unsampled.sort()).toEqual(['postmortem', 'propose']);
  });

  it('show every string parameter in every language, and say something', () => {
    const dropped: string[] = [];
    for (const lang of LANGS)
      for (const r of renderAll(catalogues, lang)) {
        if (r.text.trim() === '') dropped.push(`${r.catalogue}.${r.key} (${lang}): empty`);
        for (const value of stringParams(r.sample))
          if (!r.text.includes(value))
            dropped.push(`${r.catalogue}.${r.key} (${lang}): drops ${JSON.stringify(value)}`);
      }
    expect(dropped).toEqual([]);
  });

  it('translate: a Korean message that reads exactly as its English one says a sentence is missing', () => {
    const en = new Map(
      renderAll(catalogues, 'en').map((r) => [`${r.catalogue}.${r.key}.${JSON.stringify(r.sample)}`, r.text]),
    );
    const same = renderAll(catalogues, 'ko')
      .filter(
        (r) =>
          /[a-z]{3,}/i.test(r.text.replace(/\S*[-/.]\S*/g, '')) &&
          en.get(`${r.catalogue}.${r.key}.${JSON.stringify(r.sample)}`) === r.text,
      )
      .map((r) => `${r.catalogue}.${r.key}`);
    // The target line ("Deployment vision/tracker") is names only, the same in every language.
    expect(same.filter((k) => k !== 'report.target')).toEqual([]);
  });
});
