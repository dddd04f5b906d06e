/**
 * check reads YAML within a bound per document (src/check/yaml-documents.ts): a
 * document of more tokens than MAX_DOCUMENT_TOKENS is refused at its line (exit 2 as
 * any bad input) before the yaml package builds it, where a 16 MiB flow sequence once
 * took gigabytes and crashed; every other document is still read, one at a time.
 */
import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifests } from '../../src/check/manifests.js';
import { MAX_DOCUMENT_TOKENS, oversizedDocument } from '../../src/check/yaml-documents.js';

const deployment = (name: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: "registry.example/${name}:1"}]
`;

/** The fewest tokens `oversizedDocument` lets a document of `text` hold. */
const tokensOf = (text: string): number => {
  for (let limit = 1; ; limit += 1) if (oversizedDocument(text, limit) === undefined) return limit;
};
const seq = (key: string, n: number): string => `${key}: [${Array(n).fill('1').join(', ')}]\n`;

describe('the tokens of one document', () => {
  it('are counted per document: a --- starts the count again', () => {
    const text = `${deployment('a')}---\n${deployment('b')}`;
    const one = tokensOf(deployment('a'));
    expect(oversizedDocument(text, one + 2)).toBeUndefined();
    expect(oversizedDocument(text, one - 1)).toBe(0);
  });

  it('name the document that is too large by where it starts', () => {
    const text = `${deployment('a')}---\n${seq('k', 500)}`;
    expect(oversizedDocument(text, tokensOf(deployment('a')) + 2)).toBe(deployment('a').length);
  });

  it('take a --- that is a scalar for text, not a document start', () => {
    const half = tokensOf(seq('b', 15));
    const split = `${seq('b', 15)}---\n${seq('c', 15)}`;
    const scalar = `${seq('b', 15)}a: ---\n${seq('c', 15)}`;
    expect(oversizedDocument(split, half + 8)).toBeUndefined();
    expect(oversizedDocument(scalar, half + 8)).toBe(0);
  });
});

describe('parseManifests within the bound', () => {
  it('refuses a 16 MiB flow sequence at its line, as bad input, without building it', () => {
    const items = 8 * 1024 * 1024;
    const text = `${deployment('web')}---\n# a sequence no manifest holds\nk: [${'1,'.repeat(items)}1]\n`;
    let thrown: unknown;
    try {
      parseManifests(text, 'big.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ManifestError);
    const line = deployment('web').split('\n').length;
    expect((thrown as Error).message).toBe(
      `big.yaml:${line}: the document holds more than ${MAX_DOCUMENT_TOKENS.toLocaleString('en-US')} YAML tokens, more than check reads in one document (split it, or check its workloads alone)`,
    );
  });

  it('reads every document of a long stream one at a time, with its line', () => {
    const names = Array.from({ length: 40 }, (_, i) => `app-${i}`);
    const text = names.map(deployment).join('---\n');
    const set = parseManifests(text, 'all.yaml');
    expect(set.workloads.map((w) => w.object.metadata?.name)).toEqual(names);
    const lines = deployment('x').split('\n').length;
    expect(set.workloads[3]?.at.line).toBe(3 * lines + 1);
  });
});
