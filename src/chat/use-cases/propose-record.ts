/**
 * What a Propose in Git press tells the workers for the pull request's body,
 * beside the signed approvers: each approver's display name and the thread's link, as the
 * platform says them (PressLookups), else the name the policy file gives (`names:`).
 * Asked together, each bounded: a name or a link not read in time, or refused, is left
 * out (the body shows the id, or says there is no link); it never holds the proposal back.
 */
import type { PressLookups } from '../adapter.js';
import type { ProposeJob } from '../../queue/schemas.js';

/** How long the lookups may take together, inside the press's answer deadline. */
export const LOOKUP_MS = 600;
const MAX_NAME = 200;
const LINK = /^https:\/\/[^\s<>()[\]`*_|]+$/;

type Said = Pick<ProposeJob, 'names' | 'threadLink'>;

async function inTime<T>(work: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The names and link to send; `known` (the policy file's `names:`) names an approver the
 * chat did not (Teams names only the presser).
 */
export async function pressRecord(
  lookups: PressLookups | undefined,
  approvers: readonly string[],
  options: { ms?: number; known?: Readonly<Record<string, string>> | undefined } = {},
): Promise<Said> {
  const ms = options.ms ?? LOOKUP_MS;
  const [names, link] = await Promise.all([
    Promise.all(
      approvers.map(async (id) => ({
        id,
        name: (lookups ? await inTime(() => lookups.nameOf(id), ms) : undefined) ?? options.known?.[id],
      })),
    ),
    lookups ? inTime(() => lookups.threadLink(), ms) : undefined,
  ]);
  const named = names.flatMap(({ id, name }) => {
    const kept = typeof name === 'string' ? [...name.trim()].slice(0, MAX_NAME).join('') : '';
    return kept ? [{ id, name: kept }] : [];
  });
  return {
    ...(named.length > 0 ? { names: named } : {}),
    ...(typeof link === 'string' && link.length <= 2_000 && LINK.test(link) ? { threadLink: link } : {}),
  };
}
