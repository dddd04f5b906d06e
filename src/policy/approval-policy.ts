import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseErrorText } from '../text/parse-error-text.js';
import { displayName, peopleDirectory, peopleSchema, type People, type PersonEntry } from './people.js';
import { isPolicyGroup, mustBe, policyChannel, principal } from './policy-ids.js';

/**
 * Who may approve a plan for a cluster and namespace. Approvers are the people and
 * groups of every chat platform, in the same lists, as the list of platforms shapes
 * their ids (src/platforms/list.ts, read by ./policy-ids.ts): Slack user ids (U…/W…)
 * and user group ids (S…, resolved through usergroups.users.list and cached), Teams
 * users by Entra object id (GUIDs). The optional policy file adds per cluster/namespace rules and a
 * two-person rule (`requiredApprovals: 2`). Who may approve comes from the most
 * specific matching rule (ROLLOUT_DOCTOR_APPROVERS where none matches); how many
 * approvals are needed is the strictest of all matching rules, so a namespace rule
 * naming its own approvers cannot weaken a cluster-wide two-person rule. No
 * approvers, no approval.
 */

const ruleSchema = z.strictObject({
  cluster: z.string().optional(),
  namespace: z.string().optional(),
  approvers: z.array(principal).min(1),
  requiredApprovals: z.number().int().min(1).max(5).default(1),
});
type PolicyRule = z.infer<typeof ruleSchema>;

/** Who may read what (src/policy/read-policy.ts). */
const readerRuleSchema = z.strictObject({
  cluster: z.string().optional(),
  namespace: z.string().optional(),
  /** Only requests from these channels (Slack C…/G…/D…, Teams 19:…@thread.tacv2); omitted: any channel. */
  channels: z.array(policyChannel).min(1).optional(),
  /** Only these users and user groups; omitted: anyone (in the channels above). */
  users: z.array(principal).min(1).optional(),
  /** `scan` of every namespace at once; only on a rule without `namespace`. */
  clusterScan: z.boolean().default(false),
  /** Alertmanager and early-warning diagnoses for this scope. */
  alerts: z.boolean().default(false),
});
export type ReaderRule = z.infer<typeof readerRuleSchema>;

export const policyFileSchema = z
  .strictObject({
    rules: z.array(ruleSchema).default([]),
    readers: z.array(readerRuleSchema).optional(),
    /**
     * Which ids are one person (src/policy/people.ts): `[{ name?, ids: [U…, <Entra id>] }]`.
     * Optional: a policy file without it means what it always did (each id a person).
     */
    people: peopleSchema,
    /**
     * Names of the people and groups the policy lists (`<id>: Dana Lee`), for refusals:
     * a Teams user refused as not an approver reads who to ask instead of object ids.
     */
    names: z
      .record(z.string(), displayName)
      .default({})
      .transform((names, ctx) => {
        const out: Record<string, string> = {};
        for (const [key, name] of Object.entries(names)) {
          const id = principal.safeParse(key);
          if (!id.success) {
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: mustBe('principal'),
            });
            continue;
          }
          out[id.data] = name;
        }
        return out;
      }),
  })
  // A person's name names every id of theirs, unless `names:` names that id itself.
  .transform((file) => {
    const names = { ...file.names };
    for (const person of file.people)
      if (person.name !== undefined) for (const id of person.ids) names[id] ??= person.name;
    return { ...file, names };
  });
type PolicyFile = z.infer<typeof policyFileSchema>;

export type ApprovalDecision =
  | { allowed: true; required: number }
  | {
      allowed: false;
      reason: string;
      approvers: string[];
      /** The policy file's names of those approvers (`names:`), where it gives one. */
      names?: Readonly<Record<string, string>>;
    };

/**
 * What a plan changes: a namespace's workload, or (`clusterWide`) an object that
 * affects every tenant of the cluster (a DeviceTaintRule).
 */
interface ApprovalScope {
  cluster: string;
  namespace: string;
  clusterWide?: boolean;
}

export interface ApprovalPolicy {
  check(user: string, scope: ApprovalScope): Promise<ApprovalDecision>;
  /**
   * Whether `user` may approve in some scope (listed directly or through a group):
   * decides only what a card shows (Teams enables Approve for them); `check` decides.
   */
  approvesSomewhere?(user: string): Promise<boolean>;
  /**
   * Everyone the policy names as an approver anywhere (ROLLOUT_DOCTOR_APPROVERS, then
   * the rules in file order), without duplicates; groups as their ids, unresolved. Like
   * `approvesSomewhere`, it decides only what a card shows (Teams' refresh list).
   */
  approverIds?(): readonly string[];
  /**
   * The policy file's `names:` (approver id to the name people know): where a platform
   * cannot show an id as a person (Teams), its messages name approvers by these.
   */
  names?: Readonly<Record<string, string>>;
  /**
   * The person an id belongs to (the policy file's `people:`; an id in no entry is its
   * own person): the two-person rule counts these, and no message names one twice.
   */
  personOf?(id: string): string;
  /** Every id of the person `id` belongs to (`id` first; just `id` for an id in no entry). */
  idsOf?(id: string): readonly string[];
}

/** Reads and validates a policy file (YAML or JSON). @throws naming the file and the problem. */
export function loadPolicyFile(path: string): PolicyFile {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    // Position only, no cause: the parser's message quotes the file.
    // eslint-disable-next-line preserve-caught-error -- the cause would carry the file's content
    throw new Error(`ROLLOUT_DOCTOR_POLICY_FILE ${path}: ${parseErrorText(error)}`);
  }
  const parsed = policyFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `ROLLOUT_DOCTOR_POLICY_FILE ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

const matches = (r: PolicyRule, scope: { cluster: string; namespace: string }): boolean =>
  (r.cluster === undefined || r.cluster === scope.cluster) &&
  (r.namespace === undefined || r.namespace === scope.namespace);

/** The most specific rule for a scope: cluster+namespace beats namespace beats cluster. */
export function matchRule(
  rules: readonly PolicyRule[],
  scope: { cluster: string; namespace: string },
): PolicyRule | undefined {
  const score = (r: PolicyRule): number =>
    (r.namespace !== undefined ? 2 : 0) + (r.cluster !== undefined ? 1 : 0);
  return rules.filter((r) => matches(r, scope)).sort((a, b) => score(b) - score(a))[0];
}

/** The approvals a scope needs: the strictest of every rule that matches it (1 when none does). */
export function requiredApprovals(rules: readonly PolicyRule[], scope: ApprovalScope): number {
  // A cluster-wide change touches every namespace: the strictest rule of any of them.
  const relevant = scope.clusterWide
    ? rules.filter((r) => r.cluster === undefined || r.cluster === scope.cluster)
    : rules.filter((r) => matches(r, scope));
  return relevant.reduce((most, r) => Math.max(most, r.requiredApprovals), 1);
}

/**
 * Who may approve in a scope: the most specific matching rule's approvers, else
 * ROLLOUT_DOCTOR_APPROVERS. A cluster-wide change is never a namespace's to approve:
 * only rules without a namespace count for it (cluster-level approvers), so a team
 * that approves fixes in its own namespace cannot approve one that affects every tenant.
 */
export function approversFor(
  rules: readonly PolicyRule[],
  fallback: readonly string[],
  scope: ApprovalScope,
): readonly string[] {
  const candidates = scope.clusterWide ? rules.filter((r) => r.namespace === undefined) : rules;
  return matchRule(candidates, scope)?.approvers ?? fallback;
}

/**
 * @param listGroupMembers calls usergroups.users.list; results are cached `cacheMs`.
 * @example createApprovalPolicy({ approvers: ['U1', 'S9'], rules: [], listGroupMembers })
 */
export function createApprovalPolicy(options: {
  approvers: readonly string[];
  rules: readonly PolicyRule[];
  listGroupMembers: (groupId: string) => Promise<string[]>;
  /** The policy file's `names:` (approver id to the name people know). */
  names?: Readonly<Record<string, string>>;
  /** The policy file's `people:` (which ids are one person). */
  people?: readonly PersonEntry[];
  cacheMs?: number;
  now?: () => number;
}): ApprovalPolicy & { isListed: MembershipCheck; people: People } {
  const people = peopleDirectory(options.people);
  const listed = createMembershipCheck(options);
  // A person listed by any id of theirs (or through a group) is listed with every one.
  const isListed: MembershipCheck = async (user, principals) => {
    for (const id of people.idsOf(user)) if (await listed(id, principals)) return true;
    return false;
  };
  const everyApprover = [...new Set([...options.approvers, ...options.rules.flatMap((r) => r.approvers)])];
  return {
    isListed,
    people,
    personOf: people.personOf,
    idsOf: people.idsOf,
    names: options.names ?? {},
    approvesSomewhere: (user) => isListed(user, everyApprover),
    approverIds: () => everyApprover,
    async check(user, scope) {
      const approvers = approversFor(options.rules, options.approvers, scope);
      const required = requiredApprovals(options.rules, scope);
      if (await isListed(user, approvers)) return { allowed: true, required };
      const reason =
        approvers.length === 0
          ? 'no approvers are configured'
          : scope.clusterWide
            ? 'this change is cluster-wide (it affects every namespace), and only cluster-level approvers (ROLLOUT_DOCTOR_APPROVERS, or a policy rule without a namespace) may approve it; you are not one'
            : 'you are not an approver here';
      const names = Object.fromEntries(
        approvers.flatMap((id) => (options.names?.[id] !== undefined ? [[id, options.names[id]]] : [])),
      );
      return { allowed: false, reason, approvers: [...approvers], names };
    },
  };
}

/** Whether `user` is one of `principals`, directly or through a user group. */
export type MembershipCheck = (user: string, principals: readonly string[]) => Promise<boolean>;

/** Group members come from usergroups.users.list, cached `cacheMs`; a group that cannot be resolved grants nothing. */
function createMembershipCheck(options: {
  listGroupMembers: (groupId: string) => Promise<string[]>;
  cacheMs?: number;
  now?: () => number;
}): MembershipCheck {
  const cache = new Map<string, { members: string[]; until: number }>();
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? 300_000;
  const members = async (group: string): Promise<string[]> => {
    const hit = cache.get(group);
    if (hit && hit.until > now()) return hit.members;
    const list = await options.listGroupMembers(group);
    cache.set(group, { members: list, until: now() + cacheMs });
    return list;
  };
  return async (user, principals) => {
    if (principals.includes(user)) return true;
    for (const group of principals.filter(isPolicyGroup)) {
      try {
        if ((await members(group)).includes(user)) return true;
      } catch {
        // A group we cannot resolve grants nothing.
      }
    }
    return false;
  };
}

/**
 * What an operator should hear at start about who may use the app: with no approvers
 * anywhere nobody can approve a fix, and with no readers either nobody can even run
 * `/rollout-doctor` (reading is an approver's right by default). The app still starts
 * (an operator may be filling the policy in); every refusal in Slack says the same.
 *
 * @example accessWarnings({ approvers: [], readers: [], policy: { rules: [] } })
 */
export function accessWarnings(input: {
  approvers: readonly string[];
  readers: readonly string[];
  policy: Pick<PolicyFile, 'rules' | 'readers'>;
}): string[] {
  if (input.approvers.length > 0 || input.policy.rules.length > 0) return [];
  const readers = input.readers.length > 0 || (input.policy.readers ?? []).length > 0;
  return [
    readers
      ? 'ROLLOUT_DOCTOR_APPROVERS is empty and the policy file names no approvers: nobody can approve a fix (every Apply is refused)'
      : 'ROLLOUT_DOCTOR_APPROVERS and ROLLOUT_DOCTOR_READERS are empty and there is no policy file rule: nobody can run /rollout-doctor or approve a fix (set ROLLOUT_DOCTOR_APPROVERS to Slack user ids U…)',
  ];
}
