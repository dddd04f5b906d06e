/**
 * A quota's PriorityClass scope sees the new pods as admitted (attack round 12): the
 * template names no class, PriorityClass standard is the global default, and the quota
 * takes in only `standard` pods and is full. The Priority admission plugin gives each new
 * pod the default class before quota admission counts it, so the quota refuses the next
 * new pod; read from the raw template the scope took none in, and the rollout was said to
 * finish by itself.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('quota-scoped-global-default.json');

async function diagnose(edit?: (items: DumpItem[]) => DumpItem[]) {
  const { status, stdout } = await dump.cli(['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'], edit);
  const report = JSON.parse(stdout) as { findings: { code: string; summary: string }[] };
  return { status, findings: report.findings };
}

/** standard no longer the global default: the new pods get priority 0 and no class. */
const noDefault = (items: DumpItem[]): DumpItem[] =>
  items.map((i) => (i.kind === 'PriorityClass' ? { ...i, globalDefault: false } : i));

describe('a PriorityClass-scoped quota and a template that names no class', () => {
  it('standard is the global default: the new pods fall under the full quota, and the rollout cannot finish', async () => {
    const { status, findings } = await diagnose();
    const stuck = findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('ResourceQuota compute');
    expect(status).toBe(1);
  });

  it('the other arm: no global default, so the scope does not take the new pods in and nothing refuses them', async () => {
    const { findings } = await diagnose(noDefault);
    expect(findings.map((f) => f.code)).not.toContain('RolloutStuck');
    expect(JSON.stringify(findings)).not.toContain('will refuse the next new pod');
  });
});
