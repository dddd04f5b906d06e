/**
 * The port's actions (src/chat/actions.ts) as Slack buttons and back: action ids and
 * values exactly as the buttons have always carried them (blocks/action-ids.ts), so
 * messages posted before the port still work.
 */
import type { ChatAction } from '../actions.js';
import { chatActionSchema, lastsOfChoice } from '../actions.js';
import {
  ACTION,
  POSTMORTEM_VALUE,
  actionIndexSuffix,
  APPROVE_ACTION_PATTERN,
  PROPOSE_ACTION_PATTERN,
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
    case 'propose':
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
  if (PROPOSE_ACTION_PATTERN.test(actionId)) return 'propose';
  if (actionId === ACTION.rerun) return 'rerun';
  if (actionId === ACTION.dismiss) return 'dismiss';
  if (actionId === ACTION.postmortem) return 'postmortem';
  return null;
}

/**
 * A pressed button's action from its value, for a listener Bolt routed by action id
 * (so it knows the kind); null for a value our buttons never carry.
 */
export function decodeValue(
  kind: ChatAction['kind'],
  value: string,
  chosen: { lasts?: string } = {},
): ChatAction | null {
  let decoded: unknown = null;
  switch (kind) {
    case 'approve':
      decoded = { kind, ...parsePlanButtonValue(value), ...chosen };
      break;
    case 'undo':
    case 'propose':
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

/**
 * What the approver chose in the select beside the pressed Apply (same index suffix),
 * from the interaction's `state.values` (Slack sends the message's selects with every
 * press): `{ lasts }`, `{}` for the plan's own duration or no select, null for a value
 * none of the options has (the press is dropped: never taken as free text).
 */
export function chosenBeside(state: unknown, actionId: string): { lasts?: string } | null {
  const wanted = `${ACTION.lasts}${actionIndexSuffix(actionId)}`;
  const values = (state as { values?: unknown } | undefined)?.values;
  if (values === null || typeof values !== 'object') return {};
  for (const block of Object.values(values as Record<string, unknown>)) {
    const element = (block as Record<string, unknown> | null)?.[wanted] as
      { selected_option?: { value?: unknown } | null } | undefined;
    if (element !== undefined) return lastsOfChoice(element.selected_option?.value);
  }
  return {};
}
