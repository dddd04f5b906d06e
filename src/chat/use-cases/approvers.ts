/**
 * Approvers as a message names them, "A and B". A platform that shows a mentioned id
 * as its person (src/platforms/list.ts `mentionsById`: Slack) mentions them. Teams cannot show an Entra object id as a person, so there approvers are
 * named as the policy file's `names:` names them (plain text: each adapter escapes it),
 * the rest counted ("an approver", "2 approvers"), never shown as an id.
 */
import type { Rich } from '../model.js';
import { join, mention, plain, rich, strong } from '../rich.js';
import { mentionsById } from '../../platforms/chat-refs.js';

export function approversText(
  platform: string,
  ids: readonly string[],
  names: Readonly<Record<string, string>> = {},
): Rich {
  if (mentionsById(platform))
    return join(
      ids.map((id) => rich(mention({ platform, id }))),
      ' and ',
    );
  const named: Rich[] = [];
  let unnamed = 0;
  for (const id of ids) {
    const name = names[id] ?? names[id.toLowerCase()];
    if (name === undefined) unnamed++;
    else named.push(rich(strong(name)));
  }
  if (unnamed > 0) named.push(plain(unnamed === 1 ? 'an approver' : `${String(unnamed)} approvers`));
  return join(named, ' and ');
}
