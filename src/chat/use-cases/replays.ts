/**
 * The app's guarded writes as data (src/queue/replication-guard.ts `replay`), so that
 * with a journal (REDIS_WAIT_JOURNAL_DIR, src/queue/guard-journal.ts) an app restarted
 * during a failover still writes again what the failover lost: a command's diagnosis
 * job, an approval's claim, message plan and remediation job, an approved message's
 * root state. Each replayer does what the writer's own `redo` does, and is idempotent
 * the same way (a job id that exists is not added twice, a claim or a root state is
 * written only where none is). Not journaled (watched in memory only): a message's
 * subscription to its run (written again with the chat client, which a record cannot
 * carry) and an alert's diagnosis (Alertmanager sends a firing alert again).
 */
import { z } from 'zod';
import type { Audit } from '../../audit.js';
import type { PlanStore, StoredPlan } from '../../queue/plan-store.js';
import type { Producers } from '../../queue/producers.js';
import type { Replay } from '../../queue/replication-guard.js';
import { jobIdOfDiagnosis } from '../../queue/job-ids.js';
import { platformField } from '../../platforms/chat-refs.js';
import {
  diagnoseJobSchema,
  remediateJobSchema,
  type DiagnoseJob,
  type RemediateJob,
} from '../../queue/schemas.js';
import { rootRecordSchema, type RootRecord, type RootStates } from '../notify/root-store.js';
import type { MessageRef, Subscriptions } from '../notify/subscriptions.js';

export const APP_REPLAY = {
  command: 'app-command',
  approval: 'app-approval',
  rootState: 'app-root-state',
} as const;

const approvalSchema = z.object({
  stored: z.looseObject({ plan: z.looseObject({ id: z.string() }), expiresAt: z.number() }),
  marks: z.array(z.string()).min(1),
  at: z.number(),
  message: z.object({ platform: platformField, channel: z.string(), ts: z.string() }),
  job: remediateJobSchema,
});
const rootStateSchema = z.object({ planId: z.string(), record: rootRecordSchema });
/**
 * A command as journaled: its job, when it was queued and the run it joined, if any (a
 * bare job: journaled before addedAt was kept).
 */
const commandSchema = z.union([
  z.object({ job: diagnoseJobSchema, addedAt: z.number(), joinedRun: z.number().int().optional() }),
  diagnoseJobSchema.transform((job) => ({ job, addedAt: undefined, joinedRun: undefined })),
]);

export const appReplay = {
  command: (job: DiagnoseJob, addedAt: number, joinedRun?: number): Replay => ({
    kind: APP_REPLAY.command,
    data: { job, addedAt, ...(joinedRun === undefined ? {} : { joinedRun }) },
  }),
  approval: (data: ApprovalRedo): Replay => ({ kind: APP_REPLAY.approval, data }),
  rootState: (planId: string, record: RootRecord): Replay => ({
    kind: APP_REPLAY.rootState,
    data: { planId, record },
  }),
};

export interface ReplayServices {
  producers: Producers;
  plans: PlanStore;
  subscriptions: Pick<Subscriptions, 'claimMessagePlan' | 'finishedSince'>;
  rootStates?: Pick<RootStates, 'record'> | undefined;
  /** Where a redo that stands down is said (absent: tests that do not look). */
  audit?: Pick<Audit, 'record'> | undefined;
}

/** An approval as its redo and its journal record keep it. */
interface ApprovalRedo {
  stored: StoredPlan;
  marks: readonly string[];
  at: number;
  message: MessageRef;
  job: RemediateJob;
}

/**
 * Writes again an approval a failover lost: its message's plan, its claim, its job. The
 * newest claim on the message is honoured: when another plan of the same
 * message was approved since (a stale view pressed on the new master, which had lost
 * this approval's message plan), this approval stands down, its claim is not written
 * back and its job not queued, so one message never gets two fixes. Audited
 * `not-queued`. The message's plan is taken first, atomically, so a press racing the
 * redo meets one of the two, never both. (The writer's own `redo` in approve.ts and
 * the journal's replayer alike.)
 */
export async function redoApproval(
  services: Pick<ReplayServices, 'plans' | 'subscriptions' | 'producers' | 'audit'>,
  approval: ApprovalRedo,
): Promise<'redone' | 'superseded'> {
  const { stored, marks, at, message, job } = approval;
  const held = await services.subscriptions.claimMessagePlan(message, job.planId);
  if (held !== job.planId) {
    services.audit?.record({
      action: 'outcome',
      planId: job.planId,
      cluster: stored.cluster,
      namespace: stored.plan.target.namespace,
      deployment: stored.plan.target.name,
      kind: stored.plan.kind,
      approvedBy: job.approvedBy,
      outcome: 'not-queued',
      detail: `lost in a failover, and another fix of the same message (${held.slice(0, 200)}) was approved since: one fix per message, so this approval is not applied`,
    });
    return 'superseded';
  }
  await services.plans.restoreClaim(stored, marks, at);
  await services.producers.enqueueRemediate(job);
  return 'redone';
}

/** The replayers of the app's journal records; `services` is read when one runs. */
export function appReplayers(
  services: () => ReplayServices,
): Record<string, (data: unknown) => Promise<void>> {
  return {
    [APP_REPLAY.command]: async (data) => {
      const { job, addedAt, joinedRun } = commandSchema.parse(data);
      await requeueCommand(services(), job, addedAt, joinedRun);
    },
    [APP_REPLAY.approval]: async (data) => {
      const { stored, marks, at, message, job } = approvalSchema.parse(data);
      await redoApproval(services(), { stored: stored as unknown as StoredPlan, marks, at, message, job });
    },
    [APP_REPLAY.rootState]: async (data) => {
      const { planId, record } = rootStateSchema.parse(data);
      await services().rootStates?.record(planId, record, { ifAbsent: true });
    },
  };
}

/**
 * Queues a command's job again after a failover judged it lost (the writer's `redo` and
 * the journal's replayer alike). A job id that exists is not added twice; a run that
 * published its result since the command was queued (`addedAt`), or the run it joined
 * (`joinedRun`) whenever it published, has answered it, and is not run a second time: its job is gone because it finished, not because a
 * failover lost it, and a second run would re-make the plans the people in the
 * conversation are reading (an older message's Approve then says "superseded"). Without
 * `addedAt` (a journal record from before it was kept) the job is queued.
 */
export async function requeueCommand(
  services: {
    producers: Pick<Producers, 'enqueueDiagnose'>;
    subscriptions: Pick<Subscriptions, 'finishedSince'>;
  },
  job: DiagnoseJob,
  addedAt: number | undefined,
  joinedRun?: number,
): Promise<void> {
  if (
    addedAt !== undefined &&
    (await services.subscriptions.finishedSince(job.cluster, jobIdOfDiagnosis(job), addedAt, joinedRun))
  )
    return;
  await services.producers.enqueueDiagnose(job);
}
