/**
 * The chat platforms the app serves, as data: the one place outside the adapters
 * (src/chat/<platform>/) and the configuration (src/config/) that names one. Records,
 * jobs, Redis keys, marks and signatures read this list (./chat-refs.ts): a platform
 * is its name in them, the shapes of its ids, and whether a mention by id reaches a
 * person. The first platform is the one records name when they name none: Slack, the
 * only platform records had before Teams, so records and jobs already in Redis read
 * as they always did, and its keys and signatures carry no platform.
 *
 * Adding a platform (docs/architecture.md, "Adding a chat platform") is a line here, its
 * adapter folder, its route and its configuration; test/unit/chat-platform-unit.test.ts
 * rehearses a third one.
 */

export interface IdPatterns {
  /** A channel or chat. */
  readonly conversation: RegExp;
  /** A message in it (a Slack ts, a Teams activity id). */
  readonly message: RegExp;
  /** A person as records name them (requesters, approvers in jobs). */
  readonly person: RegExp;
  /** A person an approval may name (Slack: user ids only, no bots or groups). */
  readonly approver: RegExp;
}

/**
 * What the approval policy (src/policy/: the policy file, ROLLOUT_DOCTOR_APPROVERS and
 * ROLLOUT_DOCTOR_READERS) may name of a platform, and how its refusals say so.
 */
export interface PolicyIds {
  /**
   * A person the policy may name is an `ids.approver`; true: compared in lower case
   * (the policy may write any case, the adapter sends lower case).
   */
  readonly lowerCase: boolean;
  /** A group of people its adapter resolves to members (Slack user groups); absent: none. */
  readonly group?: RegExp;
  /** A conversation a reader rule may limit requests to. */
  readonly channel: RegExp;
  /** How a refusal of the policy names these ids. */
  readonly says: {
    /** A person or a group: "a Slack id (U…/W…/S…)". */
    readonly principal: string;
    /** A person only: "a Slack user id (U…/W…)". */
    readonly person: string;
    readonly channel: string;
  };
}

export interface PlatformEntry {
  /** Its name in records, jobs, keys and signatures, and its adapter's folder. */
  readonly name: string;
  readonly ids: IdPatterns;
  /**
   * A mention of a person known only by id reaches them (Slack renders `<@U…>`); else
   * messages name approvers as the policy file's `names:` names them, never by id.
   */
  readonly mentionsById: boolean;
  readonly policy: PolicyIds;
  /**
   * The path of a link to the root message `messageTs` of `conversation`, where the
   * platform's links say which thread they open (Slack's permalinks); absent: a link the
   * chat gives cannot be checked against the signed thread, and none is shown.
   */
  readonly threadLinkPath?: (conversation: string, messageTs: string) => string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const PLATFORM_LIST = [
  {
    name: 'slack',
    ids: {
      conversation: /^[A-Z0-9]+$/,
      message: /^\d+\.\d+$/,
      person: /^[A-Z0-9]+$/,
      approver: /^[UW][A-Z0-9]{2,}$/,
    },
    mentionsById: true,
    // chat.getPermalink: https://<team>.slack.com/archives/<channel>/p<ts without the dot>.
    threadLinkPath: (conversation: string, messageTs: string): string =>
      `/archives/${conversation}/p${messageTs.replace('.', '')}`,
    policy: {
      lowerCase: false,
      // User groups, resolved through usergroups.users.list.
      group: /^S[A-Z0-9]+$/,
      // Channels, private channels and direct messages.
      channel: /^[CGD][A-Z0-9]{2,}$/,
      says: {
        principal: 'a Slack id (U…/W…/S…)',
        person: 'a Slack user id (U…/W…)',
        channel: 'a Slack channel id (C…/G…/D…)',
      },
    },
  },
  {
    name: 'teams',
    ids: {
      // Channels (19:…@thread.tacv2), group chats (19:…@thread.v2), personal chats (a:…).
      conversation:
        /^(19:[A-Za-z0-9_.-]{1,200}@(thread\.(tacv2|skype|v2)|unq\.gbl\.spaces)|a:[A-Za-z0-9_-]{1,400})$/,
      message: /^(\d{1,20}|1:[A-Za-z0-9_-]{1,200})$/,
      // Entra ID (AAD) object ids, lower-case.
      person: GUID,
      approver: GUID,
    },
    mentionsById: false,
    policy: {
      // The Teams adapter lower-cases `from.aadObjectId`; a policy may write any case.
      lowerCase: true,
      // Groups are not resolved (no Graph permission): a policy lists users.
      channel: /^(19:[A-Za-z0-9_.=-]{1,200}@thread\.(tacv2|v2|skype)|a:[A-Za-z0-9_.=-]{1,300})$/,
      says: {
        principal: 'an Entra user object id (GUID)',
        person: 'an Entra user object id (GUID)',
        channel: 'a Teams conversation id (19:…@thread.tacv2)',
      },
    },
  },
] as const satisfies readonly PlatformEntry[];
