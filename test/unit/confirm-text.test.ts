import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATCH_POINTER } from '../../src/chat/use-cases/confirm-text.js';
import { undoParts } from '../../src/chat/use-cases/outcome.js';
import { plainText } from '../../src/message/rich.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import { compactPatch, patchText } from '../../src/chat/use-cases/plan-text.js';
import { confirmDialogText, planButton, renderDiagnosis } from '../support/slack-run.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { REMEDIATION_KINDS, type RemediationKind, type RemediationPlan } from '../../src/remediation/plan.js';
import { strategyPatch } from '../../src/remediation/builders/strategy-patch.js';
import { APPLY_TIME } from '../../src/remediation/restart-time.js';
import {
  DEVICE_TAINT_KEY,
  DEVICE_TAINT_VALUE,
  deviceTaintRuleName,
} from '../../src/remediation/device-taint.js';

const RESTART = {
  spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': APPLY_TIME } } } },
};

function patchFor(kind: RemediationKind, hosts: string[]): RemediationPlan['patch'] {
  switch (kind) {
    case 'set-rolling-update':
      return strategyPatch({
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        restart: true,
      });
    case 'set-recreate':
      return strategyPatch({ strategy: { type: 'Recreate' } });
    case 'rollout-restart':
      return { type: 'strategic-merge', body: RESTART };
    case 'exclude-node':
      return {
        type: 'json',
        body: [
          {
            op: 'add',
            path: '/spec/template/spec/affinity',
            value: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: hosts }],
                    },
                  ],
                },
              },
            },
          },
        ],
      };
    case 'abort-rollout':
      return { type: 'merge', body: { status: { abort: true } } };
    case 'delete-pods':
    case 'taint-device':
    case 'untaint-device':
      return null;
    case 'scale-old-replicaset':
      return {
        type: 'json',
        body: [
          { op: 'test', path: '/spec/replicas', value: 1 },
          { op: 'replace', path: '/spec/replicas', value: 0 },
        ],
      };
    case 'scale-back-old-replicaset':
      return {
        type: 'json',
        body: [
          { op: 'test', path: '/spec/replicas', value: 0 },
          { op: 'replace', path: '/spec/replicas', value: 1 },
        ],
      };
  }
}

function plan(
  kind: RemediationKind,
  name: string,
  namespace: string,
  items: string[],
  impact: string,
): RemediationPlan {
  return {
    id: `${kind}-1`,
    kind,
    target: { kind: kind === 'abort-rollout' ? 'Rollout' : 'Deployment', namespace, name },
    summary: `do ${kind}`,
    impact,
    warnings: [],
    patch: patchFor(kind, items),
    ...(kind === 'delete-pods' || kind === 'taint-device'
      ? { pods: items.map((n, i) => ({ name: n, uid: `u${i}` })) }
      : {}),
    ...(kind === 'taint-device' || kind === 'untaint-device'
      ? {
          deviceTaint: {
            apiVersion: 'resource.k8s.io/v1' as const,
            name: deviceTaintRuleName({ driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' }),
            driver: 'gpu.nvidia.com',
            pool: 'gpu-node-1',
            device: 'gpu-0',
            node: 'gpu-node-1',
            resourceID: 'gpu.nvidia.com/gpu-node-1/gpu-0',
            taint: { key: DEVICE_TAINT_KEY, value: DEVICE_TAINT_VALUE, effect: 'NoSchedule' as const },
          },
        }
      : {}),
    ...(kind === 'scale-old-replicaset' || kind === 'scale-back-old-replicaset'
      ? {
          replicaSet: {
            name: items[0] ?? 'old',
            uid: 'r',
            podTemplateHash: 'h',
            replicas: kind === 'scale-old-replicaset' ? 1 : 0,
            to: kind === 'scale-old-replicaset' ? 0 : 1,
            newReplicaSet: { name: 'new', uid: 'n' },
          },
        }
      : {}),
    preconditions: { uid: 'u', generation: 1, fields: [] },
    inverse: null,
    addresses: 'SurgeDeadlock',
  } as RemediationPlan;
}

const dnsName = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,251}[a-z0-9])?$/);
const nsName = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/);

describe('confirm dialog text', () => {
  it('says the change in words, fits 300 characters and names whole words only, for every kind', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REMEDIATION_KINDS),
        dnsName,
        nsName,
        fc.array(dnsName, { minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[A-Za-z0-9 ,.;()-]{0,800}$/),
        (kind, name, ns, items, impact) => {
          const p = plan(kind, name, ns, items, impact);
          const text = confirmDialogText(p);
          expect(text.length).toBeLessThanOrEqual(300);
          expect(text.endsWith(PATCH_POINTER)).toBe(true);
          expect(text).not.toContain('{"');
          // Every name in the text is a whole name of the plan (never cut mid-token).
          for (const listed of /: ([a-z0-9, -]+?)(?: and \d+ more)?\.(?: |$)/.exec(text)?.[1]?.split(', ') ??
            [])
            if (kind === 'delete-pods') expect(items).toContain(listed);
          if (text.includes(`deployment/`)) expect(text).toContain(`deployment/${name} in ns ${ns}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names a label exclusion by its label, and only what the plan adds to the affinity', () => {
    const before = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['batch'] }] }],
        },
      },
    };
    const after = structuredClone(before);
    after.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]?.matchExpressions.push(
      {
        key: 'node.kubernetes.io/os-image',
        operator: 'NotIn',
        values: ['ubuntu-24.04'],
      },
    );
    const byLabel = {
      ...plan('exclude-node', 'web', 'shop', [], 'x'),
      patch: { type: 'json', body: [{ op: 'add', path: '/spec/template/spec/affinity', value: after }] },
      preconditions: {
        uid: 'u',
        generation: 2,
        fields: [{ path: '/spec/template/spec/affinity', value: before }],
      },
    } as RemediationPlan;
    const text = confirmDialogText(byLabel);
    expect(text).toContain(
      'Keep deployment/web in ns shop off the nodes with node.kubernetes.io/os-image=ubuntu-24.04 (required node affinity).',
    );
    expect(text).not.toContain('batch');
  });

  it('reads as the change for the usual plans', () => {
    expect(
      confirmDialogText(plan('set-rolling-update', 'web', 'shop', [], 'Brief outage. More words.')),
    ).toBe(
      `Set the strategy to RollingUpdate with maxSurge 0, maxUnavailable 1 and restart deployment/web in ns shop now. Impact: Brief outage. ${PATCH_POINTER}`,
    );
    expect(confirmDialogText(plan('exclude-node', 'web', 'shop', ['node-b'], 'x'))).toContain(
      'Keep deployment/web in ns shop off node node-b (required node affinity).',
    );
    expect(confirmDialogText(plan('delete-pods', 'web', 'shop', ['web-1', 'web-2'], 'x'))).toContain(
      'Delete 2 pod(s) of deployment/web in ns shop: web-1, web-2.',
    );
  });

  it('points to the thread, where the thread report shows the exact patch once, never the message', () => {
    for (const kind of REMEDIATION_KINDS) {
      for (const items of [
        ['node-b'],
        Array.from({ length: 400 }, (_, i) => `node-${i}-${'x'.repeat(20)}`),
      ]) {
        const p = plan(kind, 'web', 'shop', items, 'Impact.');
        const diagnosis: Diagnosis = {
          target: p.target,
          capturedAt: 'T',
          observed: { uid: 'u', generation: 1, resourceVersion: '1' },
          findings: [],
          remediations: [p],
          analyzerErrors: [],
        };
        const rendered = renderDiagnosis({
          cluster: 'c',
          diagnosis,
          dryRuns: {},
          plans: { [p.id]: { state: 'open', expiresAt: Date.now() + 1000 } },
        });
        const button = planButton({ plan: p, cluster: 'c' }, { state: 'open', expiresAt: 1 });
        expect((button.confirm as { text: { text: string } }).text.text).toContain(PATCH_POINTER);
        // The code blocks of the thread report, put back together, hold the exact change once.
        const code = rendered.thread
          .flatMap((m) => m.blocks)
          .map((b) => (b as { text?: { text?: string } }).text?.text ?? '')
          .flatMap((t) => [...t.matchAll(/```\n([\s\S]*?)\n```/g)].map((x) => x[1] ?? ''))
          .join('\n');
        expect(code.split(patchText(p)).length - 1).toBe(1);
        expect(JSON.stringify(rendered.blocks)).not.toContain(JSON.stringify(compactPatch(p)).slice(1, -1));
      }
    }
  });

  it('says what an Undo restores and whether it starts a rollout', () => {
    const strategy = plan('set-rolling-update', 'web', 'shop', [], 'x');
    strategy.patch = {
      type: 'strategic-merge',
      body: {
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        },
      },
    };
    expect(confirmDialogText(strategy, { undo: true })).toBe(
      `Restore the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%) of deployment/web in ns shop. It does not start a rollout: the strategy is not part of the pod template, so running pods stay as they are. ${PATCH_POINTER}`,
    );
    const affinity = plan('exclude-node', 'web', 'shop', ['node-b'], 'x');
    affinity.patch = { type: 'json', body: [{ op: 'remove', path: '/spec/template/spec/affinity' }] };
    const text = confirmDialogText(affinity, { undo: true });
    expect(text).toContain(
      'Restore the previous pod affinity (the node exclusion is removed) of deployment/web',
    );
    expect(text).toContain('a new rollout starts');
    expect(text.length).toBeLessThanOrEqual(300);
  });

  it("says it in the thread's language in the reply that offers the Undo", () => {
    const strategy = plan('set-rolling-update', 'web', 'shop', [], 'x');
    strategy.addresses = 'RolloutSurgeDeadlock';
    strategy.patch = {
      type: 'strategic-merge',
      body: {
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
      },
    };
    const said = (p: RemediationPlan, lang: 'en' | 'ko'): string =>
      undoParts({ plan: p } as StoredPlan, lang)
        .map((part) =>
          part.kind === 'paragraph'
            ? plainText(part.text)
            : part.kind === 'code'
              ? `${part.title ? plainText(part.title) : ''}\n${part.body}`
              : '',
        )
        .join('\n');
    const ko = said(strategy, 'ko');
    expect(ko).toContain(
      '되돌리기: deployment/web 대상의 롤아웃 전략(RollingUpdate maxSurge 1, maxUnavailable 0) 설정을 되돌립니다.',
    );
    expect(ko).toContain('롤아웃은 시작하지 않습니다.');
    expect(ko).toContain('다음 롤아웃은 다시 교착 상태(deadlock)에 빠집니다.');
    expect(ko).toContain('되돌리기가 보내는 패치 그대로(strategic-merge)');
    expect(ko).not.toMatch(/restores|rollout starts|deadlock again/);
    // English as before, the deadlock warning read from the same words.
    const en = said(strategy, 'en');
    expect(en).toContain(
      'Undo restores the rollout strategy (RollingUpdate maxSurge 1, maxUnavailable 0) of deployment/web.',
    );
    expect(en).toContain('The next rollout would deadlock again.');
    const affinity = plan('exclude-node', 'web', 'shop', ['node-b'], 'x');
    affinity.patch = { type: 'json', body: [{ op: 'remove', path: '/spec/template/spec/affinity' }] };
    expect(said(affinity, 'ko')).toContain('이전 nodeAffinity 설정(노드 제외를 없앰)');
    expect(said(affinity, 'ko')).toContain('새 롤아웃이 시작되어 파드를 교체합니다.');
  });
});
