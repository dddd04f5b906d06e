/**
 * The pieces of `propose` that need no git: the change taken from the plan, the YAML
 * edit that keeps the file as written, and the pull request's text in both languages.
 */
import { describe, expect, it } from 'vitest';
import { commitChangeOf } from '../../src/remediation/commit-change.js';
import { editManifest } from '../../src/propose/yaml-edit.js';
import { markdownText, pullBody } from '../../src/propose/pull-body.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';

const ref = { kind: 'Deployment', namespace: 'shop', name: 'web' };
const FILE = `# web
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2   # two
  strategy:
    # surge first
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  template:
    metadata:
      labels: {app: web}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: other
spec:
  replicas:   5
`;

function plan(kind: string, patch: RemediationPlan['patch']): RemediationPlan {
  return {
    id: `${kind}-0123456789abcdef`,
    kind,
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    summary: '',
    impact: '',
    warnings: [],
    preconditions: { uid: 'u', generation: 1, fields: [] },
    addresses: 'RolloutSurgeDeadlock',
    patch,
    inverse: null,
  } as unknown as RemediationPlan;
}

describe('the change to commit is the plan’s own', () => {
  it('set-rolling-update: its strategy, without the restart annotation', () => {
    const change = commitChangeOf(
      plan('set-rolling-update', {
        type: 'strategic-merge',
        body: {
          spec: {
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
            template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '$NOW' } } },
          },
        },
      }),
    );
    expect(change).toEqual({
      ok: true,
      merge: {
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
      },
      fields: [
        'spec.strategy.type',
        'spec.strategy.rollingUpdate.maxSurge',
        'spec.strategy.rollingUpdate.maxUnavailable',
      ],
    });
  });

  it('a restart alone, a JSON patch, a ReplicaSet scale: nothing to commit, and why', () => {
    const restart = commitChangeOf(
      plan('rollout-restart', {
        type: 'strategic-merge',
        body: {
          spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '$NOW' } } } },
        },
      }),
    );
    expect(restart).toMatchObject({ ok: false, why: expect.stringContaining('only restarts the pods') });
    const json = commitChangeOf(plan('exclude-node', { type: 'json', body: [] }));
    expect(json).toMatchObject({ ok: false, why: expect.stringContaining('JSON patch of the live object') });
    const scale = commitChangeOf(plan('scale-old-replicaset', { type: 'json', body: [] }));
    expect(scale).toMatchObject({ ok: false, why: expect.stringContaining('nothing to commit') });
  });
});

describe('the edit keeps the file as written', () => {
  it('changes only the strategy lines of the right document; a flow map stays a flow map', () => {
    const result = editManifest(FILE, ref, {
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
    });
    if (!result.ok) throw new Error(result.detail);
    expect(result.text).toBe(
      FILE.replace('{maxSurge: 1, maxUnavailable: 0}', '{ maxSurge: 0, maxUnavailable: 1 }'),
    );
  });

  it('Recreate: rollingUpdate removed, the comment above type kept, the other namespace’s web untouched', () => {
    const result = editManifest(FILE, ref, { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } });
    if (!result.ok) throw new Error(result.detail);
    expect(result.text).toBe(
      FILE.replace(
        '    type: RollingUpdate\n    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}\n',
        '    type: Recreate\n',
      ),
    );
    expect(result.text).toContain('  replicas:   5\n');
    expect(result.text).toContain('    # surge first\n');
  });

  it('a strategy the manifest lacks is added to spec', () => {
    const bare =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1 # one\n';
    const result = editManifest(bare, ref, { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } });
    if (!result.ok) throw new Error(result.detail);
    expect(result.text).toBe(`${bare}  strategy:\n    type: Recreate\n`);
  });

  it('no such document: not found; a document written twice: refused', () => {
    expect(editManifest(FILE, { ...ref, name: 'api' }, {})).toMatchObject({ ok: false, why: 'not-found' });
    const twice = `${FILE.split('---')[0] ?? ''}---\n${FILE.split('---')[0] ?? ''}`;
    expect(editManifest(twice, ref, { spec: {} })).toMatchObject({ ok: false, why: 'refused' });
  });
});

describe('the pull request’s text', () => {
  const text = {
    plan: plan('set-rolling-update', { type: 'strategic-merge', body: {} }),
    finding: { code: 'RolloutSurgeDeadlock', summary: 'stuck <b>@here</b>' },
    file: 'apps/web.yaml',
    fields: ['spec.strategy.rollingUpdate.maxSurge'],
    diff: '-a\n+b\n```\n',
    check: { verdict: 'no-rollout' as const, next: 'finishes' as const },
    rendered: 'apps/web.yaml',
    against: 'the dump d.yaml',
    approvedBy: 'Ana',
  };

  it('escapes cluster text (no HTML, no mention) and fences the diff so it cannot close the fence', () => {
    expect(markdownText('a <b> @here `x`')).toBe('a &lt;b&gt; @\u200bhere \\`x\\`');
    const body = pullBody('en', text);
    expect(body).toContain('stuck &lt;b&gt;@\u200bhere&lt;/b&gt;');
    expect(body).toContain('````diff\n-a\n+b\n```\n````');
    expect(body).toContain('the next rollout (any change to the pod template) will finish');
  });

  it('is written in Korean for a Korean reader, field names kept', () => {
    const body = pullBody('ko', text);
    expect(body).toContain('**진단** (RolloutSurgeDeadlock)');
    expect(body).toContain('`spec.strategy.rollingUpdate.maxSurge`');
    expect(body).toContain('다음 롤링 업데이트(파드 템플릿 변경 시)는 완료됩니다');
    expect(body).toContain('**승인자**: Ana');
  });
});
