import { z } from 'zod';
import { LANGS } from '../i18n/lang.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import { WORKLOAD_KINDS } from '../diagnosis/workload-ref.js';
import { alertOverflowJobSchema, alertThreadJobSchema } from './alert-jobs.js';
import { signedApprovalSchema } from '../trust/approval-signature.js';
import {
  anyConversation,
  anyMessageId,
  anyPerson,
  checkRef,
  isPersonId,
  platformField,
} from '../platforms/chat-refs.js';

/**
 * Job payloads, shared by producers and consumers: both sides parse with these
 * schemas, so a job written by an older or newer process fails loudly instead of
 * half-working. Job data is stored in clear text in Redis: never put a token here.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const namespaceSchema = z.string().max(63).regex(DNS1123_LABEL, 'must be a DNS-1123 label');
export const resourceNameSchema = z
  .string()
  .max(253)
  .regex(DNS1123_SUBDOMAIN, 'must be a DNS-1123 subdomain');
export const clusterSchema = z.string().max(63).regex(DNS1123_LABEL, 'must be a DNS-1123 label');
/**
 * Who asked: a person id of a chat platform the app serves (src/platforms/list.ts: a
 * Slack id, or a Teams user's Entra object id, a lower-case GUID as the Teams adapter
 * sends it).
 */
const personId = z.string().refine(isPersonId, 'must be a person id of a chat platform');

/** A workload of a kind the registry knows (src/diagnosis/workload-ref.ts). */
export const workloadRefSchema = z.object({
  kind: z.enum(WORKLOAD_KINDS),
  namespace: namespaceSchema,
  name: resourceNameSchema,
});

/**
 * diagnose.<cluster>: diagnose one workload of any kind (mode 'workload'; `target.kind`
 * says which), or scan a namespace / the cluster. Jobs queued before the name changed
 * carry mode 'deployment' and read as 'workload'.
 */
/** A person's request, so a job queued after its answer said "not started" is not run (src/queue/withdrawn.ts). */
const requestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** A reader's language on a job (src/i18n/lang.ts); one we do not have reads as absent, the default. */
const langField = z.enum(LANGS).optional().catch(undefined);

/** A job queued before mode 'deployment' was named 'workload' reads as the same job. */
const renamedMode = (job: unknown): unknown =>
  typeof job === 'object' && job !== null && (job as { mode?: unknown }).mode === 'deployment'
    ? { ...job, mode: 'workload' }
    : job;

export const diagnoseJobSchema = z.preprocess(
  renamedMode,
  z.discriminatedUnion('mode', [
    z.object({
      mode: z.literal('workload'),
      cluster: clusterSchema,
      target: workloadRefSchema,
      requestedBy: personId,
      request: requestIdSchema.optional(),
      /** The reader's language, for what the worker writes in words; absent (older jobs): the default. */
      lang: langField,
      /**
       * Alerts that name pods (KubePodCrashLooping, ...): the worker resolves the owning
       * workload from these through ownerReferences; `target.name` is only a guess.
       */
      resolveFromPods: z.array(resourceNameSchema).max(20).optional(),
    }),
    z.object({
      mode: z.literal('scan'),
      cluster: clusterSchema,
      namespace: namespaceSchema.optional(),
      requestedBy: personId,
      request: requestIdSchema.optional(),
      lang: langField,
    }),
  ]),
);
export type DiagnoseJob = z.infer<typeof diagnoseJobSchema>;

/** remediate.<cluster>: apply one stored, approved plan. The plan itself stays in the plan store. */
const remediateJobShape = z.object({
  planId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^:]+$/),
  cluster: clusterSchema,
  /** The chat platform of the message and the approvers (src/platforms/chat-refs.ts); absent: Slack. */
  platform: platformField,
  /** People of that platform: Slack user ids, Entra object ids. */
  approvedBy: z.array(anyPerson).min(1),
  /** Where the result message lives, so outcomes go to its thread (a Slack channel, a Teams conversation). */
  channel: anyConversation,
  /** The message's id there (a Slack ts, a Teams activity id). */
  messageTs: anyMessageId,
  /** The app's signature over the approval (src/trust/approval-signature.ts); checked by the worker. */
  approval: signedApprovalSchema,
});
const jobRefs = (job: z.infer<typeof remediateJobShape>, ctx: z.RefinementCtx): void =>
  checkRef(
    { platform: job.platform, conversation: job.channel, message: job.messageTs, people: job.approvedBy },
    ctx,
  );
export const remediateJobSchema = remediateJobShape.superRefine(jobRefs);
export type RemediateJob = z.infer<typeof remediateJobSchema>;

/**
 * propose.<cluster>: propose one stored, approved plan in Git (src/worker/propose-processor.ts).
 * Besides a remediation's fields, what the pull request's body says of the press
 * (src/propose/pull-record.ts): the approvers' names as the chat gave them (untrusted
 * text, unsigned: each beside its signed id) and a link to the thread's root message
 * (the worker shows it only when it names the signed thread: src/worker/proposal-record.ts).
 */
export const proposeJobSchema = remediateJobShape
  .extend({
    names: z
      .array(z.object({ id: anyPerson, name: z.string().min(1).max(200) }))
      .max(10)
      .optional(),
    threadLink: z
      .string()
      .max(2_000)
      .regex(/^https:\/\/[^\s<>()[\]`*_|]+$/)
      .optional(),
  })
  .superRefine((job, ctx) => {
    jobRefs(job, ctx);
    for (const { id } of job.names ?? [])
      if (!job.approvedBy.includes(id))
        ctx.addIssue({ code: 'custom', path: ['names'], message: 'a name of someone who did not approve' });
  });
export type ProposeJob = z.infer<typeof proposeJobSchema>;

/** Field change reported by a server-side dry run. */
const fieldChangeSchema = z.object({
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

// The Diagnosis type is owned by the engine; check the shape the app relies on and
// keep the rest as-is.
const diagnosisShape = z.looseObject({
  target: workloadRefSchema,
  capturedAt: z.string(),
  observed: z.object({ uid: z.string(), generation: z.number(), resourceVersion: z.string() }),
  findings: z.array(
    z.looseObject({
      code: z.string(),
      severity: z.string(),
      summary: z.string(),
      evidence: z.array(z.unknown()),
    }),
  ),
  remediations: z.array(z.looseObject({ id: z.string(), kind: z.string(), summary: z.string() })),
  analyzerErrors: z.array(z.object({ analyzer: z.string(), message: z.string() })),
});
const diagnosisSchema = z.custom<Diagnosis>(
  (value) => diagnosisShape.safeParse(value).success,
  'not a diagnosis',
);

const diagnosisOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('diagnosed'),
    diagnosis: diagnosisSchema,
    /** Per plan id: what the server-side dry run says will change, or why it could not run. */
    dryRuns: z.record(
      z.string(),
      z.union([
        z.object({ ok: z.literal(true), changes: z.array(fieldChangeSchema) }),
        z.object({ ok: z.literal(false), reason: z.string() }),
      ]),
    ),
  }),
  z.object({
    status: z.literal('scanned'),
    summary: z.string(),
    items: z.array(
      z.object({
        /** Absent: a Deployment. */
        kind: z.enum(WORKLOAD_KINDS).optional(),
        namespace: z.string(),
        name: z.string(),
        code: z.string(),
        summary: z.string(),
      }),
    ),
  }),
  z.object({
    status: z.literal('failed'),
    /** A sentence for the user: "deployment/x not found in namespace y", "cluster unreachable". */
    reason: z.string(),
    /**
     * Set when the workload does not exist (a typo, most often): the app answers the
     * requester privately with the closest names of that kind the worker found in the
     * namespace. No kind: a Deployment (results of older workers).
     */
    notFound: z
      .object({
        kind: z.enum(WORKLOAD_KINDS).optional(),
        namespace: namespaceSchema,
        name: resourceNameSchema,
        suggestions: z.array(resourceNameSchema).max(5),
      })
      .optional(),
  }),
]);
export type DiagnosisOutcome = z.infer<typeof diagnosisOutcomeSchema>;

const runRef = {
  /** The diagnose job id: requests joined to the same run share it. */
  jobId: z.string().min(1),
  cluster: clusterSchema,
  /** The job's creation time (ms): tells a new run apart from an earlier one with the same id. */
  runTs: z.number().int().nonnegative(),
  /** Monotonic per run (worker clock, ms): late progress never overwrites a result. */
  seq: z.number().int().nonnegative(),
  /**
   * The workload the run is about (resolved from pods for alerts), for Re-run and the
   * not-found answer; absent for scans. No kind: a Deployment (updates of older workers).
   */
  target: z
    .object({ namespace: namespaceSchema, name: resourceNameSchema, kind: z.enum(WORKLOAD_KINDS).optional() })
    .optional(),
};

const runProgressSchema = z.object({
  kind: z.literal('diagnosis-progress'),
  ...runRef,
  text: z.string().min(1).max(500),
});
const runResultSchema = z.object({
  kind: z.literal('diagnosis-result'),
  ...runRef,
  outcome: diagnosisOutcomeSchema,
});

/**
 * What a diagnose run tells the app: progress lines, then its result. Kept by the app
 * per run (src/chat/notify/subscriptions.ts) so a message that joins late catches up.
 */
export const runUpdateSchema = z.discriminatedUnion('kind', [runProgressSchema, runResultSchema]);
export type RunUpdate = z.infer<typeof runUpdateSchema>;

/** One step of a stepped walk (src/kube/write/stepped-walk.ts StepEvent), for the thread. */
const stepProgressSchema = z.discriminatedUnion('phase', [
  /** The first step under way (its old pod released), before its new pod is Ready. */
  z.object({
    phase: z.literal('waiting-ready'),
    step: z.literal(1),
    of: z.number().int().min(1).max(10_000),
    replicaSet: resourceNameSchema,
    /** The old pod the ReplicaSet controller released (seen terminating or gone). */
    pod: resourceNameSchema,
    /** The pod the step had marked first to go, when the controller released another. */
    marked: resourceNameSchema.optional(),
  }),
  z.object({
    phase: z.literal('ready'),
    step: z.number().int().min(1).max(10_000),
    of: z.number().int().min(1).max(10_000),
    replicaSet: resourceNameSchema,
    /** The old pod this step released. */
    pod: resourceNameSchema,
    marked: resourceNameSchema.optional(),
  }),
  z.object({
    phase: z.literal('stopped'),
    step: z.number().int().min(1).max(10_000),
    of: z.number().int().min(1).max(10_000),
    replicaSet: resourceNameSchema,
    reason: z.enum([
      'deployment-changed',
      'replicaset-changed',
      'nothing-blocked',
      'other-pod-first',
      'not-released',
      'released-elsewhere',
      'ready-timeout',
      'api-error',
    ]),
    /** deployment-changed: rolled back to the old template, a new rollout, or another spec field. */
    change: z.enum(['rolled-back', 'new-rollout', 'spec']).optional(),
    generation: z.number().int().min(0).optional(),
  }),
  /** Pods still carrying the walk's pod-deletion-cost mark: taking it off failed. */
  z.object({
    phase: z.literal('marks-left'),
    step: z.number().int().min(1).max(10_000),
    of: z.number().int().min(1).max(10_000),
    replicaSet: resourceNameSchema,
    namespace: resourceNameSchema,
    pods: z.array(resourceNameSchema).min(1).max(100),
  }),
]);
export type StepProgress = z.infer<typeof stepProgressSchema>;

/**
 * notify: everything the app posts to Slack. Workers never call Slack. Jobs carry
 * data, never Slack text or blocks: the app renders every message from the data with
 * its escaping builders, so whoever can write to Redis cannot post markup as the bot.
 */
export const notifyJobSchema = z.discriminatedUnion('kind', [
  runProgressSchema,
  runResultSchema,
  /** Alert intake: open, join or resolve an incident thread (src/app/alerts/thread-updates.ts). */
  alertThreadJobSchema,
  /** Alert intake: the workloads of a notification past the cap, summarised once per channel. */
  alertOverflowJobSchema,
  /**
   * The admission webhook (src/admission/announce.ts): an apply it warned about, which
   * opens the workload's incident thread before the rollout starts. Names are checked;
   * the user and the reason are untrusted text the app escapes.
   */
  z.object({
    kind: z.literal('admission-warning'),
    cluster: clusterSchema,
    workload: z.object({
      kind: z.enum(WORKLOAD_KINDS),
      namespace: namespaceSchema,
      name: resourceNameSchema,
    }),
    /** request.userInfo.username as the API server sent it, cut to 128 characters. */
    user: z.string().max(128),
    /** The finding's code (RolloutSurgeDeadlock, Unschedulable, QuotaExceeded, RolloutStuck). */
    code: z.string().regex(/^[A-Za-z]{1,40}$/),
    /** What keeps it from finishing, in a few words (cluster text). */
    reason: z.string().max(300).optional(),
    /** The strategy change that would let it finish ("maxSurge 0, maxUnavailable 1"). */
    fix: z.string().max(100).optional(),
    /** When the webhook answered (RFC 3339). */
    at: z.string().max(40),
    /**
     * The object's metadata.generation as the review showed it (a validating webhook sees
     * it after the API server's bump), and its uid: the app announces only once the
     * cluster shows the object at that generation (src/app/alerts/admission-parking.ts). Absent from older webhooks.
     */
    generation: z.number().int().min(1).optional(),
    uid: z.string().max(128).optional(),
  }),
  z
    .object({
      kind: z.literal('remediation-outcome'),
      planId: z.string().min(1),
      cluster: clusterSchema,
      /** As on the remediate job: the platform of the message and people (absent: Slack). */
      platform: platformField,
      channel: anyConversation,
      messageTs: anyMessageId,
      /**
       * Which start of the remediate job speaks (BullMQ's attemptsStarted): the app never
       * lets an earlier attempt's outcome follow a later one's (src/chat/notify/root-stage.ts).
       * Absent: a worker from before the fence (taken as 0, older than any).
       */
      attempt: z.number().int().positive().max(1_000_000).optional(),
      stage: z.enum([
        'applied',
        'already-applied',
        'rolled-out',
        /** After a plan that deleted pods and changed no pod template: their replacements are Ready. */
        'pods-ready',
        'still-failing',
        'refused',
        'failed',
        'timeout',
        /** Applied to a paused Deployment (it waits for `kubectl rollout resume`), or an Argo Rollout now at a pause (its promotion). */
        'paused',
        /** One step of a stepped scale-old-replicaset (`step` says which); the walk goes on. */
        'progress',
      ]),
      /** A sentence for the thread, in English. */
      detail: z.string().max(2_000),
      /**
       * The same sentence in the other languages (src/worker/remediate-words.ts): the app
       * shows the thread's, else `detail`. Absent (older workers): `detail` in every language.
       */
      detailIn: z.partialRecord(z.enum(LANGS), z.string().max(2_000)).optional().catch(undefined),
      /** Plan id of the stored inverse, offered as an Undo button. */
      undoPlanId: z.string().optional(),
      /**
       * Who asked for the diagnosis on the approved message, from the app's signed approval
       * ("-": nobody, an alert thread): the Undo button names it, so that person does not
       * count toward a two-person approval of the Undo. Absent: not known.
       */
      requester: anyPerson.optional(),
      /** Who approved, as ids of the platform; the app renders them as mentions (workers know no chat syntax). */
      approvedBy: z.array(anyPerson).max(10).optional(),
      /** Offered as Re-run when the plan was refused (the Deployment changed). */
      rerun: z
        .object({
          namespace: namespaceSchema,
          name: resourceNameSchema,
          kind: z.enum(WORKLOAD_KINDS).optional(),
        })
        .optional(),
      /** With stage 'progress': the step as data (the app renders it; names are checked, never text). */
      step: stepProgressSchema.optional(),
    })
    .superRefine((job, ctx) =>
      checkRef(
        {
          platform: job.platform,
          conversation: job.channel,
          message: job.messageTs,
          people: job.approvedBy,
          requester: job.requester,
        },
        ctx,
      ),
    ),
  /**
   * A "Propose in Git" job's outcome (src/worker/propose-processor.ts): the pull request
   * opened or updated (its address and number), or why none was. The app posts it in the
   * thread (src/chat/notify/proposal-delivery.ts); `why` is text the app escapes.
   */
  z
    .object({
      kind: z.literal('proposal-outcome'),
      planId: z.string().min(1).max(200),
      cluster: clusterSchema,
      platform: platformField,
      channel: anyConversation,
      messageTs: anyMessageId,
      approvedBy: z.array(anyPerson).min(1).max(10),
      status: z.enum(['opened', 'updated', 'unchanged', 'by-hand', 'refused', 'failed']),
      /** The pull request's address (opened, updated): https only. */
      url: z
        .string()
        .max(2_000)
        .regex(/^https?:\/\/[^\s<>|]+$/)
        .optional(),
      number: z.number().int().positive().optional(),
      /** The file changed, or why nothing was proposed (one line). */
      detail: z.string().max(1_000).optional(),
    })
    .superRefine((job, ctx) =>
      checkRef(
        { platform: job.platform, conversation: job.channel, message: job.messageTs, people: job.approvedBy },
        ctx,
      ),
    ),
]);
export type NotifyJob = z.infer<typeof notifyJobSchema>;
export type NotifyJobInput = z.input<typeof notifyJobSchema>;
