/**
 * Issue 65 item 5, Argo Rollouts: the expiry sweep lists Rollouts' exclusions where the
 * CRD is served (a 404 on the list: none), says a 403 (not read, logged once, never
 * taken for none), leaves a workloadRef Rollout's record alone (its template is the
 * Deployment's), and removes an expired Rollout exclusion with the patch that tests the
 * expires-at it read; one not expired is kept.
 */
import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/errors.js';
import { listExclusions } from '../../src/kube/read/exclusion-reads.js';
import { createLogger } from '../../src/logger.js';
import {
  annotationPointer,
  EXCLUSION_ANNOTATIONS,
  recordAnnotations,
  type ExclusionRecord,
} from '../../src/remediation/exclusion-record.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { AuditEvent } from '../../src/audit.js';
import { sweepExclusions, type ExclusionExpiryDeps } from '../../src/worker/exclusion-expiry.js';

const EXPIRES = '2026-11-27T14:00:00Z';
const RECORD: ExclusionRecord = {
  values: { 'kubernetes.io/hostname': ['gpu-node-2'] },
  nodes: [{ name: 'gpu-node-2', uid: 'n2' }],
  reason: { finding: 'CrashLoopOnNode', fields: [], bad: [] },
  setAt: '2026-11-27T10:00:00Z',
  expiresAt: EXPIRES,
};
const AFFINITY = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['gpu-node-2'] }] },
      ],
    },
  },
};

function workload(kind: string, name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    kind,
    metadata: {
      name,
      namespace: 'vision',
      uid: `uid-${name}`,
      generation: 3,
      annotations: recordAnnotations(RECORD),
    },
    spec,
  };
}
const ROLLOUT = workload('Rollout', 'tracker', { template: { spec: { affinity: AFFINITY } } });
const REF_ROLLOUT = workload('Rollout', 'by-ref', {
  workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'tracker-template' },
});
const DEPLOYMENT = workload('Deployment', 'web', { template: { spec: { affinity: AFFINITY } } });

/** Lists by resource: items, or a status the list fails with. */
function client(lists: Record<string, unknown[] | number>): KubeClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    server: 'https://127.0.0.1:6443',
    context: 'test',
    namespace: undefined,
    calls,
    call: <T>(call: ApiCall): Promise<T> => {
      calls.push(`${call.verb} ${call.resource} ${call.namespace ?? '*'}`);
      const answer = lists[call.resource] ?? [];
      if (typeof answer === 'number') {
        return Promise.reject(
          new KubeApiError(`${call.resource}: ${answer}`, answer, {
            verb: call.verb,
            resource: call.resource,
          }),
        );
      }
      return Promise.resolve({ items: answer, metadata: {} } as T);
    },
    text: () => Promise.reject(new Error('unused')),
    watch: () => Promise.reject(new Error('unused')),
  };
}

describe('listExclusions: Argo Rollouts', () => {
  it('lists a Rollout exclusion where the CRD is served', async () => {
    const listing = await listExclusions(client({ deployments: [DEPLOYMENT], rollouts: [ROLLOUT] }), ['*']);
    expect(listing.exclusions.map((e) => `${e.target.kind}/${e.target.name}`)).toEqual([
      'Deployment/web',
      'Rollout/tracker',
    ]);
    expect(listing.exclusions[1]?.affinity).toEqual(AFFINITY);
    expect(listing.unread).toEqual([]);
  });

  it('takes a 404 on the Rollout list for no Rollouts, asked once for every namespace', async () => {
    const c = client({ deployments: [DEPLOYMENT], rollouts: 404 });
    const listing = await listExclusions(c, ['vision', 'shop']);
    expect(listing.exclusions.map((e) => e.target.kind)).toEqual(['Deployment', 'Deployment']);
    expect(listing.unread).toEqual([]);
    expect(c.calls.filter((call) => call.includes('rollouts'))).toEqual(['list rollouts vision']);
  });

  it('says a 403 on the Rollout list (not read), and still lists the other kinds', async () => {
    const listing = await listExclusions(client({ deployments: [DEPLOYMENT], rollouts: 403 }), ['vision']);
    expect(listing.exclusions.map((e) => e.target.kind)).toEqual(['Deployment']);
    expect(listing.unread).toEqual([
      expect.objectContaining({ kind: 'Rollout', namespace: 'vision', status: 403 }),
    ]);
    expect(listing.unread[0]?.reason).toContain('may not list rollouts.argoproj.io in vision');
  });

  it('fails on a 403 of a built-in kind (the worker must hold it), never an empty list', async () => {
    await expect(listExclusions(client({ deployments: 403 }), ['*'])).rejects.toThrow(/deployments: 403/);
  });

  it("leaves a workloadRef Rollout's record out, saying why", async () => {
    const listing = await listExclusions(client({ rollouts: [REF_ROLLOUT] }), ['*']);
    expect(listing.exclusions).toEqual([]);
    expect(listing.unread).toEqual([expect.objectContaining({ kind: 'Rollout', name: 'by-ref' })]);
    expect(listing.unread[0]?.reason).toContain('Deployment tracker-template (workloadRef)');
  });
});

describe('sweepExclusions: Argo Rollouts', () => {
  function deps(
    c: KubeClient,
    now: number,
    applied: RemediationPlan[],
    warnings: string[],
  ): ExclusionExpiryDeps {
    const logger = createLogger({ level: 'silent', name: 'sweep-rollouts' });
    logger.warn = ((_: unknown, message: string) => {
      warnings.push(message);
    }) as unknown as typeof logger.warn;
    return {
      cluster: 'test',
      list: () => listExclusions(c, ['*']),
      nodes: () => Promise.resolve({ nodes: [], complete: false }),
      claim: () => Promise.resolve(true),
      prove: () => Promise.resolve({ ok: true }),
      apply: (plan) => {
        applied.push(plan);
        return Promise.resolve({ status: 'applied', generation: 4, changes: [] } as never);
      },
      audit: { record: () => undefined },
      logger,
      now: () => now,
    };
  }

  it('removes an expired Rollout exclusion with the patch testing the expires-at it read', async () => {
    const applied: RemediationPlan[] = [];
    const report = await sweepExclusions(
      deps(client({ rollouts: [ROLLOUT] }), Date.parse(EXPIRES) + 1, applied, []),
    );
    expect(report.removed).toHaveLength(1);
    const plan = applied[0];
    expect(plan?.target).toEqual({ kind: 'Rollout', namespace: 'vision', name: 'tracker' });
    const body =
      plan && 'patch' in plan ? (plan.patch?.body as { op: string; path: string; value?: unknown }[]) : [];
    expect(body[0]).toEqual({
      op: 'test',
      path: annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt),
      value: EXPIRES,
    });
    expect(body).toContainEqual({ op: 'remove', path: '/spec/template/spec/affinity' });
  });

  it('holds an expired removal whose rollout run forward would not finish: nothing written, audited waiting with why', async () => {
    const applied: RemediationPlan[] = [];
    const audit: AuditEvent[] = [];
    const report = await sweepExclusions({
      ...deps(client({ rollouts: [ROLLOUT] }), Date.parse(EXPIRES) + 1, applied, []),
      prove: () => Promise.resolve({ ok: false, reason: 'its surge pod fits no node' }),
      audit: { record: (event) => audit.push(event) },
    });
    expect(applied).toEqual([]);
    expect(report.removed).toEqual([]);
    expect(report.waiting).toHaveLength(1);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'exclusion',
        outcome: 'waiting',
        detail: 'its surge pod fits no node',
      }),
    ]);
  });

  it('holds it too when the workload cannot be read to run the removal forward (not read is not proved)', async () => {
    const applied: RemediationPlan[] = [];
    const report = await sweepExclusions({
      ...deps(client({ rollouts: [ROLLOUT] }), Date.parse(EXPIRES) + 1, applied, []),
      prove: () => Promise.reject(new Error('connect ECONNREFUSED')),
    });
    expect(applied).toEqual([]);
    expect(report.waiting).toHaveLength(1);
  });

  it('keeps a Rollout exclusion that has not expired', async () => {
    const applied: RemediationPlan[] = [];
    const report = await sweepExclusions(
      deps(client({ rollouts: [ROLLOUT] }), Date.parse(EXPIRES) - 1, applied, []),
    );
    expect(applied).toEqual([]);
    expect(report.removed).toEqual([]);
  });

  it('reports a 403 unread on every sweep and logs it once', async () => {
    const warnings: string[] = [];
    const d = deps(client({ rollouts: 403 }), Date.parse(EXPIRES), [], warnings);
    const warned = new Set<string>();
    const first = await sweepExclusions(d, warned);
    const second = await sweepExclusions(d, warned);
    expect(first.unread).toHaveLength(1);
    expect(second.unread).toEqual(first.unread);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('may not list rollouts.argoproj.io (403)');
  });
});
