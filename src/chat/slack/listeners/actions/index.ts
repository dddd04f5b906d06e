import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import {
  ACTION,
  APPROVE_ACTION_PATTERN,
  LASTS_ACTION_PATTERN,
  PROPOSE_ACTION_PATTERN,
  STATUS_ACTION_PATTERN,
  UNDO_ACTION_PATTERN,
} from '../../blocks/action-ids.js';
import type { ChatServices } from '../../../services.js';
import { approvePlanAction } from './approve-plan.js';
import { dismissResultAction } from './dismiss-result.js';
import { draftPostmortemAction } from './draft-postmortem.js';
import { planStatusAction } from './plan-status.js';
import { proposeInGitAction } from './propose-in-git.js';
import { rerunDiagnosisAction } from './rerun-diagnosis.js';

type ButtonArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;
type ButtonListener = (args: ButtonArgs) => Promise<void>;

/** Which listener a button's action id goes to: an exact id or a pattern (ids with an index suffix). */
export function buttonRoutes(
  services: ChatServices,
): readonly (readonly [string | RegExp, ButtonListener])[] {
  const approve = approvePlanAction(services);
  return [
    // Undo plans are stored plans too, approval-gated the same way.
    [APPROVE_ACTION_PATTERN, approve],
    [UNDO_ACTION_PATTERN, approve],
    [ACTION.rerun, rerunDiagnosisAction(services)],
    [STATUS_ACTION_PATTERN, planStatusAction(services)],
    [ACTION.dismiss, dismissResultAction(services)],
    [ACTION.postmortem, draftPostmortemAction(services)],
    [PROPOSE_ACTION_PATTERN, proposeInGitAction(services)],
    // Choosing how long an exclusion lasts only acks: the choice travels with the Apply's press.
    [LASTS_ACTION_PATTERN, async ({ ack }) => ack()],
  ];
}

/** The listener for `actionId`, or undefined: an id the app never posted, left unanswered as Bolt leaves it. */
export function buttonListener(
  routes: ReturnType<typeof buttonRoutes>,
  actionId: string,
): ButtonListener | undefined {
  return routes.find(([id]) => (typeof id === 'string' ? id === actionId : id.test(actionId)))?.[1];
}

/**
 * Button action_id → callback, as one Bolt listener that routes by the id. Bolt runs
 * every listener's middleware chain for every request (a slash command too), each with
 * copies of the request's arguments; one listener instead of six takes that garbage
 * off the ack path of every command.
 */
export function registerActions(app: App, services: ChatServices): void {
  const routes = buttonRoutes(services);
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions' }, async (args) => {
    await buttonListener(routes, args.action.action_id)?.(args);
  });
}
