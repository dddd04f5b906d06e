import type { Audit } from '../audit.js';
import type { AppConfig } from '../config/environment.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { PlanStore } from '../queue/plan-store.js';
import type { ApprovalPolicy } from '../policy/approval-policy.js';
import type { ReadPolicy } from '../policy/read-policy.js';
import type { Producers } from '../queue/producers.js';
import type { ReplicationGuard } from '../queue/replication-guard.js';
import type { Subscriptions } from './notify/subscriptions.js';
import type { RootStates } from './notify/root-store.js';
import type { PostedOnce } from './notify/posted-once.js';
import type { CommandBudget } from './use-cases/command-budget.js';
import type { ChatAdapter } from './adapter.js';
import type { ChatPlatform } from '../platforms/chat-refs.js';
import type { PostmortemButtons } from './notify/postmortem-buttons.js';
import type { ProposalApprovals } from './approvals/proposal-approvals.js';

/**
 * What the chat port's use-cases and the adapters' listeners need; built once by the app's
 * runtime (src/app/runtime.ts) and injected (tests pass fakes). The app's own services
 * (src/app/services.ts) add the alert side.
 */
export interface ChatServices {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  audit: Audit;
  producers: Producers;
  subscriptions: Subscriptions;
  plans: PlanStore;
  policy: ApprovalPolicy;
  /** Who may diagnose or scan what, and where alerts may diagnose. */
  readPolicy: ReadPolicy;
  /** Redis round trip, for /readyz. */
  pingRedis(): Promise<void>;
  /**
   * WAIT until the writes so far on the app's Redis connection (a claim and its
   * remediation job, a queued command) reach the replicas REDIS_WAIT_REPLICAS asks
   * for, and write them again if a failover loses them (src/queue/replication-guard.ts).
   * Absent, or 0 replicas asked: nothing to wait for (one endpoint, tests).
   */
  replication?: ReplicationGuard;
  /** The Redis connection's state for /readyz ('ready', 'connecting', 'reconnecting', …). */
  redisStatus?(): string;
  /** Set once auth.test succeeded at start. */
  slackReady(): boolean;
  /** No Slack in this install (Teams only): /readyz does not wait for Slack. */
  slackOff?: boolean;
  /**
   * The app's clock named when it is off beyond the tolerated skew and Redis's clock is
   * unknown (src/queue/clock-watch.ts).
   */
  clock?(): string | undefined;
  /** Now by Redis's clock where known (src/queue/clock-watch.ts): what expiries are kept in. */
  now?(): number;
  /** Root messages of approved plans, re-rendered as their outcomes arrive (absent in tests that do not need it). */
  rootStates?: RootStates;
  /** A remediation's replies posted once per notification, however often BullMQ delivers it (src/chat/notify/posted-once.ts). */
  postedOnce?: PostedOnce;
  /**
   * The chat adapters everything the app says after an ack speaks through, by platform
   * (Slack and Teams, each when configured): run delivery, outcomes, run deadlines,
   * alert threads' results.
   */
  chats?: Partial<Record<ChatPlatform, ChatAdapter>>;
  /**
   * What each Draft post-mortem button drafts (src/chat/notify/postmortem-buttons.ts);
   * absent: no button is offered.
   */
  postmortems?: PostmortemButtons;
  /**
   * Two-person approvals of "Propose in Git" presses (src/chat/approvals/proposal-approvals.ts);
   * absent: a proposal that needs two approvers is refused.
   */
  proposals?: ProposalApprovals;
  /** Commands per person and channel per minute (absent: no budget, as in tests that do not need it). */
  commandBudget?: CommandBudget;
}
