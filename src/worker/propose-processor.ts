/**
 * "Propose in Git" jobs: a chat press approved the proposal of a stored plan
 * (src/chat/use-cases/propose-press.ts); this worker, the only process holding the Git
 * token (docs/propose-in-git.md "Credentials"), runs the engine (src/propose/propose.ts)
 * on exactly that plan and tells the thread the pull request's address, or why none was
 * opened. Before anything is cloned, the plan must carry the workers' seal and the job
 * the app's approval signed for its proposal (src/worker/plan-trust.ts, `proposal`):
 * an approval to apply stands for no proposal, nor the reverse. Each outcome is audited.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Audit, AuditEvent } from '../audit.js';
import type { Logger } from '../logger.js';
import type { ProposeResult } from '../propose/propose.js';
import type { PullRecord } from '../propose/pull-record.js';
import type { PlanStore, StoredPlan } from '../queue/plan-store.js';
import { proposeJobSchema, type NotifyJobInput, type ProposeJob } from '../queue/schemas.js';
import { proposalOf } from '../trust/approval-signature.js';
import { platformTag } from '../platforms/chat-refs.js';
import type { PlanTrust } from './plan-trust.js';
import { proposalRecord } from './proposal-record.js';
import { errorMessage } from './progress.js';

/** The engine's answer, or why it could not start (no Git source the owner names, no token). */
type ProposalRun = ProposeResult | { status: 'no-source'; why: string };

export interface ProposeDeps {
  plans: PlanStore;
  trust: PlanTrust;
  /**
   * The engine on the stored plan (src/propose/for-plan.ts); absent: this worker holds no
   * Git token (ROLLOUT_DOCTOR_GIT_TOKEN or ROLLOUT_DOCTOR_GIT_TOKEN_FILE), and says so.
   * `record`: what the pull request's body says of the press (./proposal-record.ts).
   */
  propose?: ((stored: StoredPlan, record: PullRecord) => Promise<ProposalRun>) | undefined;
  notify(job: NotifyJobInput): Promise<void>;
  audit: Audit;
  logger: Logger;
}

type Outcome = Extract<NotifyJobInput, { kind: 'proposal-outcome' }>;
type Status = Outcome['status'];
type Audited = Extract<AuditEvent, { action: 'proposal' }>['outcome'];

/** Why a worker without a token proposes nothing, said in the thread. */
const NO_TOKEN =
  "this cluster's workers hold no Git token (ROLLOUT_DOCTOR_GIT_TOKEN or ROLLOUT_DOCTOR_GIT_TOKEN_FILE)";

/** The thread's status and the line that says it, from the engine's answer. */
function outcomeOf(result: ProposalRun): {
  status: Status;
  detail?: string;
  url?: string;
  number?: number;
} {
  switch (result.status) {
    case 'pushed':
      return {
        status: result.pull.action === 'created' ? 'opened' : 'updated',
        url: result.pull.url,
        number: result.pull.number,
        detail: result.file,
      };
    case 'unchanged':
      return { status: 'unchanged', detail: result.file };
    case 'by-hand':
    case 'no-source':
      return { status: 'by-hand', detail: result.why };
    case 'refused':
      return { status: 'refused', detail: result.check?.reason ?? result.why };
    case 'dry-run':
      return { status: 'failed', detail: 'a dry run pushed nothing' };
  }
}

export function createProposeProcessor(deps: ProposeDeps): (job: Job<ProposeJob>) => Promise<Status> {
  return async (job) => {
    const parsed = proposeJobSchema.safeParse(job.data);
    if (!parsed.success) {
      deps.logger.warn({ jobId: job.id }, 'propose job malformed: nothing proposed');
      throw new UnrecoverableError('malformed propose job');
    }
    const data = parsed.data;
    const stored = await deps.plans.get(data.planId);
    const target = stored?.plan.target;
    const where = {
      planId: proposalOf(data.planId),
      cluster: data.cluster,
      namespace: target?.namespace ?? '',
      deployment: target?.name ?? '',
      kind: stored?.plan.kind ?? '',
      approvedBy: data.approvedBy,
    };
    const say = async (status: Status, audited: Audited, extra: Partial<Outcome> = {}): Promise<Status> => {
      deps.audit.record({
        action: 'proposal',
        ...where,
        outcome: audited,
        ...(extra.url ? { url: extra.url } : {}),
        ...(extra.detail ? { detail: extra.detail.slice(0, 300) } : {}),
      });
      await deps.notify({
        kind: 'proposal-outcome',
        planId: data.planId,
        cluster: data.cluster,
        ...platformTag(data.platform),
        channel: data.channel,
        messageTs: data.messageTs,
        approvedBy: data.approvedBy,
        status,
        ...extra,
      });
      return status;
    };
    if (!stored) return say('failed', 'failed', { detail: 'the plan is no longer known (expired)' });
    const trust = await deps.trust.check(stored, { id: String(job.id), data }, { proposal: true });
    if (!trust.ok) return say('refused', 'tampered', { detail: trust.reason });
    if (!deps.propose) return say('failed', 'failed', { detail: NO_TOKEN });
    let result: ProposalRun;
    try {
      result = await deps.propose(stored, proposalRecord(data, stored));
    } catch (error) {
      deps.logger.warn({ err: error, planId: data.planId }, 'proposal failed');
      return say('failed', 'failed', { detail: errorMessage(error).slice(0, 1_000) });
    }
    const outcome = outcomeOf(result);
    return say(outcome.status, outcome.status, {
      ...(outcome.url ? { url: outcome.url } : {}),
      ...(outcome.number ? { number: outcome.number } : {}),
      ...(outcome.detail ? { detail: outcome.detail.slice(0, 1_000) } : {}),
    });
  };
}
