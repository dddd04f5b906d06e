/**
 * Approvers as a message names them, "A and B", each person once (never
 * "approved by X and X"): ids of one person (the policy's `people:`, given as
 * `personOf`) and an id repeated (a claim rewritten in Redis) are one name. A platform
 * that shows a mentioned id as its person (src/platforms/list.ts `mentionsById`: Slack)
 * mentions its own approvers' ids. Teams cannot show an Entra object id as a person, nor
 * Slack an Entra id, so such approvers are named as the policy file's `names:` names them
 * (plain text: each adapter escapes it), the rest counted ("an approver", "2
 * approvers"), never shown as an id.
 */
import type { Rich } from '../model.js';
import { join, mention, plain, rich, strong } from '../../message/rich.js';
import { chatPlatform, isId, mentionsById } from '../../platforms/chat-refs.js';

export function approversText(
  platform: string,
  ids: readonly string[],
  names: Readonly<Record<string, string>> = {},
  personOf: (id: string) => string = (id) => id.toLowerCase(),
): Rich {
  const known = chatPlatform(platform);
  const mentionable = (id: string): boolean =>
    known !== null && mentionsById(platform) && isId(known, 'approver', id);
  const people = new Set<string>();
  const named: Rich[] = [];
  let unnamed = 0;
  for (const id of ids) {
    const person = personOf(id);
    if (people.has(person)) continue;
    people.add(person);
    const name = names[id] ?? names[id.toLowerCase()];
    if (mentionable(id)) named.push(rich(mention({ platform, id })));
    else if (name === undefined) unnamed++;
    else named.push(rich(strong(name)));
  }
  if (unnamed > 0) named.push(plain(unnamed === 1 ? 'an approver' : `${String(unnamed)} approvers`));
  return join(named, ' and ');
}
