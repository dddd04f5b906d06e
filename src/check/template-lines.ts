/**
 * The line of a field in a chart's template file, for SARIF (sarif.ts): `helm template`
 * names each document's template (`# Source: chart/templates/deployment.yaml`, relative
 * to the folder helm ran in), and a pull request changes that file, not the rendered
 * output. The template is Go text, not YAML, so the field is found by its key: the line
 * where the key is written, where it is written exactly once; else none (the result
 * then sits on the template's first line). Only a relative path inside the working
 * folder, to a regular file of at most MAX_TEMPLATE_BYTES, is read.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';

const MAX_TEMPLATE_BYTES = 1024 * 1024;

/** The last key of a field path: `image` of `spec.template.spec.containers[0].image`. */
function lastKey(path: string): string | undefined {
  const key = /([A-Za-z_][A-Za-z0-9_-]*)$/.exec(path.replace(/\[\d+\]$/, ''))?.[1];
  return key;
}

/** A reader with a memo per file; `cwd` is where `helm template` ran (the process's). */
export function templateLines(
  cwd: string = process.cwd(),
): (template: string, path: string) => number | undefined {
  const texts = new Map<string, string[] | undefined>();
  const linesOf = (template: string): string[] | undefined => {
    if (texts.has(template)) return texts.get(template);
    let lines: string[] | undefined;
    const relative = normalize(template);
    if (!isAbsolute(relative) && !relative.startsWith('..')) {
      try {
        const full = `${cwd}/${relative}`;
        const info = statSync(full);
        if (info.isFile() && info.size <= MAX_TEMPLATE_BYTES) lines = readFileSync(full, 'utf8').split('\n');
      } catch {
        lines = undefined;
      }
    }
    texts.set(template, lines);
    return lines;
  };
  return (template, path) => {
    const key = lastKey(path);
    const lines = key ? linesOf(template) : undefined;
    if (!key || !lines) return undefined;
    const written = new RegExp(`^\\s*(?:-\\s+)?["']?${key}["']?\\s*:`);
    const found = lines.flatMap((line, i) => (written.test(line) ? [i + 1] : []));
    return found.length === 1 ? found[0] : undefined;
  };
}
