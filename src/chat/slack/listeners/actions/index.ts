import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import {
  ACTION,
  APPROVE_ACTION_PATTERN,
  STATUS_ACTION_PATTERN,
  UNDO_ACTION_PATTERN,
} from '../../blocks/action-ids.js';
import type { ChatServices } from '../../../services.js';
import { approvePlanAction } from './approve-plan.js';
import { dismissResultAction } from './dismiss-result.js';
import { planStatusAction } from './plan-status.js';
import { rerunDiagnosisAction } from './rerun-diagnosis.js';

/** Button action_id → callback. Undo plans are stored plans too, approval-gated the same way. */
export function registerActions(app: App, services: ChatServices): void {
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: APPROVE_ACTION_PATTERN },
    approvePlanAction(services),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: UNDO_ACTION_PATTERN },
    approvePlanAction(services),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: ACTION.rerun },
    rerunDiagnosisAction(services),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: STATUS_ACTION_PATTERN },
    planStatusAction(services),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: ACTION.dismiss },
    dismissResultAction(services),
  );
}
