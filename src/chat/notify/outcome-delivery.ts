/**
 * A signed remediation outcome, on every chat platform alike: the reply in the approved
 * message's thread (src/chat/use-cases/outcome.ts, rendered by the message's own
 * adapter), then the approved message's state line (./root-update.ts). An outcome of an
 * attempt older than one already delivered is dropped (./root-stage.ts, the fence).
 */
import { UnrecoverableError } from 'bullmq';
import { DRAFT_STAGES, outcomeMessage } from '../use-cases/outcome.js';
import { subscribed } from '../use-cases/press.js';
import type { PostmortemButton } from './postmortem-buttons.js';
import { incidentId } from '../../postmortem/build.js';
import { platformOf, platformTag } from '../../platforms/chat-refs.js';
import { DEFAULT_LANG, type Lang } from '../../i18n/lang.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import type { NotifyJob } from '../../queue/schemas.js';
import type { ChatServices } from '../services.js';
import { rootOnOutcome } from './root-update.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

export async function deliverOutcome(
  services: Pick<ChatServices, 'logger'> &
    Partial<
      Pick<
        ChatServices,
        | 'chats'
        | 'policy'
        | 'rootStates'
        | 'subscriptions'
        | 'config'
        | 'plans'
        | 'postmortems'
        | 'postedOnce'
      >
    >,
  job: Outcome,
  undo: StoredPlan | undefined,
  now = Date.now(),
  /**
   * The notification's own id (its deduplication id, else its job id): a delivery of one
   * already posted posts nothing (./posted-once.ts) and moves the state line only.
   */
  notification?: string,
): Promise<void> {
  const platform = platformOf(job);
  const adapter = services.chats?.[platform];
  if (!adapter)
    throw new UnrecoverableError(`outcome for a message in ${platform}, which this app does not serve`);
  // An outcome of an earlier attempt than one the app already took (a worker cut off
  // while another took its job over): neither the thread nor the message hears it.
  if (services.rootStates && job.attempt !== undefined) {
    if (!(await services.rootStates.stages.fence(job.planId, job.attempt))) {
      services.logger.warn(
        { planId: job.planId, attempt: job.attempt, stage: job.stage },
        'outcome of an earlier attempt than one already delivered: not posted',
      );
      return;
    }
  }
  const thread = { platform: adapter.platform, id: job.channel, thread: job.messageTs };
  // Approvers by the policy's names where the platform cannot show an id as a person.
  const names = services.policy?.names ?? {};
  const lang = await threadLang(services, job);
  const incident = await draftedIncident(services, job);
  const post = () =>
    adapter.post(
      thread,
      outcomeMessage(job, adapter.platform, undo, now, names, lang, { postmortem: incident !== undefined }),
    );
  const delivered =
    services.postedOnce && notification !== undefined
      ? await services.postedOnce.once(notification, post)
      : { posted: true as const, value: await post() };
  if (!delivered.posted)
    services.logger.warn(
      { planId: job.planId, stage: job.stage, notification },
      'outcome delivered again: posted once already, not posted',
    );
  // What its Draft post-mortem button drafts, kept by the app (the button carries nothing).
  if (delivered.posted && incident && services.postmortems)
    await services.postmortems
      .remember(subscribed(delivered.value), { ...incident, lang })
      .catch((error: unknown) =>
        services.logger.warn({ err: error, planId: job.planId }, 'post-mortem button: its incident not kept'),
      );
  if (services.rootStates)
    await rootOnOutcome(services.rootStates, adapter, job, services.logger, now, names);
}

/**
 * The incident a completed rollout's reply offers to draft the post-mortem of: the
 * workload of the outcome's plan as the plan store keeps it (for this cluster), named as
 * the incident's record names it (src/postmortem/build.ts incidentId). Undefined for any
 * other stage, without a place to keep it, or when the plan is not found.
 */
async function draftedIncident(
  services: Pick<ChatServices, 'logger'> & Partial<Pick<ChatServices, 'plans' | 'postmortems'>>,
  job: Outcome,
): Promise<Omit<PostmortemButton, 'lang'> | undefined> {
  if (!DRAFT_STAGES.has(job.stage) || !services.postmortems || !services.plans) return undefined;
  try {
    const stored = await services.plans.get(job.planId);
    if (!stored || stored.cluster !== job.cluster) return undefined;
    const { namespace, name } = stored.plan.target;
    return { incident: incidentId(job.cluster, namespace, name), cluster: job.cluster, namespace };
  } catch (error) {
    services.logger.warn({ err: error, planId: job.planId }, 'post-mortem button: plan not read');
    return undefined;
  }
}

/** The thread's language: its starter's, as the approved message's owner record keeps it, else the workspace's. */
export async function threadLang(
  services: Partial<Pick<ChatServices, 'subscriptions' | 'config'>>,
  job: Pick<Outcome, 'platform' | 'channel' | 'messageTs'>,
): Promise<Lang> {
  let owner: { lang?: Lang } | null = null;
  try {
    owner =
      (await services.subscriptions?.ownerOf({
        ...platformTag(platformOf(job)),
        channel: job.channel,
        ts: job.messageTs,
      })) ?? null;
  } catch {
    // An owner record that cannot be read costs only the language.
  }
  return owner?.lang ?? services.config?.lang ?? DEFAULT_LANG;
}
