import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { renderRunUpdate } from '../support/slack-run.js';
import { WorkloadNotFoundError } from '../../src/kube/errors.js';
import { createLogger } from '../../src/logger.js';
import type { PlanStore } from '../../src/queue/plan-store.js';
import { runUpdateSchema, type DiagnoseJob, type NotifyJobInput } from '../../src/queue/schemas.js';
import type { WorkloadRef } from '../../src/diagnosis/workload-ref.js';
import { createDiagnoseProcessor } from '../../src/worker/diagnose-processor.js';

/**
 * `/rollout-doctor diagnose ds/node-agent -n telemetry` on a cluster without it: the run
 * update says which kind was looked for, and the answer names that kind, not a
 * Deployment (issue 43, item 1).
 */

async function runNotFound(target: WorkloadRef) {
  const notified: NotifyJobInput[] = [];
  const processor = createDiagnoseProcessor({
    collect: async (ref) => {
      throw new WorkloadNotFoundError(
        `${ref.kind} ${ref.name} not found`,
        [ref.namespace],
        ['node-agent-v2'],
        'daemonset',
      );
    },
    diagnose: () => {
      throw new Error('not reached');
    },
    dryRun: async () => ({ ok: true, changes: [] }),
    scan: async () => ({ scanned: 0, entries: [] }),
    plans: {} as PlanStore,
    planTtlMs: 60_000,
    notify: async (n) => void notified.push(n),
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  const job = {
    id: 'diagnose.telemetry.node-agent',
    data: { mode: 'workload', cluster: 'default', target, requestedBy: 'U1' } satisfies DiagnoseJob,
    timestamp: 1,
    attemptsMade: 0,
    opts: { attempts: 1 },
  };
  await expect(processor(job as unknown as Job<DiagnoseJob>)).rejects.toThrow();
  const result = notified.find((n) => n.kind === 'diagnosis-result');
  if (!result) throw new Error('no result notified');
  // What the app reads back: the update as its schema parses it off the queue.
  const update = runUpdateSchema.parse(JSON.parse(JSON.stringify(result)));
  if (update.kind !== 'diagnosis-result' || update.outcome.status !== 'failed' || !update.outcome.notFound)
    throw new Error('not a not-found result');
  return { update, outcome: update.outcome, notFound: update.outcome.notFound };
}

describe('a workload that does not exist, by kind', () => {
  it('a DaemonSet: the run update carries the kind and the answer names the DaemonSet looked for', async () => {
    const { update, notFound } = await runNotFound({
      kind: 'DaemonSet',
      namespace: 'telemetry',
      name: 'node-agent',
    });
    expect(notFound.kind).toBe('DaemonSet');
    expect(update.target).toEqual({ kind: 'DaemonSet', namespace: 'telemetry', name: 'node-agent' });
    const message = await renderRunUpdate({} as PlanStore, update, { requester: 'U1' });
    expect(message.text).toContain('daemonset/node-agent not found in namespace telemetry (cluster default)');
    expect(message.text).toContain('did you mean *daemonset/node-agent-v2*?');
    expect(message.text).not.toMatch(/deployment/i);
  });

  it("with no similar name, the sentence names the kind in people's words (an Argo Rollout)", async () => {
    const { update, outcome, notFound } = await runNotFound({
      kind: 'Rollout',
      namespace: 'shop',
      name: 'web',
    });
    const none = { ...update, outcome: { ...outcome, notFound: { ...notFound, suggestions: [] } } };
    const message = await renderRunUpdate({} as PlanStore, none, { requester: 'U1' });
    expect(message.text).toContain('rollout/web not found in namespace shop');
    expect(message.text).toContain('no Argo Rollout there has a similar name');
  });

  it('an update from an older worker (no kind anywhere) still reads as a Deployment', async () => {
    const { update, outcome } = await runNotFound({ kind: 'Deployment', namespace: 'shop', name: 'web' });
    const old = runUpdateSchema.parse({
      ...update,
      target: { namespace: 'shop', name: 'web' },
      outcome: { ...outcome, notFound: { namespace: 'shop', name: 'web', suggestions: [] } },
    });
    const message = await renderRunUpdate({} as PlanStore, old, { requester: 'U1' });
    expect(message.text).toContain('deployment/web not found');
    expect(message.text).toContain('no Deployment there has a similar name');
  });
});
