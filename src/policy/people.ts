import { z } from 'zod';
import { canonicalId as canonical, personId } from './policy-ids.js';

/**
 * People, not ids: one person may reach rollout-doctor from several
 * platforms (a Slack user id, an Entra object id for Teams). The policy file's
 * `people:` says which ids are one person, so that the two-person rule counts people
 * (one person approving on Slack and again on Teams is one approval), the requester of
 * a diagnosis is left out of a two-person rule whichever id they approve with, and a
 * person listed by one id may approve with any of theirs. An id in no entry is a
 * person of its own, as before.
 */

/**
 * A person's or group's name as people know it, shown where a platform cannot show an
 * id as a name (Teams: an Entra object id means nothing to a reader). Plain text (each
 * adapter escapes it), one line.
 */
export const displayName = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, 'must be one line of plain text');

/** `{ name?: Dana Lee, ids: [U0DANA, 7f3a…] }`: the ids one person uses. */
const personEntrySchema = z.strictObject({
  name: displayName.optional(),
  ids: z.array(personId).min(1).max(10),
});
export type PersonEntry = z.infer<typeof personEntrySchema>;

/** The `people:` list: each id in one entry at most (an id is one person). */
export const peopleSchema = z
  .array(personEntrySchema)
  .default([])
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    entries.forEach((entry, index) =>
      entry.ids.forEach((id, at) => {
        const other = seen.get(id);
        if (other !== undefined && other !== index)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'ids', at],
            message: `${id} is already people[${other}]: an id is one person`,
          });
        seen.set(id, index);
      }),
    );
  });

export interface People {
  /** The person an id belongs to, as one key (the same for every id of theirs). */
  personOf(id: string): string;
  /** Every id of the person `id` belongs to (`id` first). */
  idsOf(id: string): readonly string[];
}

/** @example peopleDirectory([{ ids: ['U0DANA', '7f3a…'] }]).personOf('7f3a…') // 'U0DANA' */
export function peopleDirectory(entries: readonly PersonEntry[] = []): People {
  const byId = new Map<string, readonly string[]>();
  for (const entry of entries) for (const id of entry.ids) byId.set(canonical(id), entry.ids.map(canonical));
  return {
    personOf: (id) => byId.get(canonical(id))?.[0] ?? canonical(id),
    idsOf: (id) => {
      const ids = byId.get(canonical(id));
      return ids ? [canonical(id), ...ids.filter((other) => other !== canonical(id))] : [canonical(id)];
    },
  };
}

/** Each person once, in order, as the first of their ids given. */
export function distinctPeople(ids: readonly string[], people: Pick<People, 'personOf'>): string[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    const person = people.personOf(id);
    if (seen.has(person)) return false;
    seen.add(person);
    return true;
  });
}
