/**
 * An alert thread ends in an answer too: its root message says "rollout-doctor
 * is diagnosing; the result follows in this thread", and a run that never ends (a
 * worker that died mid-run, a job pinned in Redis as active under a lock that never
 * expires, so that no result ever reaches the thread) would leave it saying so
 * forever. From the moment the app opens the thread, the run deadline
 * (ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS, ../run-deadline.ts) watches it: with no result
 * posted in the thread by then, a reply says the diagnosis could not finish and the
 * refusal is audited (`unfinished`, planId 'alert'). Whether the thread got its result
 * is the app's signed mark (subscriptions.markAnswered, set when it posts the result),
 * which a Redis writer cannot forge.
 *
 * A thread on any chat platform (a Slack channel, or the root card in a Teams channel)
 * is watched the same way; its reply goes through the platform's adapter.
 *
 * Only a thread the job opened is watched: a re-fire or a join may come within the
 * alert's deduplication window, when no new diagnosis is queued for it.
 */
import type { AlertThreadJob } from '../../queue/alert-jobs.js';
import { watchRunDeadline } from '../../chat/notify/run-deadline.js';
import type { AppServices } from '../services.js';
import { ALERT_REQUESTER, alertJobId } from './app-intake.js';

type Services = Pick<AppServices, 'config' | 'subscriptions' | 'audit' | 'logger' | 'alerts'> &
  Partial<Pick<AppServices, 'chats'>>;

/** Arms the deadline watch of the thread `job` just opened; returns at once after finding its root. */
export async function watchAlertThread(services: Services, job: AlertThreadJob): Promise<void> {
  const root = await services.alerts?.threadRoot(job);
  if (!root) return;
  const cluster = job.workload.cluster;
  const receivedAt = Date.parse(job.receivedAt);
  watchRunDeadline(services, {
    message: root,
    cluster,
    jobId: alertJobId(cluster, { workload: job.workload }),
    addedAt: Number.isFinite(receivedAt) ? receivedAt : Date.now(),
    requestedBy: ALERT_REQUESTER,
    what: 'alert',
    namespace: job.workload.namespace,
    ...(job.workload.deployment ? { deployment: job.workload.deployment } : {}),
    replyInThread: true,
  });
}
