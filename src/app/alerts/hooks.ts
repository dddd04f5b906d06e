/**
 * The alert side as the rest of the app sees it (src/app/services.ts), in a file of its
 * own so that services, the notify delivery and the hooks' implementation
 * (notify-hooks.ts) do not import each other, not even for types. Types only.
 */
import type { AlertThreadJob } from '../../queue/alert-jobs.js';
import type { NotifyJob, RunUpdate } from '../../queue/schemas.js';
import type { AdmissionThreadOutcome } from './admission-threads.js';
import type { AlertResultOutcome } from './results.js';
import type { ThreadUpdateOutcome } from './thread-updates.js';
import type { ChatPlatform } from '../../platforms/chat-refs.js';

/**
 * What the app's notify consumer calls for alert threads: `threadJob` for the
 * `alert-thread` notify jobs, `runResult` after every finished diagnose run (the
 * result goes into the workload's incident thread when there is one).
 */
/** A thread's root message: a Slack channel and ts, or (platform 'teams') a Teams channel and activity id. */
export interface ThreadRoot {
  platform?: ChatPlatform | undefined;
  channel: string;
  ts: string;
}

export interface AlertNotifyHooks {
  threadJob(job: AlertThreadJob): Promise<ThreadUpdateOutcome>;
  /** The root message of the job's thread (its platform, channel and ts), null when there is none. */
  threadRoot(job: AlertThreadJob): Promise<ThreadRoot | null>;
  /** A run's result: into its incident thread, if the run belongs to one. */
  runResult(result: Extract<RunUpdate, { kind: 'diagnosis-result' }>): Promise<AlertResultOutcome>;
  /** An apply the admission webhook warned about: opens the workload's incident thread (admission-threads.ts). */
  admissionWarning(job: Extract<NotifyJob, { kind: 'admission-warning' }>): Promise<AdmissionThreadOutcome>;
}
