/**
 * The README's first lines are what a new user reads first (issue 55): they name every
 * chat platform the app serves and every workload kind it diagnoses, and where the
 * helm that `npm ci` brings is for the `helm install` they suggest.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WORKLOAD_KINDS } from '../../src/diagnosis/workload-ref.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { PLATFORM_LIST } from '../../src/platforms/list.js';

/** How people call each platform of src/platforms/list.ts (a new one fails here until the README names it). */
const PLATFORM_NAMES: Record<string, string> = { slack: 'Slack', teams: 'Microsoft Teams' };

const readme = readFileSync('README.md', 'utf8');
/** The opening paragraph, after the title. */
const intro = (readme.split('\n\n')[1] ?? '').replace(/\s+/g, ' ');
/** Everything above the first second-level heading. */
const top = readme.slice(0, readme.indexOf('\n## '));

describe("the README's first lines", () => {
  it('name every chat platform and every workload kind', () => {
    for (const { name } of PLATFORM_LIST) expect(intro, name).toContain(PLATFORM_NAMES[name] ?? `(${name}?)`);
    for (const kind of WORKLOAD_KINDS) expect(intro).toContain(`${workloadKind(kind).words.kind}s`);
  });

  it('say where the bundled helm is, next to the helm install they suggest', () => {
    expect(top).toContain('helm install rollout-doctor charts/rollout-doctor');
    expect(top).toContain('npx tsx scripts/k8s-tools.ts');
  });
});
