/**
 * Every registered Korean catalogue holds to docs/glossary-ko.md: no spelling the
 * glossary refuses (포드 for 파드, 노오드, …), and no English word left untranslated
 * unless it is a parameter (a name from the cluster) or a term the glossary keeps in
 * English (codes, kinds, fields, states, tools).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogues, renderAll, stringParams, type Rendered } from '../support/catalogues.js';
import { ROOT } from '../support/source-tree.js';

const glossary = readFileSync(join(ROOT, 'docs/glossary-ko.md'), 'utf8');

/** The third column of the glossary's first table: spellings a Korean message must not use. */
function forbiddenSpellings(text: string): string[] {
  const table = text.split('## 번역하는 말')[1]?.split('\n## ')[0] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.includes('---') && !line.includes('쓰지 않는 표기'))
    .flatMap((line) => (line.split('|')[3] ?? '').split(',').map((s) => s.trim()))
    .filter(Boolean);
}

/** The terms the glossary keeps in English (its `kept:` comment). */
function keptTerms(text: string): string[] {
  return (new RegExp('<!' + '-- kept: ([^>]*) --' + '>').exec(text)?.[1] ?? '').split(/\s+/).filter(Boolean);
}

/** English words left in a Korean message once its parameters and the kept terms are taken out. */
function strayEnglish(r: Pick<Rendered, 'text' | 'sample'>, kept: readonly string[]): string[] {
  let rest = r.text;
  for (const value of stringParams(r.sample).sort((a, b) => b.length - a.length))
    rest = rest.split(value).join(' ');
  // A kept field path (spec.paused) is one term: taken out whole, its parts are not kept alone.
  // Longest first: spec.template.metadata.labels before spec.template.
  const paths = kept.filter((k) => k.includes('.')).sort((a, b) => b.length - a.length);
  for (const term of paths) rest = rest.split(term).join(' ');
  // A command in a code span (`kubectl rollout status`) and a flag (--from-file, -o) are typed as they are.
  rest = rest.replace(/`[^`\n]*`/g, ' ');
  rest = rest.replace(/(^|[\s(`"'])--?[a-z][a-z-]*/g, '$1 ');
  const words = rest.match(/[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]/g) ?? [];
  return words.filter((w) => !kept.includes(w) && !/^[A-Za-z]$/.test(w));
}

let korean: Rendered[];
beforeAll(async () => {
  korean = renderAll(await loadCatalogues(), 'ko');
});

describe('the Korean catalogues and the glossary', () => {
  it('reads the glossary: refused spellings and kept terms', () => {
    expect(forbiddenSpellings(glossary)).toEqual(expect.arrayContaining(['포드', '노오드', '스케쥴러']));
    expect(keptTerms(glossary)).toEqual(
      expect.arrayContaining(['maxSurge', 'RolloutSurgeDeadlock', 'Ready']),
    );
  });

  it('uses no spelling the glossary refuses', () => {
    const refused = forbiddenSpellings(glossary);
    const found = korean.flatMap((r) =>
      refused.filter((s) => r.text.includes(s)).map((s) => `${r.catalogue}.${r.key}: ${s}`),
    );
    expect(found).toEqual([]);
  });

  it('leaves no English word untranslated but names, codes, kinds, fields and states', () => {
    const kept = keptTerms(glossary);
    const stray = korean.flatMap((r) => strayEnglish(r, kept).map((w) => `${r.catalogue}.${r.key}: ${w}`));
    expect([...new Set(stray)]).toEqual([]);
  });

  it('would catch a message that breaks it', () => {
    const kept = keptTerms(glossary);
    expect(
      strayEnglish({ text: '새 포드 web-1이 pending 상태입니다', sample: { pod: 'web-1' } }, kept),
    ).toEqual(['pending']);
    expect(
      strayEnglish({ text: '새 파드(web-1)가 Pending 상태입니다', sample: { pod: 'web-1' } }, kept),
    ).toEqual([]);
    expect(forbiddenSpellings(glossary).some((s) => '새 포드'.includes(s))).toBe(true);
    // A command in a code span is typed as it is; English beside it is still English.
    expect(strayEnglish({ text: '`kubectl rollout status`로 watch하세요', sample: {} }, kept)).toEqual([
      'watch',
    ]);
    expect(strayEnglish({ text: '일시 중지되어 있습니다(spec.paused)', sample: {} }, kept)).toEqual([]);
    expect(strayEnglish({ text: '--from-file 옵션과 -o 값(--help 참고)', sample: {} }, kept)).toEqual([]);
    expect(strayEnglish({ text: 'from-file 옵션', sample: {} }, kept)).toEqual(['from-file']);
    expect(strayEnglish({ text: 'spec 값이 paused 상태입니다', sample: {} }, kept)).toEqual([
      'spec',
      'paused',
    ]);
  });
});
