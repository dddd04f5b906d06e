/**
 * The approved message's state line (applying, applied, rolled out, failed,
 * refused, not finished in time, undone), on every chat platform alike: the stage is
 * ordered across app replicas (./root-stage.ts), and the message's own adapter shows
 * it (`ChatAdapter.showFixStage`: Slack re-renders the blocks the app kept under its
 * mark in the root record; a platform without it re-renders what its adapter remembers
 * of the message, `shown`, as Teams does from its card store).
 */
import type { ChatAdapter } from '../adapter.js';
import type { Rich } from '../model.js';
import { fixStageOf, stateLine, withResolution, withStateLine, type FixStage } from '../use-cases/outcome.js';
import type { Logger } from '../../logger.js';
import { platformOf } from '../../platforms/chat-refs.js';
import type { NotifyJob } from '../../queue/schemas.js';
import { z } from 'zod';
import { rootRef, type RootRecord, type RootStates } from './root-store.js';
import { portRef } from './run-delivery.js';
import { showLatestStage, type KeptStage } from './root-stage.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

/** The approval policy's names of approvers (platforms that cannot show an id: approvers.ts). */
type Names = Readonly<Record<string, string>>;

/**
 * Shows `stage` on the message of `record` (kept under `planId`) through its adapter,
 * and keeps what the adapter says the message shows now.
 */
async function showStage(
  roots: RootStates,
  adapter: ChatAdapter,
  planId: string,
  record: RootRecord,
  stage: FixStage,
  at: number,
  names: Names,
): Promise<void> {
  const line = keptStateLine(record, stage, at, adapter.platform, names);
  if (adapter.showFixStage) {
    const next = await adapter.showFixStage(record, stage, at, line);
    if (next) await roots.record(planId, next);
    return;
  }
  await showFromMemory(adapter, record, stage, line);
}

/** Who approved a fix and when, as approvePress keeps it in the root record's `approval`. */
const approvalSchema = z.object({
  approvers: z.array(z.string().min(1).max(64)).max(10),
  at: z.number().int(),
});

/**
 * The state line of the fix `record` keeps at `stage` (src/chat/use-cases/outcome.ts
 * stateLine); undefined when its `approval` is not the port's (a Slack record kept before
 * Approve went through the port held the approval as rendered: its adapter says it).
 */
function keptStateLine(
  record: RootRecord,
  stage: FixStage,
  at: number,
  platform: string,
  names: Names = {},
): Rich | undefined {
  const approval = approvalSchema.safeParse(safeJson(record.approval));
  if (!approval.success) return undefined;
  const fix = { what: record.what, approvers: approval.data.approvers, approvedAt: approval.data.at };
  return stateLine(stage, { ...fix, platform, names }, at);
}

/**
 * The state line on a platform whose adapter remembers what its messages show (`shown`:
 * Teams' card store): that message with its state line at `stage`.
 */
async function showFromMemory(
  adapter: ChatAdapter,
  record: RootRecord,
  stage: FixStage,
  line: Rich | undefined,
): Promise<void> {
  if (!line) return;
  const ref = portRef({ ...record, threadTs: record.threadTs });
  const shown = await adapter.shown?.(ref);
  if (!shown) return;
  await adapter.update(ref, withStateLine(withResolution(shown, stage), line));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Shows a recorded stage on the message of `record`, whichever plan of the message it belongs to. */
function showOn(
  roots: RootStates,
  adapter: ChatAdapter,
  planId: string,
  record: RootRecord,
  names: Names,
): (latest: KeptStage) => Promise<void> {
  return async (latest) => {
    const kept = latest.planId === planId ? record : await roots.load(latest.planId);
    if (!kept || !sameMessage(kept, record)) return;
    await showStage(roots, adapter, latest.planId, kept, latest.stage, latest.at, names);
  };
}

function sameMessage(a: RootRecord, b: RootRecord): boolean {
  return platformOf(a) === platformOf(b) && a.channel === b.channel && a.ts === b.ts;
}

/**
 * Moves the message of `record` (kept under `planId`) to `stage` unless a later stage is
 * kept for it (./root-stage.ts), and shows the latest stage, whichever plan of the
 * message (the fix or its Undo) it belongs to.
 */
export async function showRootStage(
  roots: RootStates,
  adapter: ChatAdapter,
  planId: string,
  record: RootRecord,
  stage: FixStage,
  at: number,
  options: { approval?: boolean; names?: Names; attempt?: number | undefined } = {},
): Promise<void> {
  await showLatestStage(
    roots.stages,
    rootRef(record),
    { planId, stage, at, attempt: options.attempt },
    showOn(roots, adapter, planId, record, options.names ?? {}),
    options.approval ? { approval: true } : {},
  );
}

/**
 * After a signed outcome's thread reply: the approved message says the same, when the
 * app kept that message and it is the one the outcome is about (its channel and
 * thread, from the signed job), and no later stage was shown there (another replica
 * may deliver the plan's outcomes at the same time: ./root-stage.ts). Never throws:
 * the reply is posted, and a retry of the notify job would post it twice; a message
 * that cannot be edited (deleted, too old) is logged.
 */
export async function rootOnOutcome(
  roots: RootStates,
  adapter: ChatAdapter,
  job: Outcome,
  logger: Pick<Logger, 'warn'>,
  now = Date.now(),
  names: Names = {},
): Promise<void> {
  try {
    // Held before the message is looked for: an approval that has not kept its message
    // yet takes it over once it has (./root-stage.ts).
    const held = fixStageOf(job, false);
    if (held) await roots.stages.hold({ planId: job.planId, stage: held, at: now, attempt: job.attempt });
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
    if (stage)
      await showRootStage(roots, adapter, job.planId, record, stage, now, { names, attempt: job.attempt });
  } catch (error) {
    logger.warn({ err: error, planId: job.planId }, 'root message state not updated');
  }
}
