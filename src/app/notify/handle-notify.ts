import { UnrecoverableError } from 'bullmq';
import type { NotifyJob } from '../../queue/schemas.js';
import { overflowMessage } from '../alerts/messages.js';
import { watchAlertThread } from '../alerts/thread-deadline.js';
import { EARLY_WARNING_CODES } from '../../queue/alert-jobs.js';
import type { AppServices } from '../services.js';
import { deliverRun } from '../../chat/notify/run-delivery.js';
import { deliverOutcome } from '../../chat/notify/outcome-delivery.js';
import { deliverProposal } from '../../chat/notify/proposal-delivery.js';
import { alertPlatform, threadConversation } from '../alerts/chat-thread.js';

/**
 * Turns one notify job into what the chat platforms show, by kind, each through the
 * adapter of its message's platform (services.chats). `signed`: the job as queued, its
 * signature verified (./consumer.ts), kept with a run for messages that join later.
 */
export async function handleNotify(
  services: Pick<
    AppServices,
    | 'plans'
    | 'subscriptions'
    | 'logger'
    | 'alerts'
    | 'rootStates'
    | 'config'
    | 'audit'
    | 'chats'
    | 'policy'
    | 'postedOnce'
  >,
  job: NotifyJob,
  signed: unknown,
  /** The notification's own id (its deduplication id, else its job id): a remediation's reply is posted once by it. */
  notification?: string,
): Promise<void> {
  switch (job.kind) {
    case 'diagnosis-progress':
    case 'diagnosis-result': {
      const final = job.kind === 'diagnosis-result';
      const refs = await services.subscriptions.publish(job.cluster, job.jobId, {
        runTs: job.runTs,
        seq: job.seq,
        final,
        update: job,
        signed,
      });
      if (refs === null) return; // superseded by a newer notification of the run
      await deliverRun(services, refs, job, final);
      // Alert-triggered and early-warning runs also go into their incident thread.
      if (job.kind === 'diagnosis-result' && services.alerts) {
        await services.alerts.runResult(job);
      } else if (job.kind === 'diagnosis-result' && refs.length === 0 && isEarlyWarningVerdict(job)) {
        // A worker's watch found it, nobody asked and no channel takes it: say so.
        services.logger.warn(
          { cluster: job.cluster, jobId: job.jobId },
          'early-warning result not posted: ROLLOUT_DOCTOR_ALERT_CHANNEL is not set on the app',
        );
      }
      return;
    }
    case 'alert-thread': {
      if (!services.alerts) throw new UnrecoverableError('alert intake is not configured in this app');
      // A thread opened now promises a result: the run deadline holds it to that.
      if ((await services.alerts.threadJob(job)) === 'opened') {
        await watchAlertThread(services, job);
      }
      return;
    }
    case 'admission-warning': {
      // The mover refused it already (announce-mover.ts); a job put in the lane past it is too.
      if (!services.config.clusters.includes(job.cluster))
        throw new UnrecoverableError(
          `an announcement for cluster ${job.cluster}, which this app does not serve`,
        );
      // A warned apply: parked until a run shows the applied object at its generation, then
      // its incident thread (admission-parking.ts), where a team's alert channel is configured.
      if (!services.alerts) {
        services.logger.warn(
          { cluster: job.cluster, namespace: job.workload.namespace, name: job.workload.name },
          'warned apply not announced: ROLLOUT_DOCTOR_ALERT_CHANNEL is not set on the app',
        );
        return;
      }
      const outcome = await services.alerts.admissionWarning(job);
      services.logger.info(
        { cluster: job.cluster, namespace: job.workload.namespace, name: job.workload.name, outcome },
        'warned apply taken: announced once the cluster shows it',
      );
      return;
    }
    case 'alert-overflow': {
      const platform = alertPlatform(job.channel);
      const chat = services.chats?.[platform];
      if (!chat) throw new UnrecoverableError(`alert channel in ${platform}, which this app does not serve`);
      await chat.post(threadConversation(platform, job.channel), overflowMessage(job));
      return;
    }
    case 'remediation-outcome': {
      const undo = job.undoPlanId ? await services.plans.get(job.undoPlanId) : undefined;
      return deliverOutcome(services, job, undo, Date.now(), notification);
    }
    case 'proposal-outcome':
      return deliverProposal(services, job);
  }
}

/** A finished run whose verdict would open an early-warning thread. */
function isEarlyWarningVerdict(job: Extract<NotifyJob, { kind: 'diagnosis-result' }>): boolean {
  return (
    job.outcome.status === 'diagnosed' &&
    job.outcome.diagnosis.findings.some((f) => EARLY_WARNING_CODES.includes(f.code))
  );
}
