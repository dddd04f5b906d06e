/**
 * A template that names its node (spec.nodeName) skips the scheduler: the kubelet there
 * admits each pod only if it fits (else the pod fails, OutOfcpu, and the ReplicaSet makes
 * another, for good), and a node that does not exist never runs it. The run forward took
 * such pods as placed and said "will finish" (attack round 14: a 1-CPU pod named onto a
 * 500m node). Now the verdict is not known, and says why; the same manifest without the
 * node is run forward as before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDump } from '../support/fixture-dump.js';

const dump = fixtureDump('check-node-named.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/check-node-named-manifest.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-node-named-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const check = async (manifest: string) => {
  const { status, stdout } = await dump.cli(['check', '-f', manifest]);
  return { status, text: stdout.replace(/\s+/g, ' ') };
};

describe('check of a template that names its node', () => {
  it('is not known, and says the kubelet there decides', async () => {
    const { status, text } = await check(MANIFEST);
    expect(text).toContain(': not known (template changes: spec.containers[0].image, spec.nodeName)');
    expect(text).toContain('the template names its node (spec.nodeName): its pods skip the scheduler');
    expect(text).not.toContain(': will finish');
    expect(status).toBe(1);
  });

  it('the other arm: without spec.nodeName the same change is run forward and finishes', async () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
      spec: { template: { spec: Record<string, unknown> } };
    };
    delete manifest.spec.template.spec['nodeName'];
    const path = join(dir, 'unnamed.json');
    writeFileSync(path, JSON.stringify(manifest));
    const { status, text } = await check(path);
    expect(text).toContain(': will finish (template changes: spec.containers[0].image)');
    expect(status).toBe(0);
  });
});
