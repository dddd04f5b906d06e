/**
 * What a chat-made pull request's body says of the press (src/propose/pull-record.ts),
 * from the propose job: the incident's id (`<cluster>/<namespace>/<workload>`, as the
 * post-mortem names it) from the stored plan, each approver's signed id with the name the
 * chat gave (none given: the id alone, said so), and the thread's link when it names the
 * very thread the approval was signed for (a Slack permalink to that channel and root
 * message); any other link, or none, and the body says there is none.
 */
import { platformEntry, platformOf } from '../platforms/chat-refs.js';
import type { PlatformEntry } from '../platforms/list.js';
import { incidentId } from '../postmortem/build.js';
import type { PullRecord } from '../propose/pull-record.js';
import type { StoredPlan } from '../queue/plan-store.js';
import type { ProposeJob } from '../queue/schemas.js';

/** Whether `link` is the thread's own, as its platform's links say (list.ts `threadLinkPath`). */
function linksThread(job: Pick<ProposeJob, 'platform' | 'channel' | 'messageTs'>, link: string): boolean {
  const entry: PlatformEntry = platformEntry(platformOf(job));
  const path = entry.threadLinkPath?.(job.channel, job.messageTs);
  if (path === undefined) return false;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && url.pathname === path;
  } catch {
    return false;
  }
}

export function proposalRecord(job: ProposeJob, stored: StoredPlan): PullRecord {
  const { namespace, name } = stored.plan.target;
  const names = new Map((job.names ?? []).map((n) => [n.id, n.name]));
  const link = job.threadLink && linksThread(job, job.threadLink) ? job.threadLink : undefined;
  return {
    incident: incidentId(stored.cluster, namespace, name),
    approvers: job.approvedBy.map((id) => ({ id, name: names.get(id) })),
    ...(link ? { thread: link } : {}),
  };
}
