import { EARLY_WARNING_CODES } from '../../queue/alert-jobs.js';
import { escapeMrkdwn, mrkdwn, trusted, asIs } from '../blocks/mrkdwn.js';
import { context, section } from '../blocks/text.js';
import type { RunResult } from './results.js';
import type { SlackThreadApi } from './thread-updates.js';
import type { ThreadRecord, ThreadStore } from '../../queue/alert-thread-store.js';

export interface EarlyWarningOpenerDeps {
  store: ThreadStore;
  slack: SlackThreadApi;
  channelFor: (namespace: string) => string;
  /** The read policy's word on alerts (src/plans/read-policy.ts): no thread where it says no. */
  allows?: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
}

/**
 * App side of the early warning: when a watch-started diagnosis confirms a surge
 * deadlock or node-local crash loop and no alert thread exists for the workload, open
 * one, with the same thread key an alert would use (a later alert joins it).
 */
export function createEarlyWarningOpener(
  deps: EarlyWarningOpenerDeps,
): (result: RunResult, workloadHash: string) => Promise<ThreadRecord | null> {
  return async (result, workloadHash) => {
    if (result.outcome.status !== 'diagnosed') return null;
    const { diagnosis } = result.outcome;
    const finding = diagnosis.findings.find((f) => EARLY_WARNING_CODES.includes(f.code));
    if (finding === undefined) return null;
    const { namespace, name } = diagnosis.target;
    const channel = deps.channelFor(namespace);
    if (deps.allows && !deps.allows({ cluster: result.cluster, namespace, channel })) return null;
    const title = `${finding.code} on ${namespace}/deployment/${name} (cluster ${result.cluster})`;
    const { record } = await deps.store.open({ workloadHash, channel, title }, async () => {
      const text = mrkdwn`:warning: *Early warning:* ${title}\n${asIs(escapeMrkdwn(finding.summary))}`;
      const posted = await deps.slack.postMessage({
        channel,
        text: mrkdwn`Early warning: ${title}`,
        blocks: [
          section(text),
          context(trusted('Found by the rollout-doctor watch before any alert fired.')),
        ],
      });
      if (posted.ts === undefined) throw new Error('chat.postMessage returned no ts');
      return posted.ts;
    });
    return record;
  };
}
