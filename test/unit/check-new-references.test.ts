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

/**
 * Holds other than room (attack: each said "will finish"): a scheduling gate keeps a pod
 * Pending until a controller removes it, a scheduler of its own must run, a readiness
 * gate's condition must be set. Not known, unless a live pod of the workload shows it
 * goes through (placed by that scheduler; reporting that condition).
 */
describe('check of a template whose pods something other than room holds back', () => {
  /** The manifest without the missing ConfigMap, its pod spec edited by `edit`. */
  const held = (edit: (spec: Record<string, unknown>) => void): string => {
    const m = manifest();
    m.spec.template.spec.volumes = [];
    edit(m.spec.template.spec as unknown as Record<string, unknown>);
    return write(m);
  };
  const livePods =
    (edit: (pod: { spec: Record<string, unknown>; status: Record<string, unknown> }) => void): DumpEdit =>
    (items) =>
      items.map((i) => {
        if (i.kind !== 'Pod' || !String(i.metadata.name).startsWith('web-')) return i;
        const pod = structuredClone(i) as unknown as {
          spec: Record<string, unknown>;
          status: Record<string, unknown>;
        };
        edit(pod);
        return pod as unknown as typeof i;
      });

  it('as a baseline, without a hold: it finishes', async () => {
    const { status, text } = await check(held(() => undefined));
    expect(text).toContain(': will finish');
    expect(status).toBe(0);
  });

  it('a scheduling gate: not known, whatever the live pods show', async () => {
    const { status, text } = await check(
      held((spec) => {
        spec['schedulingGates'] = [{ name: 'example.com/hold' }];
      }),
    );
    expect(text).toContain('not known: its pods carry schedulingGates (example.com/hold)');
    expect(status).toBe(1);
  });

  it('a scheduler of its own: not known, unless it placed a live pod of the workload', async () => {
    const path = held((spec) => {
      spec['schedulerName'] = 'gpu-scheduler';
    });
    const unknown = await check(path);
    expect(unknown.text).toContain(
      'not known: its pods name scheduler gpu-scheduler, which placed no live pod of it',
    );
    expect(unknown.status).toBe(1);
    const placed = await check(
      path,
      livePods((pod) => {
        pod.spec['schedulerName'] = 'gpu-scheduler';
      }),
    );
    expect(placed.text).toContain(': will finish');
  });

  it('a readiness gate: not known, unless a live pod of the workload reports its condition', async () => {
    const path = held((spec) => {
      spec['readinessGates'] = [{ conditionType: 'example.com/lb-ready' }];
    });
    const unknown = await check(path);
    expect(unknown.text).toContain('not known: its pods wait for readiness gate example.com/lb-ready');
    const reported = await check(
      path,
      livePods((pod) => {
        const conditions = (pod.status['conditions'] as unknown[] | undefined) ?? [];
        pod.status['conditions'] = [...conditions, { type: 'example.com/lb-ready', status: 'True' }];
      }),
    );
    expect(reported.text).toContain(': will finish');
  });
});
