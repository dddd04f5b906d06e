import { typeOfKind } from '../../../../diagnosis/workload-ref.js';
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { asIs, mrkdwn, trusted, userMention } from '../../blocks/mrkdwn.js';
import { QueueUnavailableError } from '../../../../queue/producers.js';
import { USAGE, parseCommand } from '../../../../app/command-parse.js';
import { announceRun } from '../../../../app/announce.js';
import { spendBudget } from '../../../../app/command-budget.js';
import type { AppServices } from '../../../../app/services.js';

type CommandArgs = AllMiddlewareArgs & SlackCommandMiddlewareArgs;

/**
 * `/rollout-doctor`: validate, enqueue, ack (all inside Slack's 3 s), then post the
 * visible "diagnosing…" message and subscribe it to the run. No cluster work here.
 */
export function rolloutDoctorCommand(services: AppServices) {
  return async ({ command, ack, client, respond, logger }: CommandArgs): Promise<void> => {
    const { config, metrics, producers } = services;
    const parsed = parseCommand(command.text, {
      clusters: config.clusters,
      defaultCluster: config.defaultCluster,
    });
    if (parsed.kind === 'help') {
      metrics.commands.inc({ command: 'help', outcome: 'help' });
      await ack({ response_type: 'ephemeral', text: USAGE });
      return;
    }
    if (parsed.kind === 'invalid') {
      metrics.commands.inc({ command: 'invalid', outcome: 'usage' });
      // The problem quotes what the user typed, escaped in inline code (command-parse.ts).
      await ack({
        response_type: 'ephemeral',
        text: mrkdwn`:warning: ${asIs(parsed.problem)}\n\n${asIs(trusted(USAGE))}`,
      });
      return;
    }
    // The budget (src/app/command-budget.ts): a flood of commands must not post
    // publicly and queue person-priority jobs ahead of every alert.
    const overBudget = await spendBudget(services, {
      user: command.user_id,
      channel: command.channel_id,
      entry: parsed.kind,
    });
    if (overBudget) {
      await ack({ response_type: 'ephemeral', text: overBudget });
      return;
    }
    // The read policy (src/policy/read-policy.ts): a diagnosis reads pod logs, a scan a
    // whole namespace or cluster. Refused before anything is queued; ephemeral, audited.
    const read = await services.readPolicy.check({
      user: command.user_id,
      channel: command.channel_id,
      cluster: parsed.cluster,
      namespace: parsed.namespace,
    });
    if (!read.allowed) {
      metrics.commands.inc({ command: parsed.kind, outcome: 'refused' });
      services.audit.record({
        action: 'refusal',
        planId: parsed.kind,
        cluster: parsed.cluster,
        ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
        ...(parsed.kind === 'diagnose' ? { deployment: parsed.name } : {}),
        user: command.user_id,
        reason: 'not-reader',
        detail: `channel ${command.channel_id}`,
      });
      await ack({ response_type: 'ephemeral', text: mrkdwn`:no_entry: Not started: ${read.reason}.` });
      return;
    }
    const addedAt = Date.now();
    let jobId: string;
    let joined: boolean;
    try {
      ({ jobId, joined } =
        parsed.kind === 'diagnose'
          ? await producers.enqueueDiagnose({
              mode: 'deployment',
              cluster: parsed.cluster,
              target: { kind: parsed.workload, namespace: parsed.namespace, name: parsed.name },
              requestedBy: command.user_id,
            })
          : await producers.enqueueDiagnose({
              mode: 'scan',
              cluster: parsed.cluster,
              requestedBy: command.user_id,
              ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
            }));
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      logger.warn(`queue unavailable: ${error.message}`);
      metrics.commands.inc({ command: parsed.kind, outcome: 'queue-unavailable' });
      await ack({
        response_type: 'ephemeral',
        text: ':x: The diagnosis queue is unavailable right now (Redis unreachable). Nothing was started; please try again in a minute.',
      });
      return;
    }
    metrics.commands.inc({ command: parsed.kind, outcome: joined ? 'joined' : 'queued' });
    await ack();

    const what =
      parsed.kind === 'diagnose'
        ? mrkdwn`${typeOfKind(parsed.workload)}/${parsed.name} in ${parsed.namespace}`
        : mrkdwn`scan of ${parsed.namespace ? `namespace ${parsed.namespace}` : 'all namespaces'}`;
    const text = mrkdwn`:stethoscope: ${asIs(userMention(command.user_id))} asked for ${parsed.kind === 'diagnose' ? 'a diagnosis of' : 'a'} ${asIs(what)} (cluster ${parsed.cluster})${joined ? ': joining the run already in progress' : ''}…`;
    try {
      await announceRun(services, client, {
        channel: command.channel_id,
        cluster: parsed.cluster,
        jobId,
        text,
        addedAt,
        owner: {
          requestedBy: command.user_id,
          cluster: parsed.cluster,
          ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
        },
      });
    } catch (error) {
      logger.warn(
        `could not post in ${command.channel_id}: ${error instanceof Error ? error.message : String(error)}`,
      );
      await respond({
        response_type: 'ephemeral',
        text: `I could not post in this channel (invite me with \`/invite @rollout-doctor\`). The ${what} is running anyway.`,
      });
    }
  };
}
