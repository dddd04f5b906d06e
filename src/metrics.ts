import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The app's and workers' Prometheus metrics, on a private registry (no global state). */
export interface Metrics {
  registry: Registry;
  commands: Counter<'command' | 'outcome'>;
  queueDepth: Gauge<'queue' | 'state'>;
  jobDuration: Histogram<'queue' | 'outcome'>;
  remediations: Counter<'kind' | 'outcome'>;
  /** Chat platform API calls of the notify consumer, by platform (src/platforms/list.ts), method and outcome. */
  chatCalls: Counter<'platform' | 'method' | 'outcome'>;
  /** Redis values that steer the bot and did not carry the writer's mark (src/queue/record-mark.ts). */
  tamperedRecords: Counter<'record'>;
  /** This process's clock minus Redis's TIME, in seconds (src/queue/clock-watch.ts). */
  clockOffset: Gauge;
  /** 1 while a notify lane is paused or stalled (src/app/notify/lane-health.ts). */
  notifyLaneProblem: Gauge<'queue' | 'reason'>;
  /** The webhook's announcements moved into the alert lane or refused (src/app/notify/announce-mover.ts). */
  announcementsMoved: Counter<'outcome' | 'reason'>;
}

/**
 * Builds a fresh registry. `collectQueueDepth` is called on each scrape so the gauge
 * reflects Redis at that moment.
 */
export function createMetrics(
  options: {
    collectQueueDepth?: (set: (queue: string, state: string, n: number) => void) => Promise<void>;
    defaults?: boolean;
  } = {},
): Metrics {
  const registry = new Registry();
  if (options.defaults) collectDefaultMetrics({ register: registry, prefix: 'rollout_doctor_' });
  const collect = options.collectQueueDepth;
  const queueDepth = new Gauge({
    name: 'rollout_doctor_queue_jobs',
    help: 'Jobs per queue and state at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      if (!collect) return;
      try {
        await collect((queue, state, n) => this.set({ queue, state }, n));
      } catch {
        // Redis down: keep the last values; /readyz reports the outage.
      }
    },
  });
  return {
    registry,
    queueDepth,
    commands: new Counter({
      name: 'rollout_doctor_commands_total',
      help: 'Slash commands by subcommand and outcome (queued, joined, usage, refused, rate-limited, budget-unread, queue-unavailable).',
      labelNames: ['command', 'outcome'] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'rollout_doctor_job_duration_seconds',
      help: 'Job processing time by queue and outcome.',
      labelNames: ['queue', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    remediations: new Counter({
      name: 'rollout_doctor_remediations_total',
      help: 'Remediation attempts by kind and outcome.',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    chatCalls: new Counter({
      name: 'rollout_doctor_chat_calls_total',
      help: 'Chat platform API calls made by the notify consumer, by platform, method and outcome.',
      labelNames: ['platform', 'method', 'outcome'] as const,
      registers: [registry],
    }),
    clockOffset: new Gauge({
      name: 'rollout_doctor_clock_offset_seconds',
      help: "This process's clock minus Redis's (TIME), read at start and every minute. Beyond ±60 s freshness checks between processes fail: the process refuses work and names its clock.",
      registers: [registry],
    }),
    tamperedRecords: new Counter({
      name: 'rollout_doctor_tampered_records_total',
      help: 'Redis values that decide where the bot speaks or what it says, found without a valid mark and ignored, by record (alert thread, alert job link, alert thread verdict, root state, root stage, plan stage, teams card, teams person, teams conversation, teams approver, run record: a run record the app did not write, ahead of the clock, or without or beyond its expiry). Anything above 0 means someone wrote into Redis.',
      labelNames: ['record'] as const,
      registers: [registry],
    }),
    notifyLaneProblem: new Gauge({
      name: 'rollout_doctor_notify_lane_problem',
      help: 'The app: 1 while a notify lane is paused (BullMQ paused flag: nothing of rollout-doctor sets it) or stalled (its oldest waiting job unmoved for 2 minutes), else 0, by queue and reason. Nothing in such a lane is posted.',
      labelNames: ['queue', 'reason'] as const,
      registers: [registry],
    }),
    announcementsMoved: new Counter({
      name: 'rollout_doctor_admission_announcements_moved_total',
      help: "The app: the admission webhook's announcements taken from rd:admission:announce, by outcome (moved into the alert lane, refused, lost) and reason of a refusal (signature, kind, cluster, malformed). A refusal means a forged entry, or a key or cluster the app is not set up for. Lost (reason trimmed): entries removed from the stream before the app read them (an XADD with MAXLEN while the app was behind or stopped, or the webhook's credential used to drop them).",
      labelNames: ['outcome', 'reason'] as const,
      registers: [registry],
    }),
  };
}
