import { describe, expect, it } from 'vitest';
import { signNotify, verifyNotify } from '../../src/queue/notify-signature.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';

const outcome: NotifyJob = {
  kind: 'remediation-outcome',
  planId: 'set-recreate-abc',
  cluster: 'prod',
  channel: 'C1',
  messageTs: '1.2',
  stage: 'rolled-out',
  detail: 'deployment/web: rolled out',
};
const overflow: NotifyJob = {
  kind: 'alert-overflow',
  cause: 'notification',
  groupHash: '0'.repeat(32),
  channel: 'C1',
  workloads: 30,
  firing: 30,
  limit: 20,
  alertNames: ['KubePodCrashLooping'],
  namespaces: ['shop'],
  receivedAt: '2026-01-01T00:00:00Z',
};
/** As BullMQ stores and hands back job data. */
const queued = (data: unknown): unknown => JSON.parse(JSON.stringify(data));
const { keys } = testKeys.notify;
const appKey = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };

describe('notify signatures', () => {
  it('accepts a worker outcome and an app alert summary signed by their makers', () => {
    expect(verifyNotify(queued(signNotify(outcome, 'worker', testKeys.notify.signing)), keys)).toEqual({
      ok: true,
      job: outcome,
    });
    expect(verifyNotify(queued(signNotify(overflow, 'app', appKey)), keys)).toMatchObject({ ok: true });
  });

  it('refuses an unsigned job, a rewritten one, another key, and a kind signed by the wrong side', () => {
    const signed = signNotify(outcome, 'worker', testKeys.notify.signing);
    expect(verifyNotify(queued(outcome), keys)).toEqual({
      ok: false,
      reason: 'the notification carries no signature',
    });
    expect(verifyNotify(queued({ ...signed, stage: 'failed' }), keys)).toEqual({
      ok: false,
      reason: 'the notification signature does not verify',
    });
    expect(verifyNotify(queued({ ...signed, approvedBy: ['U1'] }), keys)).toMatchObject({ ok: false });
    const stranger = ephemeralPlanKeys({ seal: 's9', approval: 'a9', notify: 'a1-notify' });
    expect(verifyNotify(queued(signNotify(outcome, 'worker', stranger.notify.signing)), keys)).toEqual({
      ok: false,
      reason: 'the notification signature does not verify',
    });
    // The app's key may not speak for a worker, nor a worker's for the app.
    expect(verifyNotify(queued(signNotify(outcome, 'app', appKey)), keys)).toEqual({
      ok: false,
      reason: 'a remediation-outcome notification is signed by the app, not by the worker',
    });
    expect(verifyNotify(queued(signNotify(overflow, 'worker', testKeys.notify.signing)), keys)).toMatchObject(
      {
        ok: false,
      },
    );
    // A worker key's signature relabelled as the app's: the app's key does not verify it.
    const relabelled = signNotify(overflow, 'worker', testKeys.notify.signing);
    expect(
      verifyNotify(
        queued({ ...relabelled, sig: { ...relabelled.sig, by: 'app', keyId: appKey.keyId } }),
        keys,
      ),
    ).toEqual({ ok: false, reason: 'the notification signature does not verify' });
  });
});
