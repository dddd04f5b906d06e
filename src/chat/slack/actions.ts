/**
 * The port's actions (src/chat/actions.ts) as Slack buttons and back: action ids and
 * values exactly as the buttons have always carried them (blocks/action-ids.ts), so
 * messages posted before the port still work.
 */
import type { ChatAction } from '../actions.js';
import { chatActionSchema } from '../actions.js';
import {
  ACTION,
  APPROVE_ACTION_PATTERN,
  STATUS_ACTION_PATTERN,
  UNDO_ACTION_PATTERN,
  parsePlanButtonValue,
  parseRerunValue,
  planButtonValue,
  rerunValue,
} from './blocks/action-ids.js';

/** A button's action_id and value; `index` suffixes the plan buttons of one block. */
export function encodeAction(action: ChatAction, index: number): { actionId: string; value: string } {
  switch (action.kind) {
    case 'approve':
    case 'undo':
      return {
        actionId: `${ACTION[action.kind]}.${index}`,
        value:
          action.shown === null
            ? action.planId
            : planButtonValue(action.planId, action.shown, action.requester),
      };
    case 'status':
      return { actionId: `${ACTION.status}.${index}`, value: action.planId };
    case 'rerun':
      return { actionId: ACTION.rerun, value: rerunValue(action.cluster, action.target) };
    case 'dismiss':
      return { actionId: ACTION.dismiss, value: 'dismiss' };
  }
}

/** A pressed button's action, or null for anything our buttons never carry. */
export function decodeAction(actionId: string, value: string): ChatAction | null {
  let decoded: unknown = null;
  if (APPROVE_ACTION_PATTERN.test(actionId) || UNDO_ACTION_PATTERN.test(actionId)) {
    const kind = APPROVE_ACTION_PATTERN.test(actionId) ? 'approve' : 'undo';
    decoded = { kind, ...parsePlanButtonValue(value) };
  } else if (STATUS_ACTION_PATTERN.test(actionId)) {
    decoded = { kind: 'status', planId: value };
  } else if (actionId === ACTION.rerun) {
    const parsed = parseRerunValue(value);
    decoded = parsed && {
      kind: 'rerun',
      cluster: parsed.cluster,
      target: { namespace: parsed.namespace, name: parsed.name, kind: parsed.kind },
    };
  } else if (actionId === ACTION.dismiss) {
    decoded = { kind: 'dismiss' };
  }
  const result = chatActionSchema.safeParse(decoded);
  return result.success ? result.data : null;
}
