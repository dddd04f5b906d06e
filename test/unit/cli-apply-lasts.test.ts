/**
 * `rollout-doctor apply --lasts` (issue 65 item 5): the durations an approver picks
 * beside Approve in chat, checked by the same zod schema, only for an exclude-node
 * remediation; the plan then records it as a chat approval does (withPlanTtl, the
 * worker's own). A bad value or another kind is a usage error (exit 2) before any
 * cluster is asked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastsArg, parseApplyArgs } from '../../src/cli/commands/apply.js';
import { UsageError } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { withPlanTtl } from '../../src/remediation/exclusion-times.js';
import { annotationPointer, EXCLUSION_ANNOTATIONS } from '../../src/remediation/exclusion-record.js';
import { EXCLUSION_TTL_CHOICES } from '../../src/remediation/exclusion-ttl.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { fakeIo } from '../support/cli-io.js';
import { writeUnreachableKubeconfig } from '../support/unreachable-kubeconfig.js';

const ARGS = ['deployment/checkout', '-n', 'shop'];
const EXPIRES = annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt);
const target = { kind: 'Deployment' as const, namespace: 'shop', name: 'checkout' };
const exclusion: RemediationPlan = {
  id: 'exclude-node-0123456789abcdef',
  kind: 'exclude-node',
  target,
  summary: 's',
  impact: 'i',
  warnings: [],
  patch: {
    type: 'json',
    body: [
      { op: 'test', path: '/metadata/generation', value: 2 },
      { op: 'add', path: EXPIRES, value: '$NOW+24h' },
    ],
  },
  preconditions: { uid: 'u', generation: 2, fields: [] },
  inverse: null,
  addresses: 'CrashLoopOnNode',
};
const recreate: RemediationPlan = {
  ...exclusion,
  id: 'set-recreate-0123456789abcdef',
  kind: 'set-recreate',
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } },
  addresses: 'RolloutSurgeDeadlock',
};

describe('apply --lasts', () => {
  it('takes each duration the chat offers, for exclude-node or a plan id of that kind', () => {
    for (const choice of EXCLUSION_TTL_CHOICES)
      expect(parseApplyArgs([...ARGS, '--remediation', 'exclude-node', '--lasts', choice]).lasts).toBe(
        choice,
      );
    expect(lastsArg('7d', 'exclude-node-0123456789abcdef')).toBe('7d');
    expect(parseApplyArgs([...ARGS, '--remediation', 'exclude-node']).lasts).toBeUndefined();
  });

  it('refuses a value the chat does not offer, naming the choices', () => {
    for (const bad of ['5h', '24H', '90d', 'forever', '', '$NOW+24h'])
      expect(() => parseApplyArgs([...ARGS, '--remediation', 'exclude-node', '--lasts', bad])).toThrow(
        new UsageError(
          `--lasts "${bad}" is not a duration a node exclusion may last: one of 4h, 24h, 3d, 7d, until-removed`,
        ),
      );
  });

  it('refuses it for a remediation that writes no node exclusion', () => {
    for (const other of ['set-recreate', 'delete-pods', 'set-recreate-0123456789abcdef'])
      expect(() => lastsArg('3d', other)).toThrow(/only for an exclude-node remediation/);
  });

  it('exits 2 with the reason, before asking any cluster', async () => {
    const kubeconfig = writeUnreachableKubeconfig(join(mkdtempSync(join(tmpdir(), 'lasts-')), 'kubeconfig'));
    for (const [remediation, lasts, said] of [
      ['exclude-node', '5h', /--lasts "5h" is not a duration/],
      ['set-recreate', '3d', /--lasts is only for an exclude-node remediation/],
    ] as const) {
      const run = fakeIo();
      const argv = ['apply', ...ARGS, '--remediation', remediation, '--lasts', lasts, '--yes'];
      expect(await runCli([...argv, '--kubeconfig', kubeconfig], run.io)).toBe(2);
      expect(run.stderr()).toMatch(said);
    }
  });

  it("is recorded as a chat approval's choice: only the expires-at marker changes; none on another plan", () => {
    const lasting = withPlanTtl(exclusion, '3d');
    expect(lasting?.patch?.body).toEqual([
      { op: 'test', path: '/metadata/generation', value: 2 },
      { op: 'add', path: EXPIRES, value: '$NOW+3d' },
    ]);
    expect({ ...lasting, patch: exclusion.patch }).toEqual(exclusion);
    expect((withPlanTtl(exclusion, 'until-removed')?.patch?.body as { value: unknown }[])[1]?.value).toBe(
      'never',
    );
    expect(withPlanTtl(recreate, '3d')).toBeUndefined();
  });
});
