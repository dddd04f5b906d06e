/**
 * The Slack messages of a run as the app posts them: the port's use-cases
 * (src/chat/use-cases/result.ts, run-messages.ts) rendered by the Slack adapter (src/chat/slack/render.ts),
 * under the names and inputs the Slack tests have always used.
 */
import type { Requester } from '../../src/chat/actions.js';
import { renderRun, toMrkdwn, type SlackRun, type SlackRendering } from '../../src/chat/slack/render.js';
import { resultMessage, type ResultInput } from '../../src/chat/use-cases/result.js';
import {
  notFoundText as notFoundRich,
  outcomeMessage,
  progressMessage,
  runMessages,
} from '../../src/chat/use-cases/run-messages.js';
import { plainText, type Mrkdwn, type PlainText } from '../../src/chat/slack/blocks/mrkdwn.js';
import { LIMITS, type Block } from '../../src/chat/slack/blocks/text.js';
import { renderMessage } from '../../src/chat/slack/render.js';
import { plain, say, strong } from '../../src/message/rich.js';
import {
  driftLine as driftRich,
  planButton as portPlanButton,
  planParts,
  type PlanView,
} from '../../src/chat/use-cases/result.js';
import { confirmDialogText as confirmWords } from '../../src/chat/use-cases/confirm-text.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { outcomeMessage as portOutcome, undoParts } from '../../src/chat/use-cases/outcome.js';
import type { PlanStore, StoredPlan } from '../../src/queue/plan-store.js';
import type { NotifyJob, RunUpdate } from '../../src/queue/schemas.js';
import { planViews } from '../../src/chat/notify/plan-views.js';
import type { ShownPlan } from '../../src/trust/plan-seal.js';

type DiagnosisInput = Omit<ResultInput, 'requester' | 'platform' | 'plans'> & {
  plans?: ResultInput['plans'];
  requester?: Requester | null;
};

/** A plan's Apply (or Undo) button as a Block Kit button element. */
export function planButton(
  shown: ShownPlan,
  view: PlanView,
  options: { undo?: boolean; primary?: boolean; requester?: Requester | null } = {},
): Block {
  const button = portPlanButton(shown, view, { ...options, requester: options.requester ?? null });
  const [actions] = renderMessage({
    summary: plain(''),
    parts: [{ kind: 'actions', buttons: [button] }],
  }).blocks;
  return (actions?.elements as Block[])[0] as Block;
}

/** A plan in full (the thread report's blocks for it), under a bold heading. */
export function planDetailBlocks(shown: ShownPlan, heading: string): Block[] {
  return renderMessage({ summary: plain(''), parts: planParts(shown, say`${strong(heading)}`) }).blocks;
}

/** The owner's drift line as Slack shows it. */
export function driftLine(plan: RemediationPlan, options: { short?: boolean } = {}): Mrkdwn | null {
  const line = driftRich(plan, options);
  return line ? toMrkdwn(line) : null;
}

/** The confirm step's text as the Slack dialog's plain_text shows it. */
export function confirmDialogText(plan: RemediationPlan, options: { undo?: boolean } = {}): PlainText {
  return plainText(confirmWords(plan, options, LIMITS.confirmText), LIMITS.confirmText);
}

function input(i: DiagnosisInput): ResultInput {
  return { plans: {}, ...i, requester: i.requester ?? null, platform: 'slack' };
}

export function renderDiagnosis(i: DiagnosisInput): SlackRun {
  return renderRun(resultMessage(input(i)));
}

export function threadReport(i: Omit<DiagnosisInput, 'plans'>): SlackRendering[] {
  return renderRun(resultMessage(input(i))).thread;
}

export function renderOutcome(...args: Parameters<typeof outcomeMessage>): SlackRun {
  return renderRun({ message: outcomeMessage(...args), thread: [] });
}

export function renderProgress(progress: string): SlackRun {
  return renderRun({ message: progressMessage(progress), thread: [] });
}

export function notFoundText(...args: Parameters<typeof notFoundRich>): Mrkdwn {
  return toMrkdwn(notFoundRich(...args));
}

/** The thread reply for a remediation outcome, as the app posts it on Slack. */
export function remediationOutcomeMessage(
  job: Extract<NotifyJob, { kind: 'remediation-outcome' }>,
  undo?: StoredPlan,
  now = Date.now(),
): SlackRendering {
  return renderMessage(portOutcome(job, 'slack', undo, now));
}

/** The Undo's blocks (what it restores, its exact patch) in an "applied" reply. */
export function undoBlocks(undo: StoredPlan): Block[] {
  return renderMessage({ summary: plain(''), parts: undoParts(undo) }).blocks;
}

/**
 * A run's latest update (progress or result) as a Slack message and its thread report,
 * as run delivery renders it for a message whose run `message.requester` asked for.
 */
export async function renderRunUpdate(
  plans: PlanStore,
  job: RunUpdate,
  message: { approvedPlan?: string | null; requester: Requester },
): Promise<SlackRun> {
  return renderRun(
    runMessages(job, await planViews(plans, job), {
      requester: message.requester,
      approvedPlan: message.approvedPlan ?? null,
      platform: 'slack',
    }),
  );
}
