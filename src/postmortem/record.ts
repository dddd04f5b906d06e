/**
 * An incident's record: what the audit of one workload says happened, from the first
 * signal to the rollout's end and what changed after. The post-mortem is rendered from
 * it (render.ts) and `postmortem -o json` prints it as is, so this schema is the JSON
 * contract (docs/postmortem.md). Times are RFC 3339 in UTC. What the audit did not
 * record is `null` or absent, never an empty value that could pass for "nothing". Pure.
 */
import { z } from 'zod';
import { EXCLUSION_CAUSES, EXCLUSION_OUTCOMES, OUTCOMES } from './audit-line.js';

const at = z.iso.datetime();

/** How the incident came to rollout-doctor. */
const SIGNAL_VIAS = ['alert', 'early-warning', 'admission', 'command'] as const;
export type SignalVia = (typeof SIGNAL_VIAS)[number];

const signal = z.object({
  at,
  via: z.enum(SIGNAL_VIAS),
  /** The person who asked (a chat id), with via 'command'. */
  by: z.string().optional(),
});

const finding = z.object({
  code: z.string(),
  severity: z.string(),
  summary: z.string(),
  /** Error messages as the cluster wrote them: untrusted text. */
  messages: z.array(z.string()),
});

const plan = z.object({ id: z.string(), kind: z.string(), summary: z.string() });

const diagnosis = z.object({
  at,
  /** Who asked for this run (a person id, ALERTMANAGER, EARLYWARNING, ADMISSION). */
  requestedBy: z.string(),
  findings: z.array(finding),
  offered: z.array(plan),
  notOffered: z.array(z.object({ kind: z.string(), addresses: z.string(), reason: z.string() })),
  manifestChanges: z.array(z.object({ addresses: z.string(), where: z.string(), diff: z.string() })),
});

const approval = z.object({
  at,
  planId: z.string(),
  kind: z.string(),
  user: z.string(),
  /** claimed: this approval started the write; recorded: more approvers were needed. */
  result: z.enum(['claimed', 'recorded']),
});

const refusal = z.object({
  at,
  planId: z.string(),
  user: z.string(),
  reason: z.string(),
  detail: z.string().optional(),
});

const write = z.object({
  at,
  planId: z.string(),
  kind: z.string(),
  outcome: z.enum(OUTCOMES),
  approvedBy: z.array(z.string()),
  detail: z.string().optional(),
  /** The write took back an earlier one (an Undo). */
  undo: z.boolean(),
});

/** What the exclusion sweep did with a node exclusion of the workload (src/worker/exclusion-expiry.ts). */
const exclusion = z.object({
  at,
  planId: z.string(),
  cause: z.enum(EXCLUSION_CAUSES),
  outcome: z.enum(EXCLUSION_OUTCOMES),
  detail: z.string().optional(),
});

/** Serving replicas against desired at one moment, and how the record knows it. */
const servingPoint = z.object({
  at,
  desired: z.number().int().nonnegative(),
  available: z.number().int().nonnegative(),
  /** diagnosis: read from the workload's status; rolled-out: the rollout completed (all available). */
  source: z.enum(['diagnosis', 'rolled-out']),
});

/** One line of the timeline, in time order. */
const entry = z.discriminatedUnion('type', [
  z.object({ at, type: z.literal('signal'), via: z.enum(SIGNAL_VIAS), by: z.string().optional() }),
  z.object({ at, type: z.literal('diagnosis'), codes: z.array(z.string()), offered: z.number().int() }),
  z.object({
    at,
    type: z.literal('approval'),
    planId: z.string(),
    kind: z.string(),
    user: z.string(),
    result: z.enum(['claimed', 'recorded']),
  }),
  z.object({ at, type: z.literal('refusal'), planId: z.string(), user: z.string(), reason: z.string() }),
  z.object({
    at,
    type: z.literal('write'),
    planId: z.string(),
    kind: z.string(),
    outcome: z.enum(OUTCOMES),
    undo: z.boolean(),
  }),
  z.object({
    at,
    type: z.literal('exclusion'),
    cause: z.enum(EXCLUSION_CAUSES),
    outcome: z.enum(EXCLUSION_OUTCOMES),
  }),
]);
export type TimelineEntry = z.infer<typeof entry>;

const END_STATES = ['rolled-out', 'pods-ready', 'undone', 'failed', 'open'] as const;

export const incidentRecordSchema = z.object({
  /** `<cluster>/<namespace>/<workload name>`: the key every audit event names a workload by. */
  id: z.string(),
  workload: z.object({
    cluster: z.string(),
    namespace: z.string(),
    name: z.string(),
    /** Known once a diagnosis was recorded. */
    kind: z.string().nullable(),
  }),
  /** The first signal; null when the record starts later (an approval with no diagnosis logged). */
  signal: signal.nullable(),
  diagnoses: z.array(diagnosis),
  approvals: z.array(approval),
  refusals: z.array(refusal),
  writes: z.array(write),
  /** The plan whose write brought the rollout to its end (or the last one tried), null when none was approved. */
  adopted: z
    .object({
      planId: z.string(),
      kind: z.string(),
      summary: z.string().nullable(),
      approvedBy: z.array(z.string()),
    })
    .nullable(),
  /** How the incident ended as far as the record knows: 'open' when it shows no end. */
  end: z.object({ state: z.enum(END_STATES), at: at.nullable() }),
  /** Serving replicas against desired, as far as the record knows (empty: not recorded). */
  serving: z.array(servingPoint),
  /** Writes after the end (an Undo, another fix). */
  laterChanges: z.array(write),
  /** The node exclusion's end as the sweep met it: expired or its nodes changed, removed, waiting, offered. */
  exclusions: z.array(exclusion),
  timeline: z.array(entry),
});
export type IncidentRecord = z.infer<typeof incidentRecordSchema>;
export type RecordedWrite = z.infer<typeof write>;
export type RecordedExclusion = z.infer<typeof exclusion>;
export type RecordedDiagnosis = z.infer<typeof diagnosis>;
