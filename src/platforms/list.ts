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

export interface PlatformEntry {
  /** Its name in records, jobs, keys and signatures, and its adapter's folder. */
  readonly name: string;
  readonly ids: IdPatterns;
  /**
   * A mention of a person known only by id reaches them (Slack renders `<@U…>`); else
   * messages name approvers as the policy file's `names:` names them, never by id.
   */
  readonly mentionsById: boolean;
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
  },
] as const satisfies readonly PlatformEntry[];
