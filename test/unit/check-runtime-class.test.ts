/**
 * The RuntimeClass admission plugin sets each new pod's spec.overhead from its class
 * (overhead.podFixed), and the scheduler adds it to the pod's requests. web's pods run
 * under RuntimeClass kata (250m overhead: 750m each on 1250m nodes) with maxSurge 1 and
 * maxUnavailable 0: an image change can never finish. `check` built the new pod from the
 * template, which names the class but carries no overhead, and said "will finish" (exit
 * 0). Now the overhead comes from a pod admitted under the same class; a class no read
 * pod runs under makes the verdict "not known", never "will finish".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDump } from '../support/fixture-dump.js';

const dump = fixtureDump('runtimeclass-overhead.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/runtimeclass-overhead-manifest.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-runtime-class-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Manifest = { spec: { template: { spec: Record<string, unknown> } } };

/** The image change, with its pod spec edited. */
function manifest(edit: (spec: Record<string, unknown>) => void = () => undefined): string {
  const m = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
  edit(m.spec.template.spec);
  const file = join(dir, `m-${String(Math.random()).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(m));
  return file;
}

const check = (file: string) => dump.cli(['check', '-f', file, '-o', 'text']);

describe('check and a RuntimeClass overhead', () => {
  it('counts the class overhead its pods carry: the surge pod needs 750m, so it can never finish', async () => {
    const { status, stdout } = await check(manifest());
    expect(stdout).toContain('CAN NEVER FINISH');
    expect(stdout).toContain('it needs 750m cpu');
    expect(status).toBe(1);
  });

  it('without a class the same change fits (500m beside 750m), so the overhead is what decides', async () => {
    // The class dropped from a manifest kubectl last applied with it: the apply removes it.
    const { status, stdout } = await dump.cli(
      ['check', '-f', manifest((spec) => delete spec['runtimeClassName']), '-o', 'text'],
      (items) =>
        items.map((item) => {
          if (item.kind !== 'Deployment') return item;
          const applied = {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: item.metadata,
            spec: item['spec'],
          };
          const key = 'kubectl.kubernetes.io/last-applied-configuration';
          const annotations = { ...(item.metadata?.annotations ?? {}), [key]: JSON.stringify(applied) };
          return { ...item, metadata: { ...item.metadata, annotations } };
        }),
    );
    expect(stdout).toContain('will finish');
    expect(status).toBe(0);
  });

  it('the class dropped where no owner of the live object is recorded: kept or removed is not known', async () => {
    const { status, stdout } = await check(manifest((spec) => delete spec['runtimeClassName']));
    expect(stdout).toContain('not known');
    expect(stdout).toContain('spec.template.spec.runtimeClassName');
    expect(status).toBe(1);
  });

  it('a class no read pod runs under: not known', async () => {
    const { status, stdout } = await check(manifest((spec) => (spec['runtimeClassName'] = 'gvisor')));
    expect(stdout).toContain('not known');
    expect(stdout).toContain('RuntimeClass gvisor, whose pod overhead');
    expect(status).toBe(1);
  });
});
