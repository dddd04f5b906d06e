/**
 * One worker key per cluster (issue 27.9): with ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS the
 * app takes a worker's notification, or its job link, only for the clusters its key is
 * bound to; an unbound key still speaks for every cluster (rotation and one-cluster
 * installs stay as they were).
 */
import { describe, expect, it } from 'vitest';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { notifyKeys, signNotify, verifyNotify } from '../../src/queue/notify-signature.js';
import { markOf, verifyMark } from '../../src/queue/record-mark.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';

const prod = ephemeralPlanKeys({ seal: 's1', approval: 'a1', notify: 'n-prod' });
const stage = ephemeralPlanKeys({ seal: 's2', approval: 'a1', notify: 'n-stage' });
const workerKeys = new Map([...prod.notify.keys.worker, ...stage.notify.keys.worker]);
const app = { keyId: prod.approval.keyId, privateKey: prod.approval.privateKey };

const outcome = (cluster: string) =>
  ({
    kind: 'remediation-outcome',
    planId: 'set-recreate-0123456789abcdef',
    cluster,
    channel: 'C1',
    messageTs: '1700000000.000100',
    stage: 'rolled-out',
    detail: 'deployment/web: rolled out',
  }) as NotifyJob;

describe('worker notify keys bound to clusters (issue 27.9)', () => {
  it('a key bound to stage cannot post an outcome as prod; its own cluster passes; an unbound key passes anywhere', () => {
    const bound = notifyKeys(workerKeys, app, new Map([['n-stage', ['stage']]]));
    const fromStage = (cluster: string) => signNotify(outcome(cluster), 'worker', stage.notify.signing);
    expect(verifyNotify(fromStage('stage'), bound).ok).toBe(true);
    const forged = verifyNotify(fromStage('prod'), bound);
    expect(forged.ok).toBe(false);
    expect(!forged.ok && forged.reason).toContain('bound to cluster(s) stage');
    expect(verifyNotify(signNotify(outcome('stage'), 'worker', prod.notify.signing), bound).ok).toBe(true);
    expect(verifyNotify(fromStage('prod'), notifyKeys(workerKeys, app)).ok).toBe(true);
  });

  it('the same holds for a job link a worker marks', () => {
    const bound = notifyKeys(workerKeys, app, new Map([['n-stage', ['stage']]]));
    const link = (cluster: string) => ({
      cluster,
      jobId: 'diagnose.shop.web',
      workloadHash: 'h',
      earlyWarning: true,
      linkedAt: 1,
    });
    const signer = { by: 'worker' as const, key: stage.notify.signing };
    expect(
      verifyMark('alert-job-link', link('stage'), markOf('alert-job-link', link('stage'), signer), bound, [
        'worker',
      ]),
    ).toBe(true);
    expect(
      verifyMark('alert-job-link', link('prod'), markOf('alert-job-link', link('prod'), signer), bound, [
        'worker',
      ]),
    ).toBe(false);
  });

  it('the app refuses to start with a binding to a key or cluster it does not know', () => {
    const env = {
      ...prod.appEnv,
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      ROLLOUT_DOCTOR_CLUSTERS: 'prod,stage',
      ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS: 'n-nope=prod,n-prod=elsewhere',
    };
    expect(() => loadAppConfig(env)).toThrow(
      /key "n-nope", which neither ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS nor ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS holds[\s\S]*cluster "elsewhere"/,
    );
    const ok = loadAppConfig({ ...env, ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS: 'n-prod=prod|stage' });
    expect(ok.notifyKeyClusters.get('n-prod')).toEqual(['prod', 'stage']);
  });
});

describe('admission keys speak for one cluster (issue 67.2)', () => {
  const adm = ephemeralPlanKeys({ seal: 's3', approval: 'a1', notify: 'adm-1' });
  const warned = (cluster: string) =>
    signNotify(
      {
        kind: 'admission-warning',
        cluster,
        workload: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
        user: 'alice',
        code: 'RolloutSurgeDeadlock',
        at: '2026-11-26T00:00:00.000Z',
      },
      'admission',
      adm.notify.signing,
    );
  const admissionKeys = adm.notify.keys.worker;

  it('an unbound admission key speaks for the app’s own cluster only; a binding names others', () => {
    const own = notifyKeys(workerKeys, app, undefined, admissionKeys, 'prod');
    expect(verifyNotify(warned('prod'), own).ok).toBe(true);
    const foreign = verifyNotify(warned('stage'), own);
    expect(!foreign.ok && foreign.reason).toContain('admission key "adm-1" is bound to cluster(s) prod');
    const bound = notifyKeys(workerKeys, app, new Map([['adm-1', ['stage']]]), admissionKeys, 'prod');
    expect(verifyNotify(warned('stage'), bound).ok).toBe(true);
    expect(verifyNotify(warned('prod'), bound).ok).toBe(false);
    // A worker key stays as it was: unbound, any cluster.
    expect(verifyNotify(signNotify(outcome('stage'), 'worker', prod.notify.signing), own).ok).toBe(true);
  });
});
