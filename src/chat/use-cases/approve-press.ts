/**
 * Approve and Undo, pressed on any platform: the decision (src/chat/approvals/approve.ts:
 * the approver policy with cluster-scoped approvers, the plan as shown, the two-person
 * rule without the requester, the single-use claim, the app's signed approval naming
 * the message's platform and thread), answered as a PressReply: refusals privately, the
 * pressed message marked approved (its other fixes withdrawn), expired or superseded.
 * Every text of these answers is here, once; each adapter renders the marks in its own
 * markup (Slack: src/chat/slack/mark.ts, Teams: src/chat/teams/mark.ts). The approved
 * fix's state is kept under the app's mark (src/chat/notify/root-store.ts) so each
 * outcome re-renders the message's state line (src/chat/notify/root-update.ts).
 */
import { approve } from '../approvals/approve.js';
import type { ApprovalClick } from '../approvals/approval-click.js';
import { REFUSAL_TEXT } from '../approvals/refusal-text.js';
import { deadlineIn, type Deadline } from '../../queue/deadline.js';
import { ANSWER_DEADLINE_MS } from './redis-words.js';
import { spendApproverBudget } from './command-budget.js';
import { undoneKind } from '../../remediation/kinds/index.js';
import { chatPlatform, platformOf, platformTag, type ChatPlatform } from '../../platforms/chat-refs.js';
import { messageTime } from '../../text/time.js';
import type { ChatAction } from '../actions.js';
import type { PlanMark, PressReply, PressRequest, StateLineEdit } from '../adapter.js';
import { icon, say, strong } from '../../message/rich.js';
import { appReplay } from './replays.js';
import type { RootRecord } from '../notify/root-store.js';
import { textMessage } from './command.js';
import { stateLine, type FixStage } from './outcome.js';
import { dismiss, planStatus, rerun, type PressServices } from './press.js';
import { draftPostmortem } from './postmortem-press.js';
import { proposePress, type ProposeServices } from './propose-press.js';
import type { PostmortemButtons } from '../notify/postmortem-buttons.js';
import { expiredText } from './plan-expired.js';
import { approvedStage, type KeptStage, type RootStages } from '../notify/root-stage.js';
import { DURATION_TEXT } from '../approvals/chosen-duration.js';
import { choiceWords } from '../../remediation/exclusion-words.js';

/** What was approved, with how long its exclusion lasts when it writes one: `exclude-node (lasts 3d)`. */
function approvedWhat(what: string, ttl: string | undefined): string {
  return ttl === undefined ? what : `${what} (lasts ${choiceWords(ttl)})`;
}

/** Where an approved message is, as its stage record is keyed. */
type KeptMessage = Pick<RootRecord, 'platform' | 'channel' | 'ts'>;

/** The app's root states (src/chat/notify/root-store.ts), as far as presses use them. */
interface FixStates {
  record(planId: string, record: RootRecord, options?: { ifAbsent?: boolean }): Promise<void>;
  load(planId: string): Promise<RootRecord | null>;
  /** The message's stage, ordered across replicas (src/chat/notify/root-stage.ts). */
  stages?: RootStages;
}

type ApproveServices = PressServices & {
  rootStates?: FixStates | undefined;
  postmortems?: PostmortemButtons | undefined;
} & Parameters<typeof approve>[0] &
  ProposeServices;

type PlanAction = Extract<ChatAction, { kind: 'approve' | 'undo' }>;

const told = (text: Parameters<typeof textMessage>[0]): PressReply => ({ tell: textMessage(text) });

/**
 * A plan's button replaced by `label`, with `line` as the message's state line and
 * `summary` as its fallback text (what a notification shows).
 */
function mark(
  planId: string,
  label: string,
  line: PlanMark['line'],
  options: { withdrawOthers: boolean; summary: string; stage?: FixStage },
): PlanMark {
  const { withdrawOthers, summary, stage } = options;
  return { planId, label, line, withdrawOthers, summary: say`${summary}`, ...(stage ? { stage } : {}) };
}

export async function approvePress(
  services: ApproveServices,
  request: PressRequest,
  action: PlanAction,
): Promise<PressReply> {
  const user = request.person.id;
  const channel = request.message.conversation.id;
  // One deadline for the answer's Redis calls (src/queue/deadline.ts): past it, the
  // person is told to try again and nothing of it is applied. Longer where the platform
  // acked the press already (Slack): a failover under way is waited out;
  // a call Redis leaves unanswered is still given up after ANSWER_DEADLINE_MS (a stall
  // is not a failover: the person hears "try again" within Slack's 3 s all the same).
  const deadline = deadlineIn(request.deadlineMs ?? ANSWER_DEADLINE_MS, Date.now, {
    stallMs: ANSWER_DEADLINE_MS,
  });
  const overBudget = await spendApproverBudget(services, { user, channel, entry: action.kind }, deadline);
  if (overBudget) return told(overBudget);
  const click: ApprovalClick = {
    user,
    platform: request.person.platform,
    channel,
    messageTs: request.message.id,
    rootTs: request.root.id,
    planId: action.planId,
    shown: action.shown,
    requester: action.requester,
    ...(action.kind === 'approve' && action.lasts ? { lasts: action.lasts } : {}),
  };
  let outcome: Awaited<ReturnType<typeof approve>>;
  try {
    outcome = await approve(services, click, deadline);
  } catch (error) {
    services.logger.warn({ err: error, planId: action.planId }, 'approval not recorded');
    return told(REFUSAL_TEXT.notRecorded(error));
  }
  const now = Date.now();
  switch (outcome.kind) {
    case 'refused': {
      const k = outcome.superseded;
      if (k === undefined) return told(outcome.text);
      const line = say`${icon('superseded')} ${strong(k)} superseded at ${messageTime(now)}: a later diagnosis re-made this plan; approve it on the newer result.`;
      return {
        tell: textMessage(outcome.text),
        tellFirst: true,
        mark: mark(action.planId, `Superseded: ${k}`, line, {
          withdrawOthers: false,
          summary: `${k} superseded`,
        }),
      };
    }
    case 'recorded':
      return told(
        say`Approval recorded (${outcome.approvals}/${outcome.required})${outcome.ttl ? DURATION_TEXT.recordedFor(outcome.ttl) : ''}; waiting for another approver.`,
      );
    case 'expired': {
      const { kind } = outcome.stored.plan;
      const undo = outcome.stored.undoOf !== undefined;
      const what = undo ? `undo of ${undoneKind(kind)}` : kind;
      const line = undo
        ? say`${icon('expired')} ${strong(what)} expired (${messageTime(outcome.stored.expiresAt)}); to revert, apply the exact patch of the undo in this reply by hand.`
        : say`${icon('expired')} ${strong(kind)} expired (${messageTime(outcome.stored.expiresAt)}); press Re-run for a fresh plan.`;
      return {
        tell: textMessage(expiredText(outcome.stored)),
        mark: mark(action.planId, undo ? `Expired: ${what}` : `Expired: ${kind} (re-run)`, line, {
          withdrawOthers: false,
          summary: undo ? 'Undo expired' : 'Plan expired',
        }),
      };
    }
    case 'approved': {
      const { kind } = outcome.stored.plan;
      // The duration chosen is said wherever the fix is named: the mark, the state line, the outcomes.
      const what = outcome.stored.undoOf ? `undo of ${undoneKind(kind)}` : approvedWhat(kind, outcome.ttl);
      const fix = {
        what,
        approvers: outcome.approvers,
        approvedAt: now,
        platform: request.person.platform,
        names: services.policy.names ?? {},
      };
      const label = `Approved: ${what}`;
      const approvedMark = (line: PlanMark['line'], stage?: FixStage): PlanMark =>
        mark(action.planId, label, line, { withdrawOthers: true, summary: `${what} approved`, stage });
      const applying = approvedMark(stateLine('applying', fix, now));
      // The fix is queued: past the answer's deadline, the message is marked without its
      // kept state rather than late (the record, should Redis take it later, is still true).
      const kept = await deadline
        .bound(
          keepFixState(services, request, action.planId, outcome.stored.undoOf, {
            ...fix,
            shows: request.kept?.(applying),
          }),
          'keep the fix state',
        )
        .catch((error: unknown) => {
          services.logger.warn({ err: error, planId: action.planId }, 'fix state not kept in time');
          return undefined;
        });
      const stages = services.rootStates?.stages;
      if (!kept || !stages) return { mark: applying };
      const lineOf = (stage: KeptStage): PlanMark['line'] => stateLine(stage.stage, fix, stage.at);
      if (kept.undo) {
        // The pressed reply is marked; the root its fix was approved on says "undoing…", or
        // the stage the Undo's outcome held before this press kept its record.
        const root = await rootStage(services, stages, kept, action.planId, lineOf, deadline);
        return { mark: applying, ...(root ? { root } : {}) };
      }
      return markStage(
        services,
        stages,
        kept.message,
        action.planId,
        (stage) => (stage ? approvedMark(lineOf(stage), stage.stage) : applying),
        deadline,
      );
    }
  }
}

/**
 * The approval's mark with the latest stage of its message: "applying…" recorded before
 * the mark's edit, or a later stage an outcome recorded first (a worker that applied
 * within this round trip), and `settle` to edit again should one come in while the
 * edit is under way (src/chat/notify/root-stage.ts approvedStage).
 */
async function markStage(
  services: ApproveServices,
  stages: RootStages,
  message: { platform?: ChatPlatform | undefined; channel: string; ts: string },
  planId: string,
  markOf: (stage: KeptStage | undefined) => PlanMark,
  deadline: Deadline,
): Promise<PressReply> {
  const ours = (stage: KeptStage | undefined) => (stage?.planId === planId ? stage : undefined);
  try {
    const approved = await deadline.bound(
      approvedStage(stages, message, { planId, stage: 'applying', at: Date.now() }),
      'record the approved stage',
    );
    if (!approved) return { mark: markOf(undefined) };
    return {
      mark: markOf(ours(approved.latest)),
      async settle() {
        const later = await approved.settle();
        return later ? markOf(ours(later)) : undefined;
      },
    };
  } catch (error) {
    services.logger.warn({ err: error, planId }, 'approved message stage not recorded');
    return { mark: markOf(undefined) };
  }
}

/**
 * An Undo's edit of the root its fix was approved on: "undoing" recorded (it follows an
 * Undo that failed), a stage the Undo's outcome held before its record was kept taken
 * over, and the latest stage of the Undo shown, then again should one come in while the
 * edit is under way (src/chat/notify/root-stage.ts approvedStage). Undefined when the
 * record cannot be read back, or when another plan's stage is later (its own press or
 * outcome shows it).
 */
async function rootStage(
  services: ApproveServices,
  stages: RootStages,
  kept: { message: KeptMessage & { threadTs: string }; record: RootRecord },
  planId: string,
  lineOf: (stage: KeptStage) => PlanMark['line'],
  deadline: Deadline,
): Promise<StateLineEdit | undefined> {
  const root = kept.record;
  const ours = (stage: KeptStage | undefined) => (stage?.planId === planId ? stage : undefined);
  try {
    const approved = await deadline.bound(
      approvedStage(stages, kept.message, { planId, stage: 'undoing', at: Date.now() }, { undo: true }),
      'record the undoing stage',
    );
    const first = ours(approved?.latest);
    if (!approved || !first) return undefined;
    return {
      ref: {
        conversation: { platform: platformOf(root), id: root.channel, thread: root.threadTs },
        id: root.ts,
      },
      kept: root,
      line: lineOf(first),
      stage: first.stage,
      async settle() {
        const later = ours(await approved.settle());
        return later ? { line: lineOf(later), stage: later.stage } : undefined;
      },
    };
  } catch (error) {
    services.logger.warn({ err: error, planId }, 'approved message stage not recorded');
    return undefined;
  }
}

/**
 * Keeps where the approved message is and who approved, under the app's mark, so the
 * outcomes re-render its state line; an Undo follows the message its plan was approved
 * on (`undo`: that message, the root, is returned, for rootStage to edit).
 */
async function keepFixState(
  services: ApproveServices,
  request: PressRequest,
  planId: string,
  undoOf: string | undefined,
  fix: {
    what: string;
    approvers: readonly string[];
    approvedAt: number;
    /** What the approved message shows, as its adapter keeps it (PressRequest.kept). */
    shows: Pick<RootRecord, 'verdict' | 'blocks'> | undefined;
  },
): Promise<
  | { undo: false; message: KeptMessage }
  | { undo: true; message: KeptMessage & { threadTs: string }; record: RootRecord }
  | undefined
> {
  const roots = services.rootStates;
  const platform = chatPlatform(request.person.platform);
  if (!roots || platform === null) return undefined;
  try {
    const approval = JSON.stringify({ approvers: fix.approvers, at: fix.approvedAt });
    if (undoOf === undefined) {
      const message = {
        ...platformTag(platform),
        channel: request.message.conversation.id,
        ts: request.message.id,
      };
      const record: RootRecord = {
        ...message,
        threadTs: request.root.id,
        undo: false,
        what: fix.what,
        approval,
        verdict: fix.shows?.verdict ?? '',
        blocks: fix.shows?.blocks ?? [],
      };
      // Kept before the mark: an outcome that comes meanwhile finds it, or held its stage.
      await roots.record(planId, record);
      // Lost in a failover, the message would say "applying…" whatever the outcome.
      await services.replication?.confirm({
        label: 'root state',
        fields: { planId },
        redo: () => roots.record(planId, record, { ifAbsent: true }),
        replay: appReplay.rootState(planId, record),
      });
      return { undo: false, message };
    }
    const root = await roots.load(undoOf);
    if (!root) return undefined;
    // Kept before the root's edit: an outcome of the Undo that comes meanwhile finds it,
    // or held its stage for rootStage to take over.
    const record = { ...root, undo: true, what: fix.what, approval };
    await roots.record(planId, record);
    return {
      undo: true,
      message: {
        ...platformTag(platformOf(root)),
        channel: root.channel,
        ts: root.ts,
        threadTs: root.threadTs,
      },
      record,
    };
  } catch (error) {
    services.logger.warn({ err: error, planId }, 'approved message state not kept');
  }
  return undefined;
}

/** Any press, by its action: what an adapter of the port hands `ChatUseCases.press`. */
export function answerPress(services: ApproveServices, request: PressRequest): Promise<PressReply> {
  const action = request.action;
  switch (action.kind) {
    case 'approve':
    case 'undo':
      return approvePress(services, request, action);
    case 'rerun':
      return rerun(services, request, action);
    case 'status':
      return planStatus(services, request, action.planId);
    case 'dismiss':
      return dismiss(services, request);
    case 'postmortem':
      return draftPostmortem(services, request);
    case 'propose':
      return proposePress(services, request, action);
  }
}
