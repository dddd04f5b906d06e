/**
 * Every Redis key name rollout-doctor writes, in one place, so a reader
 * sees the whole keyspace at once and docs/security.md ("Every Redis key") can be
 * checked against it. BullMQ's own keys live under the same prefix (names.ts
 * QUEUE_PREFIX). Redis keys may contain ':'; job ids may not.
 */

import { messageKeyPart, type ChatPlatform } from '../platforms/chat-refs.js';

/** A message, as keys name it: `<channel>/<ts>` on Slack, `teams:<conversation>/<activity>` on Teams. */
interface Message {
  platform?: ChatPlatform | undefined;
  channel: string;
  ts: string;
}

export const redisKeys = {
  /** The plan store (plan-store.ts): the plan, its approvals, its claim, the digest the approvals were given for. */
  plan: (id: string) => ({
    plan: `rd:plan:${id}`,
    approvals: `rd:plan:${id}:approvals`,
    claim: `rd:plan:${id}:claim`,
    approvalsShown: `rd:plan:${id}:approvals-shown`,
  }),
  /**
   * The app's marks of approvals to propose a plan in Git under a two-person rule
   * (src/chat/approvals/proposal-approvals.ts); cleared once a proposal is queued.
   */
  proposalApprovals: (planId: string) => `rd:propose:${planId}:approvals`,
  /** Which messages show a run (src/chat/notify/subscriptions.ts). */
  run: (cluster: string, jobId: string) => ({
    run: `rd:run:${cluster}:${jobId}`,
    subscribers: `rd:subs:${cluster}:${jobId}`,
    delivered: `rd:subsdone:${cluster}:${jobId}`,
  }),
  /**
   * The attempt of a diagnose job that posted its run's result (src/worker/job-fence.ts):
   * a later attempt of the same run (its lock lapsed in a failover) re-makes nothing.
   */
  runAnswered: (cluster: string, jobId: string, runTs: number) =>
    `rd:run-answered:${cluster}:${jobId}:${runTs}`,
  /** One worker's claim on ending or offering to end one node exclusion (src/worker/exclusion-expiry.ts). */
  exclusionClaim: (cluster: string, key: string) => `rd:exclusion:${cluster}:${key}`,
  messageOwner: (m: Message) => `rd:msgowner:${messageKeyPart(m)}`,
  /** A message that got its run's final result, under the app's mark (src/chat/notify/run-deadline.ts). */
  messageAnswered: (m: Message) => `rd:answered:${messageKeyPart(m)}`,
  messagePlan: (m: Message) => `rd:msgplan:${messageKeyPart(m)}`,
  /** The root message state of an approved plan (src/chat/notify/root-store.ts). */
  rootState: (planId: string) => `rd:root:${planId}`,
  /** Where an approved message's state line stands, for its plan and the plan's Undo (src/chat/notify/root-stage.ts). */
  rootStage: (m: Message) => `rd:root-stage:${messageKeyPart(m)}`,
  /** A plan's outcome stage that came before its approved message was kept (src/chat/notify/root-stage.ts). */
  planStage: (planId: string) => `rd:plan-stage:${planId}`,
  /** The latest attempt of a plan's remediate job whose outcome the app took (src/chat/notify/root-stage.ts). */
  outcomeFence: (planId: string) => `rd:outcome-fence:${planId}`,
  /** Alert and early-warning threads (alert-thread-store.ts). */
  thread: {
    thread: (threadId: string) => `rd:alerts:thread:${threadId}`,
    byGroup: (group: string, workload: string) => `rd:alerts:by-group:${group}:${workload}`,
    byWorkload: (workload: string) => `rd:alerts:by-workload:${workload}`,
    firing: (threadId: string) => `rd:alerts:firing:${threadId}`,
    creating: (workload: string) => `rd:alerts:creating:${workload}`,
    job: (cluster: string, jobId: string) => `rd:alerts:job:${cluster}:${jobId}`,
  },
  /** The per-minute thread budget (src/app/alerts/thread-budget.ts). */
  threadMinute: (minute: number) => `rd:alerts:minute:${minute}`,
  earlyWarningOverflow: (channel: string, minute: number) => `rd:alerts:ew-overflow:${channel}:${minute}`,
  /** The warned applies' own per-minute thread budget and overflow line (src/app/alerts/admission-threads.ts). */
  admissionMinute: (minute: number) => `rd:alerts:admission-minute:${minute}`,
  admissionOverflow: (channel: string, minute: number) => `rd:alerts:admission-overflow:${channel}:${minute}`,
  /** The app's own reads of warned applies' workloads per minute (admission-parking.ts). */
  admissionReadMinute: (minute: number) => `rd:alerts:admission-read-minute:${minute}`,
  /** A warned apply waiting for the cluster to show its object at that generation (admission-parking.ts). */
  admissionParked: (workload: string) => `rd:alerts:admission-parked:${workload}`,
  /** Set once an alert joining a thread a warned apply opened has said so (thread-updates.ts). */
  admissionJoinNoticed: (threadId: string) => `rd:alerts:admission-noticed:${threadId}`,
  /** The command budget (src/chat/use-cases/command-budget.ts), per person and per channel. */
  commandBudget: (who: 'user' | 'channel', id: string) => `rd:budget:cmd:${who === 'user' ? 'u' : 'c'}:${id}`,
  /** A start the command budget counted, by its own id: its retry is counted once (expires with the window). */
  commandBudgetPress: (press: string) => `rd:budget:cmd:p:${press}`,
  /** A remediation's reply posted (or being posted) by the app, by its notification's id (src/chat/notify/posted-once.ts). */
  notifyPosted: (id: string) => `rd:notify-posted:${id}`,
  /** The early warning's leader lease (src/worker/early-warning/lease.ts). */
  earlyWarningLeader: (cluster: string) => `rd:early-warning:leader:${cluster}`,
  /** What a Teams card the app posted shows, to render it again per viewer (src/chat/teams/card-store.ts). */
  teamsCard: (conversationId: string, activityId: string) => `rd:teams:card:${conversationId}/${activityId}`,
  /** How the bot reaches a person privately: their Teams id and service URL (src/chat/teams/directory.ts). */
  teamsPerson: (aadObjectId: string) => `rd:teams:person:${aadObjectId}`,
  /** An approver's Teams id and when the bot last saw them, for cards' refresh lists (src/chat/teams/refresh-list.ts). */
  teamsApprover: (aadObjectId: string) => `rd:teams:approver:${aadObjectId}`,
  /** A Teams conversation's service URL (src/chat/teams/directory.ts). */
  teamsConversation: (conversationId: string) => `rd:teams:conversation:${conversationId}`,
  /** A person's request the app answered "not started" after queueing it late (src/queue/withdrawn.ts). */
  withdrawn: (request: string) => `rd:withdrawn:${request}`,
  /**
   * An incident's record (src/queue/incident-journal.ts): a stream of its audit lines,
   * `<cluster>/<namespace>/<workload>` as src/postmortem/build.ts names it, trimmed and
   * expiring after ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS.
   */
  incident: (id: string) => `rd:incident:${id}`,
  /**
   * Which incident a message with a Draft post-mortem button is about, and its thread's
   * language, under the app's mark (src/chat/notify/postmortem-buttons.ts).
   */
  postmortemButton: (m: Message) => `rd:pm-button:${messageKeyPart(m)}`,
  /** When the draft of that incident's record at `entries` events was posted from the message. */
  postmortemDraft: (m: Message, entries: number) => `rd:pm-draft:${messageKeyPart(m)}:${entries}`,
  /** The app's /readyz write probe (src/app/routes/health.ts): one small key with a short expiry. */
  readyzProbe: () => 'rd:readyz:probe',
  /** An approval's replay guard (src/worker/plan-trust.ts). */
  approvalNonce: (nonce: string) => `rd:approval-nonce:${nonce}`,
  /**
   * The admission webhook's announcements (src/admission/announce-queue.ts): a stream it
   * may only XADD to; the app moves each verified entry into its alert notify lane
   * (src/app/notify/announce-mover.ts). The webhook's Redis user touches no other key.
   */
  admissionAnnounce: () => 'rd:admission:announce',
  /**
   * The app's account of that stream (announce-mover.ts): entries it handled (moved or
   * refused), and the entries found gone unread, last seen. Not writable by the webhook.
   */
  admissionAnnounceHandled: () => 'rd:admission:announce-handled',
  admissionAnnounceLost: () => 'rd:admission:announce-lost',
} as const;
