/**
 * A Teams press's lookups (PressLookups, src/chat/adapter.ts): the presser's name as the
 * activity gave it (`from.name`); other people's names are not asked of Graph, so an
 * earlier approver under a two-person rule is named by id. No link to the thread: the
 * activity carries none the workers could tie to the signed conversation.
 */
import type { PressLookups } from '../adapter.js';
import type { PersonRef } from '../model.js';

export function teamsPressLookups(presser: PersonRef): PressLookups {
  return {
    nameOf: async (person) => (person === presser.id ? presser.name : undefined),
    threadLink: async () => undefined,
  };
}
