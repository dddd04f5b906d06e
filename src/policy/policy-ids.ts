/**
 * The ids the approval policy may name (the policy file, ROLLOUT_DOCTOR_APPROVERS and
 * ROLLOUT_DOCTOR_READERS): people, groups and channels of every platform in the list
 * (src/platforms/list.ts, each entry's `policy`), and the words its refusals use for
 * them. A platform added to the list is a platform the policy may name, with no edit
 * here.
 */
import { z } from 'zod';
import { PLATFORM_LIST, type PlatformEntry, type PolicyIds } from '../platforms/list.js';

const PLATFORMS: readonly PlatformEntry[] = PLATFORM_LIST;

const inCase = (platform: PlatformEntry, id: string): string =>
  platform.policy.lowerCase ? id.toLowerCase() : id;

/** A person of some platform, in any case its platform allows. */
function isPolicyPerson(id: string): boolean {
  return PLATFORMS.some((p) => p.ids.approver.test(inCase(p, id)));
}

/** A group of people (a Slack user group) its adapter resolves to members. */
export function isPolicyGroup(id: string): boolean {
  return PLATFORMS.some((p) => p.policy.group?.test(id) === true);
}

/** Someone the policy may name: a person or a group of some platform. */
export function isPrincipal(id: string): boolean {
  return isPolicyPerson(id) || isPolicyGroup(id);
}

/** An id as its platform's adapter sends it (an Entra object id in lower case); any other as it is. */
export function canonicalId(id: string): string {
  const platform = PLATFORMS.find((p) => p.policy.lowerCase && p.ids.approver.test(id.toLowerCase()));
  return platform ? id.toLowerCase() : id;
}

/** "must be a Slack id (U…/W…/S…) or an Entra user object id (GUID)": every platform's words for `what`. */
export function mustBe(what: keyof PolicyIds['says']): string {
  return `must be ${[...new Set(PLATFORMS.map((p) => p.policy.says[what]))].join(' or ')}`;
}

/** Someone the policy may name, canonical (src/policy/approval-policy.ts). */
export const principal = z.string().refine(isPrincipal, mustBe('principal')).transform(canonicalId);

/** A person, never a group (`people:`, src/policy/people.ts), canonical. */
export const personId = z.string().refine(isPolicyPerson, mustBe('person')).transform(canonicalId);

/** A conversation a reader rule may limit requests to. */
export const policyChannel = z
  .string()
  .refine((c) => PLATFORMS.some((p) => p.policy.channel.test(c)), mustBe('channel'));
