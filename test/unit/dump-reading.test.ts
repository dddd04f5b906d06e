/**
 * Reading a big YAML dump for one diagnosis (issue 29.8): objects' heads read off
 * their text without parsing, objects no diagnosis of the target uses never parsed,
 * other namespaces' pods parsed only on the nodes the diagnosis looks at; and the
 * diagnosis from YAML is byte for byte the one from the same objects as JSON (where
 * every object is parsed), including a pod of another namespace holding the GPU, a
 * newer clock on an unparsed pod, and the namespace a mistyped name meant.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump as toYaml, load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { newestTimeInText, readHead, readNodeName } from '../../src/diagnosis/snapshot/dump/object-head.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

describe('readHead', () => {
  const pod = [
    '  apiVersion: v1',
    '  kind: Pod',
    '  metadata:',
    '    annotations:',
    '      namespace: not-this',
    '      note: |',
    '        kind: NotThis',
    '    name: web-1',
    '    namespace: "shop"',
    '    ownerReferences:',
    '    - kind: ReplicaSet',
    '      name: web',
    '  spec:',
    '    containers:',
    '    - name: web',
    '    nodeName: node-7',
    '  status:',
    '    startTime: "2026-11-22T02:00:00Z"',
  ].join('\n');

  it("reads kind and namespace at the object's own indentation only, and spec.nodeName", () => {
    expect(readHead(pod, 2)).toEqual({ kind: 'Pod', namespace: 'shop' });
    expect(readNodeName(pod, 2)).toBe('node-7');
    // At indentation 0 none of these keys is the object's own.
    expect(readHead(pod, 0)).toEqual({});
  });

  it('reads nothing it cannot be sure of: flow-style metadata, anchors, a typed List item without kind', () => {
    expect(readHead('kind: Pod\nmetadata: {name: a, namespace: shop}\n', 0)).toEqual({ kind: 'Pod' });
    expect(readHead('kind: &k Pod\nmetadata:\n  namespace: shop\n', 0)).toEqual({ namespace: 'shop' });
    expect(readHead('  metadata:\n    namespace: shop\n', 2, 'Pod')).toEqual({
      kind: 'Pod',
      namespace: 'shop',
    });
  });

  it('takes the newest clock outside annotations and labels, never a deletion or an expiry', () => {
    const text = [
      'metadata:',
      '  annotations:',
      '    rotatedAt: "2030-01-01T00:00:00Z"',
      '  creationTimestamp: "2026-11-22T01:00:00Z"',
      '  deletionTimestamp: "2026-11-22T05:00:00Z"',
      'status:',
      '  conditions:',
      '  - lastTransitionTime: "2026-11-22T02:30:00Z"',
      '  certificateExpiryTime: "2027-01-01T00:00:00Z"',
    ].join('\n');
    expect(newestTimeInText(text)).toBe('2026-11-22T02:30:00Z');
  });
});

describe('the same diagnosis from YAML as from JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dump-reading-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fixture = load(readFileSync('test/fixtures/dumps/incident-a-gpu-surge.yaml', 'utf8')) as {
    items: object[];
  };
  const pod = (namespace: string, name: string, node: string, extra: object = {}): object => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid: `uid-${name}`, creationTimestamp: '2026-11-20T00:00:00Z' },
    spec: {
      nodeName: node,
      containers: [
        {
          name: 'c',
          image: 'x',
          resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
    status: { phase: 'Running', ...extra },
  });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'object-trackr', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'x' } }, template: { spec: { containers: [{ name: 'c' }] } } },
  };

  async function both(items: object[], argv: string[]): Promise<{ yaml: string; json: string }> {
    const list = { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
    const yamlFile = join(dir, 'dump.yaml');
    const jsonFile = join(dir, 'dump.json');
    writeFileSync(yamlFile, toYaml(list, { noRefs: true }));
    writeFileSync(jsonFile, JSON.stringify(list));
    const out = async (file: string): Promise<string> => {
      const run = fakeIo();
      const code = await runCli([...argv, '--from-file', file, '-o', 'json'], run.io);
      return `${code}\n${run.stdout()}${run.stderr()}`;
    };
    return { yaml: await out(yamlFile), json: await out(jsonFile) };
  }

  it('a pod of another namespace holding the GPU on our node is read; one elsewhere with a newer clock still dates the dump', async () => {
    const items = [
      ...fixture.items,
      pod('batch', 'trainer', 'gpu-node-1'),
      pod('batch', 'far-away', 'general-node-3', { startTime: '2026-11-22T02:59:59Z' }),
      deployment,
    ];
    const { yaml, json } = await both(items, [
      'diagnose',
      'deployment/vision-object-tracker',
      '-n',
      'vision',
    ]);
    expect(yaml).toBe(json);
    expect(yaml).toContain('trainer');
    expect(yaml).toContain('2026-11-22T02:59:59Z');
  });

  it('a mistyped name still finds the namespace it meant', async () => {
    const { yaml, json } = await both(
      [...fixture.items, deployment],
      ['diagnose', 'deployment/object-trackr', '-n', 'vision'],
    );
    expect(yaml).toBe(json);
    expect(yaml).toContain('shop');
  });
});
