import { toMrkdwn } from '../../render.js';
import { appReplay } from '../../../use-cases/replays.js';
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { approve, REFUSAL_TEXT } from '../../../approvals/approve.js';
import { parsePlanButtonValue } from '../../blocks/action-ids.js';
import { asIs, joinMrkdwn, mrkdwn, trusted, userMention, type Mrkdwn } from '../../blocks/mrkdwn.js';
import { ROOT_BLOCK, UNDO_ACTION_PATTERN } from '../../blocks/action-ids.js';
import { spendBudget } from '../../../use-cases/command-budget.js';
import type { RootRecord } from '../../../notify/root-store.js';
import { utcMinute } from '../../root-state.js';
import { showApprovalStage } from '../../../notify/root-update.js';
import { createSlackChatAdapter } from '../../chat-adapter.js';
import { asSlackBlocks } from '../../blocks/text.js';
import { undoneKind } from '../../../../remediation/kinds/index.js';
import { titleOfKind } from '../../../../diagnosis/workload-ref.js';
import type { ChatServices } from '../../../services.js';
import { clickContext, markPlanInBlocks } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * approve(), or undefined once the clicker was told it failed: nothing is queued when
 * approve() throws (it queues last; Redis away, or read-only during a failover), and
 * a button that did nothing without a word would read as approved.
 */
async function approveOrTell(
  services: ChatServices,
  click: Parameters<typeof approve>[1],
  tell: (text: Mrkdwn) => Promise<unknown>,
): Promise<Awaited<ReturnType<typeof approve>> | undefined> {
  try {
    return await approve(services, click);
  } catch (error) {
    services.logger.warn({ err: error, planId: click.planId }, 'approval not recorded');
    await tell(toMrkdwn(REFUSAL_TEXT.notRecorded));
    return undefined;
  }
}

/**
 * Approve (or Undo) button: ack, let src/chat/approvals/approve.ts decide, then say so:
 * refusals ephemeral, the button marked expired or approved.
 */
export function approvePlanAction(services: ChatServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    // The value names the plan, the digest of what the message showed of it and who
    // asked for the diagnosis.
    const { planId, shown, requester } = parsePlanButtonValue(click.value);
    // Only Mrkdwn reaches Slack: a plain string (a Redis value, say) is a type error here.
    const tell = (text: Mrkdwn): Promise<unknown> =>
      client.chat.postEphemeral({
        channel: click.channel,
        user: click.user,
        text,
        thread_ts: click.rootTs === click.messageTs ? undefined : click.rootTs,
      });
    // The same budget as the command (src/chat/use-cases/command-budget.ts): an approval queues a
    // remediation and re-renders the public message.
    const overBudget = await spendBudget(services, {
      user: click.user,
      channel: click.channel,
      entry: UNDO_ACTION_PATTERN.test(action.action_id) ? 'undo' : 'approve',
    });
    if (overBudget) {
      await tell(toMrkdwn(overBudget));
      return;
    }
    const outcome = await approveOrTell(services, { ...click, planId, shown, requester }, tell);
    if (!outcome) return;
    switch (outcome.kind) {
      case 'refused':
        await tell(toMrkdwn(outcome.text));
        // A plan a later diagnosis re-made: this message says so where the fix was offered.
        if (outcome.superseded) {
          const line = mrkdwn`:arrows_counterclockwise: *${outcome.superseded}* superseded at ${utcMinute(Date.now())}: a later diagnosis re-made this plan; approve it on the newer result.`;
          await client.chat.update({
            channel: click.channel,
            ts: click.messageTs,
            text: mrkdwn`${outcome.superseded} superseded`,
            blocks: asSlackBlocks(
              markPlanInBlocks(click.blocks, planId, `Superseded: ${outcome.superseded}`, line),
            ),
          });
        }
        return;
      case 'recorded':
        await tell(
          mrkdwn`Approval recorded (${outcome.approvals}/${outcome.required}); waiting for another approver.`,
        );
        return;
      case 'expired': {
        const { kind } = outcome.stored.plan;
        // A Re-run diagnoses afresh and offers no Undo: an expired Undo says how to revert.
        const undo = outcome.stored.undoOf !== undefined;
        const what = undo ? `undo of ${undoneKind(kind)}` : kind;
        await client.chat.update({
          channel: click.channel,
          ts: click.messageTs,
          text: undo ? 'Undo expired' : 'Plan expired',
          blocks: asSlackBlocks(
            markPlanInBlocks(
              click.blocks,
              planId,
              undo ? `Expired: ${what}` : `Expired: ${kind} (re-run)`,
              undo
                ? mrkdwn`:hourglass: *${what}* expired (${utcMinute(outcome.stored.expiresAt)}); to revert, apply the exact patch of the undo in this reply by hand.`
                : mrkdwn`:hourglass: *${kind}* expired (${utcMinute(outcome.stored.expiresAt)}); press Re-run for a fresh plan.`,
            ),
          ),
        });
        await tell(
          undo
            ? mrkdwn`:hourglass: This Undo expired (an Undo can be approved for as long as a plan). Nothing was changed. To revert now, apply the exact patch of the undo shown in this reply by hand, after checking that the ${titleOfKind(outcome.stored.plan.target.kind)} has not moved on; a Re-run diagnoses afresh and offers no Undo.`
            : trusted(
                ':hourglass: This plan expired. Press Re-run for a fresh diagnosis; nothing was changed.',
              ),
        );
        return;
      }
      case 'approved': {
        // Say "undo of" the kind reverted, so the mark does not read as a re-approval.
        const { kind } = outcome.stored.plan;
        const what = outcome.stored.undoOf ? `undo of ${undoneKind(kind)}` : kind;
        const approval = approvalClause(outcome.approvers, Date.now());
        const line = mrkdwn`:white_check_mark: *${what}* ${asIs(approval)}; applying…`;
        const blocks = markPlanInBlocks(click.blocks, planId, `Approved: ${what}`, line, {
          withdrawOthers: true,
        });
        const edit = () =>
          client.chat.update({
            channel: click.channel,
            ts: click.messageTs,
            text: mrkdwn`${what} approved`,
            blocks: asSlackBlocks(blocks),
          });
        // An Undo is approved on a thread reply: that reply is marked, its root says "undoing".
        if (outcome.stored.undoOf !== undefined) await edit();
        const shown = await keepRootState(services, client, {
          planId,
          undoOf: outcome.stored.undoOf,
          record: {
            channel: click.channel,
            ts: click.messageTs,
            threadTs: click.rootTs,
            undo: false,
            what,
            approval,
            verdict: verdictText(blocks),
            blocks,
          },
        });
        if (!shown && outcome.stored.undoOf === undefined) await edit();
        return;
      }
    }
  };
}

/** "approved by <@U1> and <@U2> at 2026-11-23 03:12 UTC", the names escaped by userMention. */
function approvalClause(approvers: readonly string[], at: number): Mrkdwn {
  const who = joinMrkdwn(approvers.map(userMention), ' and ');
  return mrkdwn`approved by ${asIs(who)} at ${utcMinute(at)}`;
}

/** The verdict line's text as the message shows it (block_id ROOT_BLOCK.verdict), or ''. */
function verdictText(blocks: readonly Record<string, unknown>[]): string {
  const block = blocks.find((b) => b.block_id === ROOT_BLOCK.verdict);
  const text = (block?.text as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

/**
 * Keeps what the approved message shows so each outcome can re-render its state line
 * (src/chat/notify/root-update.ts), then shows its stage: "applying…" recorded before the
 * edit, or a later stage when an outcome came first (a worker that applied within this
 * round trip: src/chat/notify/root-stage.ts). An Undo is approved in a thread reply: the
 * root its plan was approved on says "undoing", and the undo's outcomes go there too.
 * True when the approved message (not an Undo's reply) was edited here.
 */
async function keepRootState(
  services: ChatServices,
  client: ActionArgs['client'],
  approved: { planId: string; undoOf: string | undefined; record: RootRecord },
): Promise<boolean> {
  const roots = services.rootStates;
  if (!roots) return false;
  let shown = false;
  try {
    if (approved.undoOf === undefined) {
      // Kept before the edit: an outcome that comes meanwhile finds it, or held its stage.
      await roots.record(approved.planId, approved.record);
      shown = await showApprovalStage(
        roots,
        createSlackChatAdapter(client),
        approved.planId,
        approved.record,
        'applying',
        Date.now(),
      );
      // Lost in a failover, the root would say "applying…" whatever the outcome.
      await services.replication?.confirm({
        label: 'root state',
        fields: { planId: approved.planId },
        redo: () => roots.record(approved.planId, approved.record, { ifAbsent: true }),
        replay: appReplay.rootState(approved.planId, approved.record),
      });
      return shown;
    }
    const root = await roots.load(approved.undoOf);
    if (!root) return false;
    const record = { ...root, undo: true, what: approved.record.what, approval: approved.record.approval };
    // Kept first: a replica that records a later stage of the Undo shows it from this record.
    await roots.record(approved.planId, record);
    await showApprovalStage(
      roots,
      createSlackChatAdapter(client),
      approved.planId,
      record,
      'undoing',
      Date.now(),
    );
    return false;
  } catch (error) {
    // The approval stands and its job is queued: only the root's state line is not kept.
    services.logger.warn({ err: error, planId: approved.planId }, 'root message state not kept');
    return shown;
  }
}
