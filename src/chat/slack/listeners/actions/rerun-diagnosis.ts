import { toMrkdwn } from '../../render.js';
import { typeOfKind } from '../../../../diagnosis/workload-ref.js';
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asIs, mrkdwn, userMention } from '../../blocks/mrkdwn.js';
import { QueueUnavailableError } from '../../../../queue/producers.js';
import { parseRerunValue } from '../../blocks/action-ids.js';
import { announceRun } from '../../../../app/announce.js';
import { spendBudget } from '../../../../app/command-budget.js';
import type { AppServices } from '../../../../app/services.js';
import { clickContext } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** Re-run: a fresh diagnosis of the same target, answered in the message's thread. */
export function rerunDiagnosisAction(services: AppServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    const target = click ? parseRerunValue(click.value) : null;
    if (!click || !target || !services.config.clusters.includes(target.cluster)) return;
    // The same budget as the command (src/app/command-budget.ts): a Re-run posts in the
    // thread and queues a person-priority job too.
    const overBudget = await spendBudget(services, {
      user: click.user,
      channel: click.channel,
      entry: 'rerun',
    });
    if (overBudget) {
      await client.chat.postEphemeral({
        channel: click.channel,
        user: click.user,
        text: toMrkdwn(overBudget),
      });
      return;
    }
    const read = await services.readPolicy.check({
      user: click.user,
      channel: click.channel,
      cluster: target.cluster,
      namespace: target.namespace,
    });
    if (!read.allowed) {
      services.audit.record({
        action: 'refusal',
        planId: 'rerun',
        cluster: target.cluster,
        namespace: target.namespace,
        deployment: target.name,
        user: click.user,
        reason: 'not-reader',
        detail: `channel ${click.channel}`,
      });
      await client.chat.postEphemeral({
        channel: click.channel,
        user: click.user,
        text: mrkdwn`:no_entry: Not re-run: ${read.reason}.`,
      });
      return;
    }
    const addedAt = Date.now();
    let jobId: string;
    try {
      ({ jobId } = await services.producers.enqueueDiagnose({
        mode: 'deployment',
        cluster: target.cluster,
        target: { kind: target.kind, namespace: target.namespace, name: target.name },
        requestedBy: click.user,
      }));
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      await client.chat.postEphemeral({
        channel: click.channel,
        user: click.user,
        text: ':x: The diagnosis queue is unavailable right now (Redis unreachable). Try again in a minute.',
      });
      return;
    }
    services.metrics.commands.inc({ command: 'rerun', outcome: 'queued' });
    await announceRun(services, client, {
      channel: click.channel,
      cluster: target.cluster,
      jobId,
      addedAt,
      threadTs: click.rootTs,
      owner: { requestedBy: click.user, cluster: target.cluster, namespace: target.namespace },
      text: mrkdwn`:repeat: ${asIs(userMention(click.user))} re-runs the diagnosis of ${typeOfKind(target.kind)}/${target.name} in ${target.namespace}…`,
    });
  };
}
