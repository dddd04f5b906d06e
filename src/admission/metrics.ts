/** The admission webhook's Prometheus metrics, on a private registry. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface AdmissionMetrics {
  registry: Registry;
  /** Reviews by outcome: warned, refused, clear, skipped, unknown, cold (before the first read), budget (no answer in time), error. */
  reviews: Counter<'outcome'>;
  seconds: Histogram;
  /** Warned applies announced to the app (announce.ts), by outcome. */
  announcements: Counter<'outcome'>;
}

export function createAdmissionMetrics(defaults = false): AdmissionMetrics {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry, prefix: 'rollout_doctor_admission_' });
  return {
    registry,
    reviews: new Counter({
      name: 'rollout_doctor_admission_reviews_total',
      help: 'AdmissionReviews answered, by outcome (budget: past the budget, answered with no warning; cold: before the first read of the cluster, answered at once with no warning).',
      labelNames: ['outcome'] as const,
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
  };
}
