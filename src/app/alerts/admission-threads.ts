/**
 * App side of the admission webhook's warned applies (issue 56.3): when a team's alert
 * channel is configured, an apply the webhook warned about opens the workload's
 * incident thread before the rollout starts, as the early warning does and under the
 * same caps (the read policy's word per namespace and channel, the per-minute thread
 * budget shared with alert and early-warning threads, one overflow line per channel and
 * minute). The thread key is the early warning's (workloadHash), so there is one thread
 * per rollout: the early warning's diagnosis, and any alert, later joins this thread.
 */
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { workloadHash } from '../../queue/alert-keys.js';
import { openWithinBudget, type EarlyWarningOpenerDeps } from './early-warning-threads.js';
import { admissionWarningRootMessage, type AdmissionWarningJob } from './messages.js';

/** opened: a new thread; joined: the workload had one (nothing posted); refused: the policy says no; over-budget: summarised. */
export type AdmissionThreadOutcome = 'opened' | 'joined' | 'refused' | 'over-budget';

export function createAdmissionWarningOpener(
  deps: EarlyWarningOpenerDeps,
): (job: AdmissionWarningJob) => Promise<AdmissionThreadOutcome> {
  return async (job) => {
    const { kind, namespace, name } = job.workload;
    const channel = deps.channelFor(namespace);
    if (deps.allows && !deps.allows({ cluster: job.cluster, namespace, channel })) return 'refused';
    const hash = workloadHash({ cluster: job.cluster, namespace, kind, name });
    // One thread per rollout: a warned apply again (a retried apply, the next replica) posts nothing.
    if ((await deps.store.find(hash)) !== null) return 'joined';
    const title = `Rollout that can never finish applied to ${namespace}/${typeOfKind(kind)}/${name} (cluster ${job.cluster})`;
    const opened = await openWithinBudget(deps, {
      workloadHash: hash,
      channel,
      title,
      root: admissionWarningRootMessage(job),
    });
    if (opened === null) return 'over-budget';
    return opened.created ? 'opened' : 'joined';
  };
}
