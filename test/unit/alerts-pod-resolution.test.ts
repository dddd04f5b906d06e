import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { alertDiagnoseJob } from '../../src/app/alerts/app-intake.js';
import { groupHash, workloadHash } from '../../src/queue/alert-keys.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { WorkloadRef, DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { WorkloadNotFoundError } from '../../src/kube/errors.js';
import { createLogger } from '../../src/logger.js';
import type { PlanStore } from '../../src/queue/plan-store.js';
import type { DiagnoseJob, NotifyJobInput } from '../../src/queue/schemas.js';
import { createDiagnoseProcessor } from '../../src/worker/diagnose-processor.js';

/** The worker side of pod alerts: resolve the Deployment through ownerReferences. */

const W = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'web' });
const reply = { kind: 'alert-thread' as const, groupHash: groupHash('g'), workloadHash: W };

function run(job: DiagnoseJob, owners: Record<string, WorkloadRef | Error>) {
  const collected: WorkloadRef[] = [];
  const notified: NotifyJobInput[] = [];
  const processor = createDiagnoseProcessor({
    collect: async (ref) => {
      collected.push(ref);
      return { target: ref } as unknown as DeploymentSnapshot;
    },
    diagnose: (snapshot) =>
      ({
        target: snapshot.target,
        capturedAt: '',
        observed: { uid: '', generation: 0, resourceVersion: '' },
        findings: [],
        remediations: [],
        analyzerErrors: [],
      }) satisfies Diagnosis,
    dryRun: async () => ({ ok: true, changes: [] }),
    scan: async () => ({ scanned: 0, entries: [] }),
    resolvePodOwner: async (_ns, pod) => {
      const owner = owners[pod];
      if (owner === undefined) throw new WorkloadNotFoundError(`pod "${pod}" not found`, ['shop']);
      if (owner instanceof Error) throw owner;
      return owner;
    },
    plans: { save: async () => undefined } as unknown as PlanStore,
    planTtlMs: 60_000,
    notify: async (n) => void notified.push(n),
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  const fakeJob = {
    id: 'diagnose.shop.web',
    data: job,
    timestamp: 1,
    attemptsMade: 0,
    opts: { attempts: 1 },
  };
  return { promise: processor(fakeJob as unknown as Job<DiagnoseJob>), collected, notified };
}

describe('alert diagnose jobs', () => {
  it('diagnoses the Deployment the pod belongs to, not the guess', async () => {
    const job = alertDiagnoseJob('default', {
      workload: {
        cluster: 'default',
        namespace: 'shop',
        deployment: 'web',
        guessed: true,
        pods: ['web-6d4cf56db6-x7k2p'],
      },
      reply,
    });
    expect(job).toMatchObject({ requestedBy: 'ALERTMANAGER', resolveFromPods: ['web-6d4cf56db6-x7k2p'] });
    const { promise, collected } = run(job, {
      'web-6d4cf56db6-x7k2p': { kind: 'Deployment', namespace: 'shop', name: 'web-frontend' },
    });
    await promise;
    expect(collected).toEqual([{ kind: 'Deployment', namespace: 'shop', name: 'web-frontend' }]);
  });

  it('falls back to the guessed name when the pods are gone', async () => {
    const job = alertDiagnoseJob('default', {
      workload: {
        cluster: 'default',
        namespace: 'shop',
        deployment: 'web',
        guessed: true,
        pods: ['web-6d4cf56db6-x7k2p'],
      },
      reply,
    });
    const { promise, collected } = run(job, {});
    await promise;
    expect(collected).toEqual([{ kind: 'Deployment', namespace: 'shop', name: 'web' }]);
  });

  it('answers with the owner error when a pod without a Deployment-shaped name has no Deployment', async () => {
    const job = alertDiagnoseJob('default', {
      workload: { cluster: 'default', namespace: 'shop', guessed: false, pods: ['db-0'] },
      reply,
    });
    const { promise, collected, notified } = run(job, {
      'db-0': new WorkloadNotFoundError(
        'pod shop/db-0 is controlled by StatefulSet db, not by a Deployment',
        ['shop'],
      ),
    });
    await expect(promise).rejects.toThrow('StatefulSet db');
    expect(collected).toEqual([]);
    expect(notified.at(-1)).toMatchObject({ kind: 'diagnosis-result', outcome: { status: 'failed' } });
  });

  it('names a Deployment alert directly, with no pod resolution', () => {
    const job = alertDiagnoseJob('default', {
      workload: { cluster: 'default', namespace: 'shop', deployment: 'web', guessed: false, pods: [] },
      reply,
    });
    expect(job).toEqual({
      mode: 'workload',
      cluster: 'default',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      requestedBy: 'ALERTMANAGER',
    });
  });
});
