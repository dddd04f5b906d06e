import type { ChatAction } from '../actions.js';
import type { ChatAdapter, PlanMark, PressReply, StateLineEdit } from '../adapter.js';
import type { Button, ChatMessage, MessageRef, Part, Rich } from '../model.js';
import { plain } from '../../message/rich.js';
import { withResolution, withStateLine, type FixStage } from '../use-cases/outcome.js';

/** The plan a button acts on, if any. */
function planOf(action: ChatAction): string | undefined {
  return action.kind === 'approve' || action.kind === 'undo' || action.kind === 'status'
    ? action.planId
    : undefined;
}

/**
 * A plan mark applied to a message (PressReply.mark): the plan's buttons give way to
 * the mark's label, with `withdrawOthers` every other Apply goes too, and the state
 * line (the paragraph with role `state`) says where the fix stands, above the buttons.
 */
export function applyMark(message: ChatMessage, mark: PlanMark): ChatMessage {
  // Propose in Git: the approved plan's stays (its lasting fix is still to propose), the others' go with their Apply.
  const keep = (b: Button): boolean =>
    b.action.kind === 'propose'
      ? !(mark.withdrawOthers && b.action.planId !== mark.planId)
      : planOf(b.action) !== mark.planId && !(mark.withdrawOthers && b.action.kind === 'approve');
  const state: Part = { kind: 'paragraph', text: mark.line, role: 'state' };
  const label: Part = { kind: 'note', text: plain(mark.label) };
  const parts: Part[] = [];
  let placed = false;
  for (const part of message.parts) {
    if (part.kind === 'paragraph' && part.role === 'state') continue;
    if (part.kind === 'actions') {
      if (!placed) parts.push(state, label);
      placed = true;
      const buttons = part.buttons.filter(keep);
      if (buttons.length > 0) parts.push({ kind: 'actions', buttons });
      continue;
    }
    parts.push(part);
  }
  if (!placed) parts.push(state, label);
  const marked = { summary: mark.summary, parts };
  return mark.stage ? withResolution(marked, mark.stage) : marked;
}

/**
 * The button of `message` whose action is exactly `action` (a press must name one the
 * card offered); an Apply's `lasts` (the choice beside it) only where the button offers a choice.
 */
export function offeredButton(message: ChatMessage, action: ChatAction): Button | undefined {
  if (action.kind === 'approve' && action.lasts !== undefined) {
    const { lasts: _chosen, ...offered } = action;
    const button = offeredButton(message, offered);
    return button?.choice ? button : undefined;
  }
  const wanted = JSON.stringify(sorted(action));
  for (const part of message.parts) {
    if (part.kind !== 'actions') continue;
    const found = part.buttons.find((b) => JSON.stringify(sorted(b.action)) === wanted);
    if (found) return found;
  }
  return undefined;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sorted(v)]),
    );
  return value;
}

/**
 * The pressed message edited to `shown`, then again with each later mark the press's
 * `settle` gives (the approved plan's stage moved on while the edit was under way:
 * src/chat/notify/root-stage.ts), so the last edit to land shows the latest stage.
 */
async function editMarked(
  adapter: Pick<ChatAdapter, 'update'>,
  ref: MessageRef,
  pressed: ChatMessage,
  shown: ChatMessage,
  settle: PressReply['settle'],
): Promise<void> {
  await adapter.update(ref, shown);
  for (let later = await settle?.(); later; later = await settle?.())
    await adapter.update(ref, applyMark(pressed, later));
}

/**
 * Another message's state line a press moves on (PressReply.root: an Undo's root card),
 * edited on what the card shows now, then again with each later line `settle` gives,
 * so the last edit to land shows the latest stage. Nothing when the card is not known.
 */
async function editStateLine(
  adapter: Pick<ChatAdapter, 'update' | 'shown'>,
  edit: StateLineEdit,
): Promise<void> {
  for (let next: { line: Rich; stage: FixStage } | undefined = edit; next; next = await edit.settle()) {
    const shown = await adapter.shown?.(edit.ref);
    if (!shown) return;
    await adapter.update(edit.ref, withStateLine(withResolution(shown, next.stage), next.line));
  }
}

/**
 * What a press changes for everyone once it is answered: the pressed message edited to
 * `shown` when it changed (editMarked), and another message's state line it moves on
 * (editStateLine). Both are tried; the first failure is thrown once both are done.
 */
export async function editPressed(
  adapter: Pick<ChatAdapter, 'update' | 'shown'>,
  ref: MessageRef,
  pressed: ChatMessage,
  shown: ChatMessage,
  reply: Pick<PressReply, 'settle' | 'root'>,
): Promise<void> {
  const edits: Promise<void>[] = [];
  if (shown !== pressed) edits.push(editMarked(adapter, ref, pressed, shown, reply.settle));
  if (reply.root) edits.push(editStateLine(adapter, reply.root));
  const failed = (await Promise.allSettled(edits)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
