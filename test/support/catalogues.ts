/**
 * Every message catalogue of the product, registered: each file under src/ that calls
 * registerCatalogue is imported, so a new catalogue is tested without editing a list.
 * Then, for each message, language and sample: its output as plain text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registeredCatalogues } from '../../src/i18n/catalogue.js';
import type { Lang } from '../../src/i18n/lang.js';
import { isOurs, plainText } from '../../src/message/rich.js';
import type { Rich } from '../../src/chat/model.js';
import { ROOT } from './source-tree.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The files that register a catalogue (repository-relative). */
export function catalogueFiles(): string[] {
  return tsFiles(join(ROOT, 'src'))
    .filter((f) => !f.endsWith('i18n/catalogue.ts') && /\bregisterCatalogue\(/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
}

export async function loadCatalogues(): Promise<ReturnType<typeof registeredCatalogues>> {
  for (const file of catalogueFiles()) await import(pathToFileURL(join(ROOT, file)).href);
  return registeredCatalogues();
}

/** A message's output as text: a string as it is, our inline content as plain text. */
export function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isOurs(output) && Array.isArray(output)) return plainText(output as Rich);
  throw new Error(`a message returned neither a string nor content made by say: ${JSON.stringify(output)}`);
}

export interface Rendered {
  catalogue: string;
  key: string;
  lang: Lang;
  sample: unknown;
  text: string;
}

/** Every message of every registered catalogue in `lang`, once per sample. */
export function renderAll(catalogues: ReturnType<typeof registeredCatalogues>, lang: Lang): Rendered[] {
  return [...catalogues].flatMap(([catalogue, { messages, samples }]) =>
    Object.keys(messages).flatMap((key) =>
      (samples[key] ?? []).map((sample) => {
        const message = messages[key] as unknown as Record<Lang, (p: unknown) => unknown>;
        return { catalogue, key, lang, sample, text: asText(message[lang](sample)) };
      }),
    ),
  );
}

/**
 * The text a sample carries: its string values, the strings of its arrays, and the plain
 * text of content made by `say` (a mention, a phrase built elsewhere).
 */
export function stringParams(sample: unknown): string[] {
  if (typeof sample !== 'object' || sample === null) return [];
  return Object.values(sample).flatMap((v): string[] => {
    if (typeof v === 'string') return [v];
    if (isOurs(v) && Array.isArray(v)) return [plainText(v as Rich)].filter(Boolean);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  });
}
