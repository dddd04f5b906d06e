/**
 * The port's actions (src/chat/actions.ts) as Slack buttons and back: action ids and
 * values exactly as the buttons have always carried them (blocks/action-ids.ts), so
 * messages posted before the port still work.
 */
import type { ChatAction } from '../actions.js';
import { chatActionSchema } from '../actions.js';
import {
  ACTION,
  POSTMORTEM_VALUE,
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
    case 'postmortem':
      return { actionId: ACTION.postmortem, value: POSTMORTEM_VALUE };
  }
}

/** The kind of action an action id names, or null for an id our buttons never carry. */
export function actionKindOf(actionId: string): ChatAction['kind'] | null {
  if (APPROVE_ACTION_PATTERN.test(actionId)) return 'approve';
  if (UNDO_ACTION_PATTERN.test(actionId)) return 'undo';
  if (STATUS_ACTION_PATTERN.test(actionId)) return 'status';
  if (actionId === ACTION.rerun) return 'rerun';
  if (actionId === ACTION.dismiss) return 'dismiss';
  if (actionId === ACTION.postmortem) return 'postmortem';
  return null;
}

/**
 * A pressed button's action from its value, for a listener Bolt routed by action id
 * (so it knows the kind); null for a value our buttons never carry.
 */
export function decodeValue(kind: ChatAction['kind'], value: string): ChatAction | null {
  let decoded: unknown = null;
  switch (kind) {
    case 'approve':
    case 'undo':
      decoded = { kind, ...parsePlanButtonValue(value) };
      break;
    case 'status':
      decoded = { kind, planId: value };
      break;
    case 'rerun': {
      const parsed = parseRerunValue(value);
      decoded = parsed && {
        kind,
        cluster: parsed.cluster,
        target: { namespace: parsed.namespace, name: parsed.name, kind: parsed.kind },
      };
      break;
    }
    case 'dismiss':
      decoded = { kind };
      break;
    case 'postmortem':
      // Any other value (an incident id, say) is not one our button carries.
      decoded = value === POSTMORTEM_VALUE ? { kind } : null;
      break;
  }
  const result = chatActionSchema.safeParse(decoded);
  return result.success ? result.data : null;
}

/** A pressed button's action, or null for anything our buttons never carry. */
export function decodeAction(actionId: string, value: string): ChatAction | null {
  const kind = actionKindOf(actionId);
  return kind === null ? null : decodeValue(kind, value);
}
