/**
 * Every "not known" the webhook answers is counted by why (issue 64.2): the reason read
 * from check's own words, one bounded label per way the model can be blind.
 */
import { describe, expect, it } from 'vitest';
import { unknownReason } from '../../src/admission/unknown-reason.js';
import type { CheckResult } from '../../src/check/check.js';

const result = (summary: string): CheckResult => ({
  target: { kind: 'Deployment', namespace: 'ml', name: 'web' },
  rollout: 'template',
  changes: [],
  verdict: 'unknown',
  findings: [{ code: 'IncompleteEvidence', severity: 'warning', summary, explanation: '', evidence: [] }],
});

describe('why a verdict is not known', () => {
  it.each([
    ['Whether the rollout of deployment/web finishes is not known: not every node was read.', 'unread'],
    [
      'Whether the rollout of deployment/web finishes is not known: pods were not read on every node.',
      'unread',
    ],
    [
      'Whether the rollout of statefulset/db finishes is not known: the model does not follow this kind of update (ordered pods, canary steps).',
      'unmodelled',
    ],
    ['Whether the rollout of deployment/web finishes is not known: the rollout is paused.', 'paused'],
    [
      'Whether the rollout of deployment/web finishes is not known: the template claims devices (DRA).',
      'devices',
    ],
    [
      'Whether the rollout finishes turns on what the apply stores for spec.strategy, which the manifest leaves out: …',
      'stored-field',
    ],
    ['Not judged: deployments in ml were not read (forbidden).', 'live-object'],
    ['Whether the rollout of deployment/web finishes is not known: something new.', 'other'],
  ] as const)('%s → %s', (summary, reason) => {
    expect(unknownReason(result(summary))).toBe(reason);
  });
});
