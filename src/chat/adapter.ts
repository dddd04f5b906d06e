/**
 * The chat port: what the product asks of a chat platform (outbound) and what a
 * platform hands the product (inbound), with no platform in either. An adapter
 * (one folder under src/chat/, e.g. src/chat/slack/) verifies requests its own way
 * (Slack's signature, Bot Framework tokens), decodes them into these requests, calls
 * the use-cases (src/chat/use-cases/), and renders their replies in its own markup.
 */
import type { Lang } from '../i18n/lang.js';
import type { RootRecord } from './notify/root-store.js';
import type { ChatAction } from './actions.js';
import type { FixStage } from './use-cases/outcome.js';
import type {
  ChatFailure,
  ChatMessage,
  ConversationRef,
  MessageRef,
  PersonRef,
  Platform,
  Rich,
} from './model.js';

/**
 * A text file to post in a thread (a post-mortem draft): its file name, title and text.
 * The text is whatever it holds (cluster text among it): a file is shown as a file, never
 * rendered as the platform's markup.
 */
export interface ChatFile {
  readonly name: string;
  readonly title: string;
  /** UTF-8 text; Markdown for a post-mortem draft. */
  readonly text: string;
}

/** Outbound: what the product asks of a platform. */
export interface ChatAdapter {
  readonly platform: Platform;
  /**
   * A `mention` of a person known only by id reaches them (Slack renders `<@U…>`).
   * Absent: the platform shows a mention by name, so a message names nobody it knows by
   * id only (Teams would show an Entra object id).
   */
  readonly mentionsById?: boolean;
  /** Posts a message (in `to.thread` when set) and resolves with its ref. */
  post(to: ConversationRef, message: ChatMessage): Promise<MessageRef>;
  /** Replaces what a posted message shows, for everyone. */
  update(ref: MessageRef, message: ChatMessage): Promise<void>;
  /**
   * Says something only `person` sees, where they are (Slack: an ephemeral message;
   * Teams: their personal chat with the bot, a few a minute; nothing where it cannot be
   * opened). Never a post others see: a refusal is the refused person's business.
   */
  tell(person: PersonRef, where: ConversationRef, message: ChatMessage): Promise<void>;
  /**
   * Says something only `person` sees, out of the way of a public message about to be
   * removed (`near`: that message's conversation, and its thread when it is a reply):
   * Teams in the bot's personal chat with them, Slack as an ephemeral message in `near`.
   * False when the platform cannot reach them so. Absent: the platform has no such answer.
   */
  tellPrivately?(person: PersonRef, message: ChatMessage, near: ConversationRef): Promise<boolean>;
  /**
   * Posts a report of several messages in `to` (a thread), in order. Absent: each is
   * posted on its own with `post`. Slack packs them into as few messages as its limits allow.
   */
  postReport?(to: ConversationRef, messages: readonly ChatMessage[]): Promise<void>;
  /**
   * Posts `file` in `to` (a thread) with `comment` as its message (Slack: files.uploadV2,
   * which needs the files:write scope). Absent: the platform's bot cannot post a file
   * there, and the caller posts a message instead (src/chat/use-cases/postmortem-press.ts
   * postDraft: Teams, whose bots attach files in a channel only through SharePoint).
   */
  postFile?(to: ConversationRef, file: ChatFile, comment: ChatMessage): Promise<void>;
  /** Deletes a message the bot posted. Absent: the platform's bot cannot. */
  remove?(ref: MessageRef): Promise<void>;
  /**
   * What a message the bot posted shows now, when the adapter remembers it (Teams: its
   * card store), so an outcome can re-render its state line; absent: not known.
   */
  shown?(ref: MessageRef): Promise<ChatMessage | undefined>;
  /**
   * Shows `stage` (reached at `at`), said by `line` (src/chat/notify/root-update.ts
   * keptStateLine; undefined for a record kept before the port kept approvals as data:
   * the adapter says it from what it kept), as the state line of the approved message
   * `record` names, re-rendered from what the record kept of it (Slack cannot read a message back: the record holds
   * the blocks the app put there, under the app's mark). Returns the record to keep from
   * now on, or undefined when it stays as it is. Absent: the state line is re-rendered
   * from `shown` (src/chat/notify/root-update.ts).
   */
  showFixStage?(
    record: RootRecord,
    stage: FixStage,
    at: number,
    line: Rich | undefined,
  ): Promise<RootRecord | undefined>;
  /**
   * What `error` means when it is a failure of this platform's API (a rate limit, an
   * outage, a refusal no retry fixes); undefined for any other error.
   */
  failureOf?(error: unknown): ChatFailure | undefined;
}

/** Inbound: a command a person sent, after the adapter verified where it came from. */
export interface CommandRequest {
  readonly person: PersonRef;
  readonly conversation: ConversationRef;
  /** The arguments after the command word (`vision-tracker -n vision`), untrusted. */
  readonly text: string;
  /**
   * The person's language as their platform says it (a Slack user's locale, a Teams
   * activity's `locale`); absent: the workspace's (ROLLOUT_DOCTOR_LANG). The thread
   * the command starts keeps it.
   */
  readonly lang?: Lang;
}

/** A run a command or a Re-run started: announce it in the conversation, then follow it. */
export interface StartedRun {
  readonly cluster: string;
  readonly jobId: string;
  readonly addedAt: number;
  /**
   * The run the request joined (its job's add time), when it joined one: that run's
   * result answers it even when published before `addedAt`.
   */
  readonly joinedRun?: number;
  /** What was asked for, as the audit names it when the run cannot finish in time. */
  readonly what: 'diagnose' | 'scan' | 'rerun';
  /** The workload's name, for a diagnosis or a Re-run. */
  readonly deployment?: string;
  /** The announcement ("… asked for a diagnosis of …"); the result replaces it. */
  readonly announcement: ChatMessage;
  /** Who asked (may dismiss; does not count toward a two-person approval), the scope, and the thread's language. */
  readonly owner: { requestedBy: string; cluster: string; namespace?: string; lang?: Lang };
  /** Said only to the person when the announcement cannot be posted (the run goes on). */
  readonly cannotPost: ChatMessage;
}

export type CommandReply =
  /** Nothing started: help, a usage problem, a refusal, an unavailable queue. */
  | { readonly kind: 'private'; readonly message: ChatMessage }
  /** A run was queued (or joined): acknowledge, then announce it. */
  | { readonly kind: 'started'; readonly run: StartedRun };

/**
 * What a platform can say of people and of the thread, asked only by a press that needs
 * it (Propose in Git: the pull request's body, src/chat/use-cases/propose-record.ts).
 * Answers are untrusted text, or undefined: not known, not in time, refused.
 */
export interface PressLookups {
  /** A person's display name (Slack: users.info; Teams: the presser's name as the activity gave it). */
  nameOf(person: string): Promise<string | undefined>;
  /** A link to the thread's root message (Slack: its permalink); Teams gives none. */
  threadLink(): Promise<string | undefined>;
}

/** Inbound: a button press, after the adapter verified it and decoded its action. */
export interface PressRequest {
  readonly person: PersonRef;
  /** The pressed message. */
  readonly message: MessageRef;
  /** The thread's root message (the pressed message itself when it is not in a thread). */
  readonly root: MessageRef;
  readonly action: ChatAction;
  /**
   * What the pressed message shows once `mark` is applied, as the app keeps it for the
   * outcomes to re-render (ChatAdapter.showFixStage): a platform that cannot read a
   * message back (Slack) keeps its own rendering and the verdict line in it. Absent: the
   * adapter remembers what its messages show (ChatAdapter.shown).
   */
  readonly kept?: (mark: PlanMark) => Pick<RootRecord, 'verdict' | 'blocks'>;
  /** Names and the thread's link, where the platform can say them; absent: ids, no link. */
  readonly lookups?: PressLookups;
  /**
   * How long the press's Redis calls may take in all (one deadline, src/queue/deadline.ts).
   * Absent: ANSWER_DEADLINE_MS, for a platform waiting on the answer (a Teams invoke). A
   * platform that acked the press before it is decided (Slack) gives more, so a press
   * made while a Sentinel failover is under way is held until the new master answers.
   */
  readonly deadlineMs?: number;
}

/**
 * A change to the pressed message, for everyone: the plan's button becomes a plain
 * `label`, `line` goes above the buttons (the message's state line), and with
 * `withdrawOthers` the other Apply buttons go (one fix per message).
 */
export interface PlanMark {
  readonly planId: string;
  readonly label: string;
  readonly line: Rich;
  /** The fix's stage the line says (a platform that re-renders a card marks a resolved incident so). */
  readonly stage?: FixStage;
  readonly withdrawOthers: boolean;
  /** The message's fallback text after the change. */
  readonly summary: Rich;
}

/**
 * Another message's state line a press moves on (an Undo pressed in a thread reply: the
 * message its fix was approved on), for adapters that know what that message shows
 * (ChatAdapter.shown): `line` first, then each later line `settle` gives after an edit
 * landed (the stage moved on meanwhile: src/chat/notify/root-stage.ts), until undefined.
 */
export interface StateLineEdit {
  readonly ref: MessageRef;
  /**
   * What the app kept of that message (src/chat/notify/root-store.ts), for an adapter
   * that re-renders it from there (ChatAdapter.showFixStage: Slack).
   */
  readonly kept: RootRecord;
  readonly line: Rich;
  /** The stage `line` says. */
  readonly stage: FixStage;
  readonly settle: () => Promise<{ line: Rich; stage: FixStage } | undefined>;
}

/** What a press leads to; the adapter applies `mark`, then `tell`, then the rest. */
export interface PressReply {
  /** Said only to the person who pressed. */
  readonly tell?: ChatMessage;
  /** The pressed message changes for everyone. */
  readonly mark?: PlanMark;
  /** Told before the mark rather than after (a refusal is said first, then marked). */
  readonly tellFirst?: boolean;
  /** A run the press started (Re-run), to announce in the root's thread. */
  readonly started?: StartedRun;
  /** The pressed message is replaced by this (Dismiss). */
  readonly replace?: ChatMessage;
  /**
   * After the mark's edit landed: a later mark to edit the message with again (the
   * approved plan's stage moved on meanwhile: src/chat/notify/root-stage.ts), or
   * undefined once it stayed put. Called again after each edit.
   */
  readonly settle?: () => Promise<PlanMark | undefined>;
  /** Another message's state line the press moves on (an Undo's: the root's "undoing…", or later). */
  readonly root?: StateLineEdit;
  /** A post-mortem draft to post in the pressed message's thread (postDraft in use-cases/postmortem-press.ts). */
  readonly draft?: DraftToPost;
}

/**
 * A post-mortem draft a press asks the adapter to post in the pressed message's thread:
 * as `file` where the platform posts files (ChatAdapter.postFile), else as `snippets`,
 * messages in order that quote it whole, as far as they go; `undelivered` is told the presser when neither could be posted, after
 * `release` (so that a press again posts it); `posted` once it is.
 */
export interface DraftToPost {
  readonly file: ChatFile;
  readonly comment: ChatMessage;
  readonly snippets: readonly ChatMessage[];
  readonly undelivered: ChatMessage;
  release(): Promise<void>;
  /** Called once it is posted, as a file or as its snippets (the press's audit). */
  posted(as: 'file' | 'snippets'): void;
}

/**
 * The use-cases an adapter calls (src/chat/use-cases/), bound to the app's services:
 * `command` is runCommand (use-cases/command.ts), `press` is answerPress
 * (use-cases/approve-press.ts: Approve and Undo, and Re-run, the plan status and
 * Dismiss of use-cases/press.ts), `announce` is announceRun (src/chat/notify/announce.ts).
 * Each answers within the platform's acknowledgement window: no cluster work, only
 * validation, policy, Redis and the queue.
 */
export interface ChatUseCases {
  /** A command: help, a refusal, or a run queued (or joined) to announce. */
  command(request: CommandRequest): Promise<CommandReply>;
  /** A button press: approve, undo, re-run, status, dismiss, draft post-mortem. */
  press(request: PressRequest): Promise<PressReply>;
  /**
   * Posts a run's announcement through `adapter` and subscribes the posted message to
   * the run, so its result replaces it; null when the bot cannot post there.
   */
  announce(adapter: ChatAdapter, where: ConversationRef, run: StartedRun): Promise<MessageRef | null>;
}
