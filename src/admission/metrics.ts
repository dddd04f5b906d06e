/** The admission webhook's Prometheus metrics, on a private registry. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface AdmissionMetrics {
  registry: Registry;
  /** Reviews by outcome: warned, refused, clear, skipped, unknown, cold (before the first read), budget (no answer in time), error. */
  reviews: Counter<'outcome'>;
  /** Reviews whose verdict is not known, by why (unknown-reason.ts). */
  unknown: Counter<'reason'>;
  seconds: Histogram;
  /** Warned applies announced to the app (announce.ts), by outcome. */
  announcements: Counter<'outcome'>;
  /** Requests answered 429 at once (server.ts): too many large bodies, or too many bytes, being read. */
  busy: Counter<'reason'>;
  /** What the cluster view forgot to stay within its bounds (cached-source.ts BOUNDS), by which. */
  evicted: Counter<'cache'>;
  /** Windows renewed (their reads done before taking over), and how many namespaces the last one read. */
  renewals: Counter;
  renewedNamespaces: Gauge;
}

export function createAdmissionMetrics(defaults = false): AdmissionMetrics {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry, prefix: 'rollout_doctor_admission_' });
  return {
    registry,
    reviews: new Counter({
      name: 'rollout_doctor_admission_reviews_total',
      help: 'AdmissionReviews answered, by outcome (budget: past the budget, answered with no warning; cold: before the first read of the cluster, answered at once with no warning; absent: in a namespace that does not exist, no warning; busy: too many unknown namespaces being looked up, no warning).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    unknown: new Counter({
      name: 'rollout_doctor_admission_unknown_total',
      help: 'Reviews whose verdict is not known (no warning), by reason: unread (nodes or pods not read), unmodelled (an update the model does not follow), paused, devices (DRA), on-delete, held (a pod held before scheduling), stored-field (what the apply stores decides it), scheduler-disagrees, unsettled, live-object (not read), other.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    seconds: new Histogram({
      name: 'rollout_doctor_admission_review_seconds',
      help: 'Time to answer one AdmissionReview.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2],
      registers: [registry],
    }),
    announcements: new Counter({
      name: 'rollout_doctor_admission_announcements_total',
      help: 'Warned applies announced to the app for an incident thread, by outcome (queued, failed, deduplicated, dry-run, namespace-limit, dropped, invalid).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    busy: new Counter({
      name: 'rollout_doctor_admission_busy_total',
      help: 'Requests answered 429 at once, unread, by reason (large-bodies: as many bodies past 256 KiB being read or answered as allowed; body-bytes: the bytes of bodies held would pass the bound). The API server applies the failurePolicy.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    evicted: new Counter({
      name: 'rollout_doctor_admission_evicted_total',
      help: 'Entries the cluster view forgot to stay within its bounds, by cache (renew: namespaces renewed with the next window; reads: namespaces whose lists a window keeps; namespaces: namespace objects; answers: verdicts).',
      labelNames: ['cache'] as const,
      registers: [registry],
    }),
    renewals: new Counter({
      name: 'rollout_doctor_admission_renewals_total',
      help: 'Windows of the cluster view renewed: their reads done in the background, then taking over.',
      registers: [registry],
    }),
    renewedNamespaces: new Gauge({
      name: 'rollout_doctor_admission_renewed_namespaces',
      help: 'Namespaces the last renewed window read again (those reviewed in the last 5 minutes that still exist, at most 200).',
      registers: [registry],
    }),
  };
}
