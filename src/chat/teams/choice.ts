/**
 * A button's choice at the Teams confirm step: the question names the
 * option chosen on the card ("Exclusion lasts: 3d."), its "yes" carries it in the
 * action, and the card under the question shows no choice to change again, so what is
 * pressed is what the question said.
 */
import { PLANNED, type ChatAction } from '../actions.js';
import type { ChatMessage, Choice } from '../model.js';

/** "Exclusion lasts: 3d.", as the card's own option reads; '' for a value the choice has not. */
export function chosenWords(action: Extract<ChatAction, { kind: 'approve' }>, choice: Choice): string {
  const value = action.lasts ?? PLANNED;
  const option = choice.options.find((o) => o.value === value);
  return option ? `${choice.label}: ${option.label}.` : '';
}

/** The message with no choice beside any button. */
export function withoutChoices(message: ChatMessage): ChatMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      part.kind === 'actions'
        ? { ...part, buttons: part.buttons.map(({ choice: _choice, ...button }) => button) }
        : part,
    ),
  };
}
