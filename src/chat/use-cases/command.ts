/**
 * The command, platform-free: validate, spend the budget, check the read policy,
 * enqueue, and say so; all inside the platform's acknowledgement window (Slack's
 * 3 s), with no cluster work. The adapter acknowledges with the private reply, or
 * acknowledges and then announces the started run (src/chat/slack/listeners/commands/).
 */
import type { AppConfig } from '../../config/environment.js';
import type { Audit } from '../../audit.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { ReadPolicy } from '../../policy/read-policy.js';
import type { Producers } from '../../queue/producers.js';
import { RedisTroubleError, deadlineIn, type Deadline } from '../../queue/deadline.js';
import { ANSWER_DEADLINE_MS, redisTroubleWords, tryAgainWords } from './redis-words.js';
import type { ReplicationGuard } from '../../queue/replication-guard.js';
import { appReplay, requeueCommand } from './replays.js';
import { newRequestId } from '../../queue/withdrawn.js';
import type { DiagnoseJob } from '../../queue/schemas.js';
import type { Subscriptions } from '../notify/subscriptions.js';
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { spendBudget, type CommandBudget } from './command-budget.js';
import type { CommandReply, CommandRequest } from '../adapter.js';
import type { ChatMessage, Rich } from '../model.js';
import { icon, mention, say } from '../../message/rich.js';
import { parseCommand, usage, type ParsedCommand } from './command-parse.js';
import { wordsIn } from '../../i18n/catalogue.js';
import { DEFAULT_LANG } from '../../i18n/lang.js';
import { COMMAND_WORDS } from '../words/command.js';

/** How people call the app on a platform, and how they let it into a conversation. */
export interface CommandWords {
  /** '/rollout-doctor' (Slack), '@rollout-doctor' (Teams). */
  command: string;
  /** What to type when the app cannot post in a conversation: '/invite @rollout-doctor'. */
  invite: string;
}

/** What the command needs of the app's services (src/chat/services.ts has them all). */
interface CommandServices {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  audit: Audit;
  producers: Producers;
  readPolicy: ReadPolicy;
  commandBudget?: CommandBudget | undefined;
  replication?: ReplicationGuard | undefined;
  /** Whether a run has answered since (a lost command is not run twice: src/chat/use-cases/replays.ts). */
  subscriptions: Pick<Subscriptions, 'finishedSince'>;
}

/** The diagnosis job of a command. */
function jobOf(parsed: Run, requestedBy: string): DiagnoseJob {
  return parsed.kind === 'diagnose'
    ? {
        mode: 'workload',
        cluster: parsed.cluster,
        target: { kind: parsed.workload, namespace: parsed.namespace, name: parsed.name },
        requestedBy,
      }
    : {
        mode: 'scan',
        cluster: parsed.cluster,
        requestedBy,
        ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
      };
}

/** A message that is its summary alone (replies and announcements). */
export function textMessage(summary: Rich): ChatMessage {
  return { summary, parts: [] };
}

const privately = (summary: Rich): CommandReply => ({ kind: 'private', message: textMessage(summary) });

type Run = Exclude<ParsedCommand, { kind: 'help' } | { kind: 'invalid' }>;

/** A command a person sent: the private reply, or the run it queued (or joined). */
export async function runCommand(
  services: CommandServices,
  request: CommandRequest,
  words: CommandWords,
): Promise<CommandReply> {
  const { config, metrics } = services;
  const parsed = parseCommand(request.text, {
    clusters: config.clusters,
    defaultCluster: config.defaultCluster,
  });
  if (parsed.kind === 'help') {
    metrics.commands.inc({ command: 'help', outcome: 'help' });
    return privately(usage(words.command));
  }
  if (parsed.kind === 'invalid') {
    metrics.commands.inc({ command: 'invalid', outcome: 'usage' });
    // The problem quotes what the person typed, as code (command-parse.ts).
    return privately(say`${icon('warning')} ${parsed.problem}\n\n${usage(words.command)}`);
  }
  // Every Redis call of the answer shares one deadline inside the platform's window.
  const deadline = deadlineIn(ANSWER_DEADLINE_MS);
  const refusal = await refusedBeforeQueueing(services, request, parsed, deadline);
  if (refusal) return privately(refusal);
  return enqueue(services, request, parsed, words, deadline);
}

/**
 * The read policy (src/policy/read-policy.ts: a diagnosis reads pod logs, a scan a whole
 * namespace or cluster), then the budget (src/chat/use-cases/command-budget.ts: a flood of
 * commands must not post publicly and queue person-priority jobs ahead of every
 * alert). In that order: someone who may not read spends no budget, so an outsider's
 * flood never uses up the channel's budget for its readers. Refused before
 * anything is queued; audited.
 */
async function refusedBeforeQueueing(
  services: CommandServices,
  request: CommandRequest,
  parsed: Run,
  deadline: Deadline,
): Promise<Rich | null> {
  const user = request.person.id;
  const channel = request.conversation.id;
  const read = await services.readPolicy.check({
    user,
    channel,
    cluster: parsed.cluster,
    namespace: parsed.namespace,
  });
  if (read.allowed) return spendBudget(services, { user, channel, entry: parsed.kind }, deadline);
  services.metrics.commands.inc({ command: parsed.kind, outcome: 'refused' });
  services.audit.record({
    action: 'refusal',
    planId: parsed.kind,
    cluster: parsed.cluster,
    ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
    ...(parsed.kind === 'diagnose' ? { deployment: parsed.name } : {}),
    user,
    reason: 'not-reader',
    detail: `channel ${channel}`,
  });
  return say`${icon('refused')} Not started: ${read.reason}.`;
}

async function enqueue(
  services: CommandServices,
  request: CommandRequest,
  parsed: Run,
  words: CommandWords,
  deadline: Deadline,
): Promise<CommandReply> {
  const requestedBy = request.person.id;
  const addedAt = Date.now();
  // The request's own id: a redo after a failover queues the same request, so a job the
  // answer said was not started stays withdrawn however it is queued (src/queue/withdrawn.ts).
  const requestId = newRequestId();
  // The reader's language, else the workspace's: the thread this run starts keeps it.
  const lang = request.lang ?? services.config.lang;
  const job: DiagnoseJob = { ...jobOf(parsed, requestedBy), request: requestId, ...(lang ? { lang } : {}) };
  let queued: Awaited<ReturnType<Producers['enqueueDiagnose']>> | undefined;
  // A redo after a failover queues the job again only for an answer that said "started".
  let started = false;
  try {
    const socket = services.replication?.socket();
    queued = await services.producers.enqueueDiagnose(job, { deadline });
    const { joinedRun } = queued;
    // Acked only once a replica has the job (WAIT, bounded by the answer's deadline); a
    // job a failover lost anyway is queued again (src/queue/replication-guard.ts).
    await deadline.bound<unknown>(
      services.replication?.confirm({
        label: 'command',
        fields: { jobId: queued.jobId },
        ...(socket === undefined ? {} : { socket }),
        redo: async () => (started ? requeueCommand(services, job, addedAt, joinedRun) : undefined),
        replay: appReplay.command(job, addedAt, joinedRun),
      }) ?? Promise.resolve(),
      'confirm the queued diagnosis',
    );
    started = true;
  } catch (error) {
    if (!(error instanceof RedisTroubleError)) throw error;
    // Queued but not confirmed in time: the answer says "not started", so its job runs nothing.
    if (queued) services.producers.withdraw(requestId);
    setImmediate(() => services.logger.warn(`queue unavailable: ${error.message}`));
    services.metrics.commands.inc({ command: parsed.kind, outcome: 'queue-unavailable' });
    return privately(
      say`${icon('failed')} The diagnosis queue is unavailable right now (${redisTroubleWords(error)}). Nothing was started; please try again ${tryAgainWords(error)}.`,
    );
  }
  services.metrics.commands.inc({ command: parsed.kind, outcome: queued.joined ? 'joined' : 'queued' });
  const what =
    parsed.kind === 'diagnose'
      ? say`${typeOfKind(parsed.workload)}/${parsed.name} in ${parsed.namespace}`
      : say`scan of ${parsed.namespace ? `namespace ${parsed.namespace}` : 'all namespaces'}`;
  const w = wordsIn(COMMAND_WORDS, lang ?? DEFAULT_LANG);
  const said = { who: say`${mention(request.person)}`, cluster: parsed.cluster, joining: queued.joined };
  return {
    kind: 'started',
    run: {
      cluster: parsed.cluster,
      jobId: queued.jobId,
      addedAt,
      ...(queued.joinedRun === undefined ? {} : { joinedRun: queued.joinedRun }),
      what: parsed.kind,
      ...(parsed.kind === 'diagnose' ? { deployment: parsed.name } : {}),
      announcement: textMessage(
        parsed.kind === 'diagnose'
          ? w.announceDiagnosis({
              ...said,
              workload: `${typeOfKind(parsed.workload)}/${parsed.name}`,
              namespace: parsed.namespace,
            })
          : w.announceScan({ ...said, namespace: parsed.namespace ?? '' }),
      ),
      owner: {
        requestedBy,
        cluster: parsed.cluster,
        ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
        ...(lang ? { lang } : {}),
      },
      cannotPost: textMessage(w.cannotPost({ invite: words.invite, what })),
    },
  };
}
