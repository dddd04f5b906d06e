import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DumpError, loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { makeDeployment, makeNode } from '../support/k8s-builders.js';

const deployment = makeDeployment('web', { namespace: 'shop' });
const node = makeNode('node-1');

describe('loadObjects', () => {
  it('takes a kind that is a name of Object.prototype for a kind it has no schema for', () => {
    // Found by the dump fuzzer (test/hostile/parsers.fuzz.test.ts): schemas['__proto__'] was a lookup on the prototype.
    for (const kind of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(loadObjects(JSON.stringify({ kind, metadata: { name: 'x' } }))).toEqual([
        { kind, metadata: { name: 'x' } },
      ]);
    }
  });

  it('flattens a kubectl List in order', () => {
    const text = stringify({ apiVersion: 'v1', kind: 'List', items: [deployment, node], metadata: {} });
    expect(loadObjects(text)).toEqual([deployment, node]);
  });

  it('reads multi-document YAML and skips empty documents', () => {
    const text = `---\n${stringify(deployment)}---\n---\n${stringify(node)}`;
    expect(loadObjects(text).map((o) => o.kind)).toEqual(['Deployment', 'Node']);
  });

  it('reads JSON objects, arrays and typed lists, restoring kind on typed list items', () => {
    expect(loadObjects(JSON.stringify(node))).toEqual([node]);
    expect(loadObjects(JSON.stringify([node, deployment])).map((o) => o.kind)).toEqual([
      'Node',
      'Deployment',
    ]);
    const { kind: _kind, apiVersion: _apiVersion, ...bare } = node;
    const typed = loadObjects(JSON.stringify({ apiVersion: 'v1', kind: 'NodeList', items: [bare] }));
    expect(typed).toEqual([{ ...bare, kind: 'Node', apiVersion: 'v1' }]);
  });

  it('passes kinds it does not read with only kind checked', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [] } };
    expect(loadObjects(JSON.stringify(service))).toEqual([service]);
  });

  it.each([
    ['empty input', '  \n', /the dump is empty/],
    ['plain text', 'this is not a dump', /plain text, not a Kubernetes object/],
    ['broken YAML', 'items: [1, 2\nkind: List', /not valid YAML or JSON/],
    ['broken JSON', '{"kind": "Pod", ', /not valid YAML or JSON/],
    ['a number', '42', /a number, not a Kubernetes object/],
    ['a list of scalars', '- 1\n- 2', /element 0: not a Kubernetes object/],
    [
      'an object without kind',
      'metadata: {name: x}',
      /the dump: not a Kubernetes object \(kind is missing\)/,
    ],
  ])('rejects %s with a clear DumpError', (_name, text, message) => {
    expect(() => loadObjects(text)).toThrow(DumpError);
    expect(() => loadObjects(text)).toThrow(message);
  });

  it('names the document, item, object and field that is wrong', () => {
    const broken = structuredClone(deployment) as unknown as {
      spec: { template: { spec: Record<string, unknown> } };
    };
    delete broken.spec.template.spec['containers'];
    const list = stringify({ apiVersion: 'v1', kind: 'List', items: [node, broken] });
    expect(() => loadObjects(`${stringify(node)}---\n${list}`)).toThrow(
      'document 2, items[1] (Deployment "web"): spec.template.spec.containers is missing',
    );
    const nameless = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'shop' },
      spec: { containers: [] },
    };
    expect(() => loadObjects(JSON.stringify(nameless))).toThrow('the dump (Pod): metadata.name is missing');
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, reason: 'x' };
    expect(() => loadObjects(JSON.stringify(event))).toThrow('(Event "e1"): involvedObject is missing');
  });

  it.each([
    [
      'containerStatuses as an object',
      { kind: 'Pod', status: { containerStatuses: { name: 'a' } } },
      'status.containerStatuses',
    ],
    [
      'ownerReferences as a string',
      { kind: 'Pod', metadata: { ownerReferences: 'rs-1' } },
      'metadata.ownerReferences',
    ],
    [
      'node conditions as an object',
      { kind: 'Node', status: { conditions: { type: 'Ready' } } },
      'status.conditions',
    ],
    [
      'labels that are not strings',
      { kind: 'Node', metadata: { labels: { zone: ['a'] } } },
      'metadata.labels',
    ],
    [
      'a maxSurge that is neither a count nor a percentage',
      { kind: 'Deployment', spec: { strategy: { rollingUpdate: { maxSurge: 'abc%' } } } },
      'spec.strategy.rollingUpdate.maxSurge',
    ],
    [
      'a negative maxUnavailable',
      { kind: 'Deployment', spec: { strategy: { rollingUpdate: { maxUnavailable: -1 } } } },
      'spec.strategy.rollingUpdate.maxUnavailable',
    ],
  ])('names the field when %s (exit 2 at the CLI, not a crash)', (_name, change, field) => {
    const base =
      change.kind === 'Pod'
        ? makePodLike()
        : change.kind === 'Node'
          ? structuredClone(node)
          : structuredClone(deployment);
    const merged = mergeDeep(base as unknown as Record<string, unknown>, change as Record<string, unknown>);
    expect(() => loadObjects(JSON.stringify(merged))).toThrow(DumpError);
    expect(() => loadObjects(JSON.stringify(merged))).toThrow(field);
  });

  it('keeps RFC 3339 timestamps as strings, as kubectl prints them unquoted', () => {
    const [obj] = loadObjects(
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  creationTimestamp: 2026-11-22T03:00:00Z\n',
    );
    expect(obj?.metadata?.creationTimestamp).toBe('2026-11-22T03:00:00Z');
  });
});

/** A minimal, valid Pod. */
function makePodLike(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-7d9f8b6c5d-q4w8z', namespace: 'shop' },
    spec: { containers: [{ name: 'web', image: 'web:1' }] },
    status: { phase: 'Running' },
  };
}

/** `base` with `change` laid over it, objects merged key by key. */
function mergeDeep(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(change)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object'
        ? mergeDeep(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}
