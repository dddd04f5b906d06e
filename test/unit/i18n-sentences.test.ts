/**
 * The sentences catalogues (i18n/sentences.ts: the engine's English matched whole and
 * written again in the reader's language) read their own English back: every sample,
 * written by its entry's `en`, comes out of `sentenceIn` as that entry's Korean with the
 * same parameters (a parameter that is itself a registered sentence translated too). An
 * entry whose English another entry matches first, or whose pattern cannot hold its
 * parameters, fails here rather than leaving English in a Korean report.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sentenceIn } from '../../src/message/sentences.js';
import { registeredCatalogues } from '../../src/i18n/catalogue.js';
import { ROOT } from '../support/source-tree.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each file under src/ that makes a catalogue with defineSentences, and the catalogue's name. */
const SENTENCE_FILES = tsFiles(join(ROOT, 'src')).flatMap((file) => {
  const name = /\bdefineSentences\(\s*'([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1];
  return name ? [{ file, name }] : [];
});

let catalogues: ReturnType<typeof registeredCatalogues>;
beforeAll(async () => {
  for (const { file } of SENTENCE_FILES) await import(pathToFileURL(file).href);
  catalogues = registeredCatalogues();
});

const sentenceCatalogues = (): string[] => SENTENCE_FILES.map((f) => f.name);

type Entry = { en: (p: Record<string, string>) => string; ko: (p: Record<string, string>) => string };

describe('the sentences catalogues', () => {
  it('are found: the engine, the findings, the waits, the reports and the remediations', () => {
    expect(sentenceCatalogues()).toEqual(
      expect.arrayContaining(['finding-sentences', 'wait-sentences', 'report-sentences']),
    );
  });

  it('read every sample of their own English back as its Korean', () => {
    const wrong: { entry: string; en: string; got: string; want: string }[] = [];
    let read = 0;
    for (const name of sentenceCatalogues()) {
      const catalogue = catalogues.get(name);
      expect(catalogue, name).toBeDefined();
      for (const [key, entry] of Object.entries(catalogue?.messages ?? {}) as [string, Entry][])
        for (const sample of (catalogue?.samples[key] ?? []) as Record<string, string>[]) {
          read += 1;
          const en = entry.en(sample);
          const translated = Object.fromEntries(
            Object.entries(sample).map(([k, v]) => [k, sentenceIn(v, 'ko')]),
          );
          const want = entry.ko(translated);
          const got = sentenceIn(en, 'ko');
          if (got !== want) wrong.push({ entry: `${name}.${key}`, en, got, want });
        }
    }
    expect(read).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });
});
