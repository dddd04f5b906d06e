/**
 * The webhook put together: the judging thread (judge-thread-host.ts: the cluster view,
 * cached-source.ts, and the check, off the loop that answers), its metrics, and the
 * HTTPS server, Ready once the first read is done (reviews before it are answered at once
 * with no warning). One composition for the `serve-admission` command, the benchmark,
 * the README picture and the tests.
 */
import type { Logger } from '../logger.js';
import type { ViewBounds } from './cached-source.js';
import { createAdmissionMetrics, type AdmissionMetrics } from './metrics.js';
import { startAdmissionServer, type AdmissionServer, type BodyLimits } from './server.js';
import type { ReviewDeps } from './review-handler.js';
import { startJudgeThread, type JudgeThread } from './judge-thread-host.js';
import type { ThreadKubeOptions } from './judge-messages.js';
import type { Lang } from '../i18n/lang.js';

export interface ServeOptions {
  /** How the judging thread reads the cluster (it makes its own client from these). */
  kube: ThreadKubeOptions;
  port: number;
  host?: string;
  tlsCert: string;
  tlsKey: string;
  /** PEM of the CA that signs the API server's client certificate (server.ts); absent: any caller. */
  clientCa?: string;
  /** Names the caller's certificate must carry (CN or DNS SAN); empty: any the CA signed. */
  clientNames?: readonly string[];
  /** Plain-HTTP port of /healthz, /readyz and /metrics. */
  probePort?: number;
  budgetMs: number;
  cacheSeconds: number;
  /** The warnings' language where a namespace names none (annotation LANG_ANNOTATION); absent: English. */
  lang?: Lang;
  /** The cluster view's sizes (cached-source.ts BOUNDS); absent: those. Tests make them small. */
  bounds?: Partial<ViewBounds>;
  /** The view's clock (tests move it to end windows); absent: Date.now. */
  now?: () => number;
  /** Limits on request bodies (server.ts BODY_LIMITS); absent: those. */
  bodyLimits?: Partial<BodyLimits>;
  logger: Logger;
  /** Process metrics beside the webhook's (the command; not tests). */
  processMetrics?: boolean;
  /**
   * Told of every warned apply (announce.ts makes one from a queue), with the webhook's
   * metrics to count in; never awaited by a review.
   */
  onWarned?: (metrics: AdmissionMetrics) => ReviewDeps['onWarned'];
}

export interface ServingAdmission extends AdmissionServer {
  metrics: AdmissionMetrics;
  /** Resolves once the first read is done (nodes, their pods, the busiest namespaces): /readyz turns 200. */
  ready: Promise<void>;
  /** The judging thread (tests stop it to see it started again). */
  judging: Pick<JudgeThread, 'current'>;
}

/** @example const hook = await serveAdmission({ kube: { kubeconfig }, port: 8443, tlsCert, tlsKey, budgetMs: 2000, cacheSeconds: 10, logger }) */
export async function serveAdmission(options: ServeOptions): Promise<ServingAdmission> {
  const metrics = createAdmissionMetrics(options.processMetrics ?? false);
  const judging = startJudgeThread({
    kube: options.kube,
    ttlMs: options.cacheSeconds * 1000,
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.lang ? { lang: options.lang } : {}),
    ...(options.now ? { now: options.now } : {}),
    logger: options.logger,
    onEvict: (cache) => metrics.evicted.inc({ cache }),
    onRenewed: (namespaces) => {
      metrics.renewals.inc();
      metrics.renewedNamespaces.set(namespaces);
    },
  });
  // Ready either way once the first read is over: a failed read is retried by the reviews.
  let warm = false;
  const ready = judging.warm.then(() => {
    warm = true;
  });
  let server: AdmissionServer;
  try {
    server = await startAdmissionServer({
      port: options.port,
      ...(options.host !== undefined ? { host: options.host } : {}),
      tlsCert: options.tlsCert,
      tlsKey: options.tlsKey,
      ...(options.clientCa !== undefined ? { clientCa: options.clientCa } : {}),
      ...(options.clientNames !== undefined ? { clientNames: options.clientNames } : {}),
      ...(options.probePort !== undefined ? { probePort: options.probePort } : {}),
      ...(options.bodyLimits ? { bodyLimits: options.bodyLimits } : {}),
      logger: options.logger,
      ready,
      deps: {
        judge: (item) => judging.judge(item),
        ready: () => warm,
        budgetMs: options.budgetMs,
        metrics,
        logger: options.logger,
        ...(options.onWarned ? { onWarned: options.onWarned(metrics) } : {}),
      },
    });
  } catch (error) {
    await judging.close();
    throw error;
  }
  return {
    ...server,
    metrics,
    ready,
    judging: { current: () => judging.current() },
    close: async () => {
      await server.close();
      await judging.close();
    },
  };
}
