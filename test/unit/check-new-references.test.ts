/**
 * `check` of a template that needs a ConfigMap, Secret or ServiceAccount nothing read says
 * exists (attack round 14): a missing one keeps every new pod from starting (ContainerCreating,
 * CreateContainerConfigError, or FailedCreate for a ServiceAccount), so no old pod goes.
 * None of them is read, and it said "will finish". Now a reference no live pod uses and
 * the change does not create is not known; one the change creates, one a live pod uses
 * (it exists), and an optional one are run forward as before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit } from '../support/fixture-dump.js';

const dump = fixtureDump('check-references.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/check-references-manifest.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Manifest = { spec: { template: { spec: { volumes: Record<string, unknown>[] } } } };
const manifest = (): Manifest => JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;

let files = 0;
const write = (...documents: unknown[]): string => {
  files += 1;
  const path = join(dir, `m-${files}.yaml`);
  writeFileSync(path, documents.map((d) => JSON.stringify(d)).join('\n---\n'));
  return path;
};

const check = async (path: string, edit?: DumpEdit) => {
  const { status, stdout } = await dump.cli(['check', '-f', path], edit);
  return { status, text: stdout.replace(/\s+/g, ' ') };
};

describe('check of a template that needs objects check does not read', () => {
  it('a ConfigMap no live pod uses and the change does not create: not known, and why', async () => {
    const { status, text } = await check(MANIFEST);
    expect(text).toContain(
      'not known: the new template needs ConfigMap missing-cm, which no live pod of it uses and this change does not create',
    );
    expect(text).not.toContain(': will finish');
    expect(status).toBe(1);
  });

  it('created by the same change: run forward, it finishes', async () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'missing-cm', namespace: 'shop' },
      data: {},
    };
    const { status, text } = await check(write(configMap, manifest()));
    expect(text).toContain(': will finish');
    expect(status).toBe(0);
  });

  it('used by a live pod of the workload (so it exists): it finishes', async () => {
    const used: DumpEdit = (items) =>
      items.map((i) =>
        i.kind === 'Pod' && String(i.metadata.name).startsWith('web-')
          ? {
              ...i,
              spec: {
                ...(i.spec as object),
                volumes: [{ name: 'c', configMap: { name: 'missing-cm' } }],
              },
            }
          : i,
      );
    const { status, text } = await check(MANIFEST, used);
    expect(text).toContain(': will finish');
    expect(status).toBe(0);
  });

  it('marked optional: the pod starts without it, it finishes', async () => {
    const optional = manifest();
    optional.spec.template.spec.volumes = [{ name: 'c', configMap: { name: 'missing-cm', optional: true } }];
    const { status, text } = await check(write(optional));
    expect(text).toContain(': will finish');
    expect(status).toBe(0);
  });
});
