import type { webApi } from '@slack/bolt';
import type { NotifyJob } from '../../queue/schemas.js';
import { asSlackBlocks } from '../../chat/slack/blocks/text.js';
import type { Logger } from '../../logger.js';
import { platformOf } from '../../queue/chat-refs.js';
import { fixStageOf, type FixStage } from '../../chat/use-cases/outcome.js';
import { rootRef, withRootState, type RootRecord, type RootStates } from './root-state.js';
import { showApprovedStage, showLatestStage, type KeptStage } from './root-stage.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

/** Re-renders the root's state line for `stage` and keeps the result under `planId`. */
export async function updateRootState(
  roots: RootStates,
  client: Pick<webApi.WebClient, 'chat'>,
  planId: string,
  record: RootRecord,
  stage: FixStage,
  at: number,
): Promise<void> {
  const blocks = withRootState(record.blocks, record, stage, at);
  await client.chat.update({
    channel: record.channel,
    ts: record.ts,
    // The notification's text: an approval still reads as one ("… approved; applying").
    text: stage === 'applying' ? `${record.what} approved; applying` : `${record.what}: ${stage}`,
    blocks: asSlackBlocks(blocks),
  });
  await roots.record(planId, { ...record, blocks });
}

/**
 * Moves the root of `record` (kept under `planId`) to `stage` unless a later stage is
 * kept for it (./root-stage.ts), and shows the latest stage, whichever plan of the
 * message (the fix or its Undo) it belongs to. `approval`: an approval's own stage.
 */
export async function showRootStage(
  roots: RootStates,
  client: Pick<webApi.WebClient, 'chat'>,
  planId: string,
  record: RootRecord,
  stage: FixStage,
  at: number,
  options: { approval?: boolean } = {},
): Promise<void> {
  await showLatestStage(
    roots.stages,
    rootRef(record),
    { planId, stage, at },
    showOn(roots, client, planId, record),
    options,
  );
}

/**
 * The approval's own edit of the root (`applying`, or `undoing` on the root an Undo
 * follows): recorded before the edit, showing a later stage when one is recorded or
 * was held for the plan before the root was kept (./root-stage.ts showApprovedStage).
 * False when the stage record cannot be read back: the caller edits the root itself.
 */
export async function showApprovalStage(
  roots: RootStates,
  client: Pick<webApi.WebClient, 'chat'>,
  planId: string,
  record: RootRecord,
  stage: 'applying' | 'undoing',
  at: number,
): Promise<boolean> {
  return showApprovedStage(
    roots.stages,
    rootRef(record),
    { planId, stage, at },
    showOn(roots, client, planId, record),
    { undo: stage === 'undoing' },
  );
}

/** Shows a recorded stage on the root of `record`, whichever plan of the message it belongs to. */
function showOn(
  roots: RootStates,
  client: Pick<webApi.WebClient, 'chat'>,
  planId: string,
  record: RootRecord,
): (latest: KeptStage) => Promise<void> {
  return async (latest) => {
    const kept = latest.planId === planId ? record : await roots.load(latest.planId);
    if (!kept || !sameMessage(kept, record)) return;
    await updateRootState(roots, client, latest.planId, kept, latest.stage, latest.at);
  };
}

function sameMessage(a: RootRecord, b: RootRecord): boolean {
  return platformOf(a) === platformOf(b) && a.channel === b.channel && a.ts === b.ts;
}

/**
 * After a signed outcome's thread reply: the root message of the approved plan says the
 * same, when the app kept that root and it is the message the outcome is about (its
 * channel and thread, from the signed job), and no later stage was shown there (another
 * replica may deliver the plan's outcomes at the same time: ./root-stage.ts). Never throws: the reply is posted, and a
 * retry of the notify job would post it twice; a root that cannot be edited (deleted,
 * too old) is logged.
 */
export async function rootOnOutcome(
  roots: RootStates,
  client: Pick<webApi.WebClient, 'chat'>,
  job: Outcome,
  logger: Logger,
  now = Date.now(),
): Promise<void> {
  try {
    // Held before the root is looked for: an approval that has not kept its root yet
    // takes it over once it has (./root-stage.ts).
    const held = fixStageOf(job, false);
    if (held) await roots.stages.hold({ planId: job.planId, stage: held, at: now });
    const record = await roots.load(job.planId);
    if (!record) return;
    if (
      platformOf(record) !== platformOf(job) ||
      record.channel !== job.channel ||
      record.threadTs !== job.messageTs
    ) {
      logger.warn(
        { planId: job.planId },
        'root message state names another message than the outcome: not edited',
      );
      return;
    }
    const stage = fixStageOf(job, record.undo);
    if (stage) await showRootStage(roots, client, job.planId, record, stage, now);
  } catch (error) {
    logger.warn({ err: error, planId: job.planId }, 'root message state not updated');
  }
}
