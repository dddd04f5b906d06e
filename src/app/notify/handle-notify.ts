import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { webApi } from '@slack/bolt';
import type { NotifyJob } from '../../queue/schemas.js';
import { overflowMessage } from '../alerts/messages.js';
import { watchAlertThread } from '../alerts/thread-deadline.js';
import { EARLY_WARNING_CODES } from '../../queue/alert-jobs.js';
import { asSlackBlocks } from '../../chat/slack/blocks/text.js';
import type { AppServices } from '../services.js';
import { deliverRun } from './run-delivery.js';
import { deliverOutcome } from './outcome-delivery.js';
import { alertPlatform, overflowChatMessage, threadConversation } from '../alerts/chat-thread.js';

/**
 * Turns one notify job into its Slack calls, by kind. `signed`: the job as queued, its
 * signature verified (./consumer.ts), kept with a run for messages that join later.
 */
export async function handleNotify(
  services: Pick<
    AppServices,
    'plans' | 'subscriptions' | 'logger' | 'alerts' | 'rootStates' | 'config' | 'audit' | 'chats' | 'policy'
  >,
  client: webApi.WebClient,
  redis: Redis,
  job: NotifyJob,
  signed: unknown,
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
        await services.alerts.runResult(client, job);
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
      if ((await services.alerts.threadJob(client, job)) === 'opened') {
        await watchAlertThread(services, job);
      }
      return;
    }
    case 'alert-overflow': {
      // A Teams channel (any platform of the chat port) gets it through its adapter.
      const platform = alertPlatform(job.channel);
      if (platform !== 'slack') {
        const chat = services.chats?.[platform];
        if (!chat)
          throw new UnrecoverableError(`alert channel in ${platform}, which this app does not serve`);
        await chat.post(threadConversation(platform, job.channel), overflowChatMessage(job));
        return;
      }
      const message = overflowMessage(job);
      await client.chat.postMessage({
        channel: job.channel,
        text: message.text,
        blocks: asSlackBlocks(message.blocks),
      });
      return;
    }
    case 'remediation-outcome': {
      const undo = job.undoPlanId ? await services.plans.get(job.undoPlanId) : undefined;
      return deliverOutcome(services, job, undo);
    }
  }
}

/** A finished run whose verdict would open an early-warning thread. */
function isEarlyWarningVerdict(job: Extract<NotifyJob, { kind: 'diagnosis-result' }>): boolean {
  return (
    job.outcome.status === 'diagnosed' &&
    job.outcome.diagnosis.findings.some((f) => EARLY_WARNING_CODES.includes(f.code))
  );
}
