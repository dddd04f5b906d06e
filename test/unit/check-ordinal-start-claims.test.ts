/**
 * `check` on a StatefulSet numbered from spec.ordinals.start 5: its new pods db-5..db-7
 * mount claims data-db-5..data-db-7, so where they may go hangs on those claims' volumes.
 * The claims were looked up as data-db-0..data-db-2 (from 0 whatever the start), found
 * nothing, and a dump without the PersistentVolumes was answered "will finish": what was
 * not read was taken as free. Now the volume it did not read is named, and with the
 * volumes read, db-7's volume (pinned to the cordoned l-3) stops the rollout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('statefulset-ondelete-local-pv.json');
const MANIFEST = join(import.meta.dirname, '../fixtures/dumps/statefulset-start5-manifest.yaml');

/** The live set numbered from 5: every name and claim db-N becomes db-(N+5). */
const startAt5 = (items: DumpItem[]): DumpItem[] =>
  (
    JSON.parse(
      JSON.stringify(items).replace(/\bdb-([0-2])\b/g, (_, n: string) => `db-${Number(n) + 5}`),
    ) as DumpItem[]
  ).map((i) => (i.kind === 'StatefulSet' ? { ...i, spec: { ...i.spec, ordinals: { start: 5 } } } : i));

const withoutVolumes = (items: DumpItem[]): DumpItem[] =>
  startAt5(items).filter((i) => i.kind !== 'PersistentVolume');

const check = async (edit: (items: DumpItem[]) => DumpItem[]) => {
  const { status, stdout } = await dump.cli(['check', '-f', MANIFEST], edit);
  return { status, text: stdout.replace(/\s+/g, ' ') };
};

describe('check on a StatefulSet numbered from spec.ordinals.start', () => {
  it('volumes not read: not known, naming the claim of ordinal 5 and its unread volume', async () => {
    const { status, text } = await check(withoutVolumes);
    expect(text).toContain(': not known');
    expect(text).toContain('the PersistentVolume local-pv-0 that claim data-db-5 is bound to was not read');
    expect(text).not.toContain('will finish (');
    expect(status).toBe(1);
  });

  it('the other arm: volumes read, db-7 is pinned by its volume to cordoned l-3', async () => {
    const { status, text } = await check(startAt5);
    expect(text).toContain('CAN NEVER FINISH');
    expect(text).toContain('its new pod db-7 mounts claim data-db-7, bound to volume local-pv-2');
    expect(status).toBe(1);
  });
});
