/**
 * App side of the admission webhook's warned applies: when a team's alert
 * channel is configured, an apply the webhook warned about opens the workload's
 * incident thread, as the early warning does, under the read policy's word per
 * namespace and channel and a per-minute budget of its own
 * (ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE, one overflow line per channel and
 * minute): made-up reviews can never spend the alerts' budget. It is only
 * called once the cluster shows the applied object (admission-parking.ts). The thread
 * key is the early warning's (workloadHash), so there is one thread per rollout: the
 * early warning's diagnosis, and any alert, later joins it; the thread is marked as a
 * warned apply's, and the first alert joining it says so (thread-updates.ts).
 */
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { workloadHash } from '../../queue/alert-keys.js';
import { openWithinBudget, type EarlyWarningOpenerDeps } from './early-warning-threads.js';
import {
  admissionOverflowMessage,
  admissionWarningRootMessage,
  type AdmissionWarningJob,
} from './messages.js';

/**
 * opened: a new thread; joined: the workload had one (nothing posted); refused: the
 * policy says no; over-budget: summarised; parked: waiting for the cluster to show the
 * object at the reviewed generation (admission-parking.ts).
 */
export type AdmissionThreadOutcome = 'opened' | 'joined' | 'refused' | 'over-budget' | 'parked';

/** `deps.budget`: the warned applies' own (ADMISSION_BUDGET_KEYS), never the alerts'. */
export function createAdmissionWarningOpener(
  deps: EarlyWarningOpenerDeps,
): (job: AdmissionWarningJob) => Promise<Exclude<AdmissionThreadOutcome, 'parked'>> {
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
      origin: 'admission',
      overflow: admissionOverflowMessage,
    });
    if (opened === null) return 'over-budget';
    return opened.created ? 'opened' : 'joined';
  };
}
