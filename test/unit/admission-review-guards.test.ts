/**
 * The webhook's answer, each guard on both arms (issue 68.1):
 * - the refuse label: a namespace whose label says refuse gets a refusal; one whose label
 *   cannot be read is allowed with the warning (a webhook that cannot tell never blocks);
 * - the memo: an UPDATE's answer is per object (two objects with the same change share
 *   no answer, their pods differ); a CREATE's is per change (no pods yet, the name says
 *   nothing).
 */
import { describe, expect, it } from 'vitest';
import { answerReview, type ReviewDeps } from '../../src/admission/review-handler.js';
import { createAdmissionMetrics } from '../../src/admission/metrics.js';
import type { CheckResult } from '../../src/check/check.js';
import type { CheckSource } from '../../src/check/source.js';
import { createLogger } from '../../src/logger.js';

const logger = createLogger({ level: 'silent', name: 'test' });

const WARNED: CheckResult = {
  target: { kind: 'Deployment', namespace: 'ml', name: 'embedder' },
  rollout: 'template',
  changes: ['spec.containers[0].image'],
  verdict: 'never-finishes',
  reason: 'its new pod needs 1 nvidia.com/gpu, held by its old pods',
  findings: [
    { code: 'RolloutSurgeDeadlock', severity: 'critical', summary: '', explanation: '', evidence: [] },
  ],
};

function object(name: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml' },
    spec: {
      selector: { matchLabels: { app: 'e' } },
      template: { metadata: { labels: { app: 'e' } }, spec: { containers: [{ name: 'e', image: 'e:2' }] } },
    },
  };
}

function review(operation: 'CREATE' | 'UPDATE', name: string): unknown {
  const request = {
    uid: `u-${name}`,
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    operation,
    namespace: 'ml',
    userInfo: { username: 'alice' },
    object: object(name),
    ...(operation === 'UPDATE' ? { oldObject: object(name) } : {}),
  };
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request };
}

function deps(overrides: Partial<ReviewDeps> = {}): ReviewDeps & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    source: () => ({}) as CheckSource,
    refuses: () => Promise.resolve(false),
    memo: <T>(key: string) => {
      keys.push(key);
      return Promise.resolve(WARNED as T);
    },
    budgetMs: 2000,
    metrics: createAdmissionMetrics(),
    logger,
    ...overrides,
  };
}

type Answer = { response: { allowed: boolean; warnings?: string[]; status?: { code: number } } };

describe('the refuse label', () => {
  it('says refuse: a refusal (403)', async () => {
    const answer = await answerReview(
      review('UPDATE', 'embedder'),
      deps({ refuses: () => Promise.resolve(true) }),
    );
    expect(answer.outcome).toBe('refused');
    expect((answer.body as Answer).response.allowed).toBe(false);
  });

  it('cannot be read: allowed with the warning, never a refusal', async () => {
    const answer = await answerReview(
      review('UPDATE', 'embedder'),
      deps({ refuses: () => Promise.reject(new Error('namespaces "ml" is forbidden')) }),
    );
    expect(answer.outcome).toBe('warned');
    expect((answer.body as Answer).response.allowed).toBe(true);
    expect((answer.body as Answer).response.warnings?.[0]).toContain('can never finish');
  });
});

describe("the memo's key", () => {
  it('an UPDATE: per object, two workloads with the same change share no answer', async () => {
    const d = deps();
    await answerReview(review('UPDATE', 'embedder'), d);
    await answerReview(review('UPDATE', 'reranker'), d);
    await answerReview(review('UPDATE', 'embedder'), d);
    expect(d.keys).toHaveLength(3);
    expect(d.keys[0]).not.toBe(d.keys[1]);
    expect(d.keys[0]).toBe(d.keys[2]);
  });

  it('a CREATE: per change, whatever the name (a new object has no pods yet)', async () => {
    const d = deps();
    await answerReview(review('CREATE', 'embedder'), d);
    await answerReview(review('CREATE', 'reranker'), d);
    expect(d.keys[0]).toBe(d.keys[1]);
  });
});

// Issue 65.3: the warnings in the namespace's language, English where it cannot be read.
describe("the namespace's language", () => {
  it('Korean where the namespace names it, for warnings and refusals', async () => {
    const warned = await answerReview(
      review('UPDATE', 'embedder'),
      deps({ langOf: () => Promise.resolve('ko') }),
    );
    expect((warned.body as Answer).response.warnings?.[0]).toContain('롤아웃이 끝나지 않습니다');
    const refused = await answerReview(
      review('UPDATE', 'embedder'),
      deps({ langOf: () => Promise.resolve('ko'), refuses: () => Promise.resolve(true) }),
    );
    expect(JSON.stringify(refused.body)).toContain('거부됨');
  });

  it('English where the language cannot be read: the warning still goes out', async () => {
    const answer = await answerReview(
      review('UPDATE', 'embedder'),
      deps({ langOf: () => Promise.reject(new Error('namespaces "ml" is forbidden')) }),
    );
    expect(answer.outcome).toBe('warned');
    expect((answer.body as Answer).response.warnings?.[0]).toMatch(
      /^rollout-doctor: rollout of deployment\/embedder can never finish/,
    );
  });
});
