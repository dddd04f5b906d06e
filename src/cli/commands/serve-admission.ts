/**
 * `rollout-doctor serve-admission --port P --tls-cert FILE --tls-key FILE [--kubeconfig F]
 * [--context C] [--budget-ms MS] [--cache-seconds S]`: the ValidatingAdmissionWebhook
 * (POST /validate). Runs until SIGTERM or SIGINT. It needs no Redis and no chat
 * credentials, only read access to the cluster (in-cluster service account or a
 * kubeconfig). Exit: 0 stopped, 2 bad arguments or unreadable certificate, 3 port in use.
 */
import { existsSync } from 'node:fs';
import { createLogger, type Logger } from '../../logger.js';
import type { AdmissionMetrics } from '../../admission/metrics.js';
import type { ReviewDeps } from '../../admission/review-handler.js';
import { createAnnouncer, type Announcer } from '../../admission/announce.js';
import { announceQueue } from '../../admission/announce-queue.js';
import { parseSigningKey, type SigningKey } from '../../trust/approval-signature.js';
import { langFlag, parseCommandArgs, wantsHelp } from '../args.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { quoted } from '../../text/clean.js';
import { firstLang, type Lang } from '../../i18n/lang.js';
import { titlesPhrase } from '../../diagnosis/workload-ref.js';

const HELP = `Usage: rollout-doctor serve-admission --tls-cert FILE --tls-key FILE [--port P]
                                       [--client-ca FILE [--client-name NAME]...] [--probe-port P]
                                       [--kubeconfig F] [--context C] [--budget-ms MS] [--cache-seconds S]
                                       [--lang en|ko]

Serves the admission webhook: POST /validate answers AdmissionReviews (admission.k8s.io/v1)
for ${titlesPhrase('s', 'and')}. Every request is allowed; one
that starts a rollout that can never finish gets a warning kubectl, helm and Argo CD print
(a namespace labelled rollout-doctor.io/admission=refuse gets a refusal instead).
  --port            HTTPS port (default 8443)
  --tls-cert, --tls-key  the serving certificate and key (PEM), read again when they change
  --client-ca       PEM of the CA that signs the API server's client certificate (its
                    AdmissionConfiguration kubeConfigFile): only callers it signed are answered
  --client-name     a name (CN or DNS SAN) the caller's certificate must carry; repeatable
  --probe-port      plain-HTTP port of /healthz, /readyz and /metrics (default 8080; 0 = none)
  --budget-ms       answer time past which a review gets no warning (default 2000)
  --cache-seconds   how long one read of a namespace serves reviews (default 10)
  --kubeconfig, --context  which cluster to read (default: in-cluster, else KUBECONFIG)
  --lang            the warnings' language where a namespace does not name one with the
                    annotation rollout-doctor.io/lang (default ROLLOUT_DOCTOR_LANG, else en)
GET /healthz, GET /readyz (503 until the first read is done) and GET /metrics are served on
the probe port, never on the webhook's: with --client-ca no caller without a certificate
reaches the webhook's port at all.

With REDIS_URL and ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY set (and ROLLOUT_DOCTOR_CLUSTER,
default "default"), a warned apply is announced to the app, which opens the workload's
incident thread in its alert channel; the answer never waits for it. Announcing needs
--client-ca: only reviews the API server sent are announced.
`;

interface ServeArgs {
  port: number;
  tlsCert: string;
  tlsKey: string;
  clientCa?: string;
  clientNames: string[];
  probePort?: number;
  budgetMs: number;
  cacheSeconds: number;
  kubeconfig?: string;
  context?: string;
  lang?: Lang;
}

function integer(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${quoted(value)}`);
  return n;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'client-ca': { type: 'string' },
      'client-name': { type: 'string', multiple: true },
      'probe-port': { type: 'string' },
      'budget-ms': { type: 'string' },
      'cache-seconds': { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      lang: { type: 'string' },
    },
  });
  const lang = values.lang === undefined ? undefined : langFlag(values.lang);
  const tlsCert = values['tls-cert'];
  const tlsKey = values['tls-key'];
  if (!tlsCert || !tlsKey)
    throw new UsageError(
      '--tls-cert and --tls-key are required: the API server calls webhooks over HTTPS only',
    );
  const clientCa = values['client-ca'];
  for (const file of [tlsCert, tlsKey, ...(clientCa !== undefined ? [clientCa] : [])])
    if (!existsSync(file)) throw new UsageError(`cannot read ${quoted(file)}: no such file`);
  const clientNames = (values['client-name'] ?? []) as string[];
  if (clientNames.length > 0 && clientCa === undefined)
    throw new UsageError(
      '--client-name needs --client-ca: a name is only checked on a certificate the CA signed',
    );
  const probePort = integer(values['probe-port'], '--probe-port', 8080, 0, 65535);
  return {
    port: integer(values.port, '--port', 8443, 0, 65535),
    tlsCert,
    tlsKey,
    ...(clientCa !== undefined ? { clientCa } : {}),
    clientNames,
    ...(probePort !== 0 ? { probePort } : {}),
    // Well inside the webhook's timeoutSeconds (the chart sets 5).
    budgetMs: integer(values['budget-ms'], '--budget-ms', 2000, 50, 25_000),
    cacheSeconds: integer(values['cache-seconds'], '--cache-seconds', 10, 1, 300),
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(lang !== undefined ? { lang } : {}),
  };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const args = parseServeArgs(argv);
  const settings = announceSettings(io.env);
  if (settings && args.clientCa === undefined)
    throw new UsageError(
      "announcing warned applies needs --client-ca: without it anyone who reaches the port could open incident threads; give the CA that signs the API server's client certificate, or unset REDIS_URL and ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY",
    );
  const { createKubeClient } = await import('../../kube/client.js');
  const { serveAdmission } = await import('../../admission/serve.js');
  const logger = createLogger({ level: io.env['LOG_LEVEL'] ?? 'info', name: 'admission' });
  const kube = {
    kubeconfig: args.kubeconfig,
    ...(args.context !== undefined ? { context: args.context } : {}),
    environment: {
      KUBECONFIG: io.env['KUBECONFIG'],
      KUBERNETES_SERVICE_HOST: io.env['KUBERNETES_SERVICE_HOST'],
    },
    requestTimeoutMs: args.budgetMs,
    retry: { attempts: 1, baseMs: 50, maxMs: 50 },
  };
  // The judging thread reads the cluster with a client of its own made from these; made
  // here first so that a kubeconfig it cannot use stops the command (exit 2) before it serves.
  createKubeClient(kube);
  const announce = settings ? announcing(settings, logger) : undefined;
  let server;
  try {
    server = await serveAdmission({
      ...(announce ? { onWarned: announce.onWarned } : {}),
      kube,
      port: args.port,
      tlsCert: args.tlsCert,
      tlsKey: args.tlsKey,
      ...(args.clientCa !== undefined ? { clientCa: args.clientCa } : {}),
      clientNames: args.clientNames,
      ...(args.probePort !== undefined ? { probePort: args.probePort } : {}),
      budgetMs: args.budgetMs,
      cacheSeconds: args.cacheSeconds,
      lang: args.lang ?? firstLang(io.env['ROLLOUT_DOCTOR_LANG']),
      logger,
      processMetrics: true,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      io.stderr.write(
        `rollout-doctor serve-admission: cannot listen on port ${args.port}${args.probePort !== undefined ? ` or probe port ${args.probePort}` : ''} (${code})\n`,
      );
      return EXIT.cluster;
    }
    throw new UsageError(
      `cannot serve with ${quoted(args.tlsCert)} and ${quoted(args.tlsKey)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  logger.info(
    {
      port: server.port,
      probePort: server.probePort,
      clientAuth: args.clientCa !== undefined,
      budgetMs: args.budgetMs,
      cacheSeconds: args.cacheSeconds,
    },
    'admission webhook listening',
  );
  if (args.clientCa === undefined)
    logger.warn(
      "no --client-ca: any caller that reaches the port is answered; give the CA of the API server's client certificate so only it is",
    );
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  await announce?.close();
  return EXIT.ok;
}

interface AnnounceSettings {
  redisUrl: string;
  key: SigningKey;
  cluster: string;
}

/**
 * Whether warned applies are announced (issue 56.3): REDIS_URL and
 * ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY both, or neither; checked before anything starts.
 */
function announceSettings(env: CliIo['env']): AnnounceSettings | undefined {
  const redisUrl = (env['REDIS_URL'] ?? '').trim();
  const keyText = (env['ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY'] ?? '').trim();
  if (redisUrl === '' && keyText === '') return undefined;
  if (redisUrl === '' || keyText === '')
    throw new UsageError(
      'announcing warned applies needs both REDIS_URL and ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY (or neither)',
    );
  let key: SigningKey;
  try {
    key = parseSigningKey(keyText);
  } catch (error) {
    // The message never repeats the value.
    throw new UsageError(
      `ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY is not a valid key (${error instanceof Error ? error.message : 'unreadable'})`,
    );
  }
  const cluster = (env['ROLLOUT_DOCTOR_CLUSTER'] ?? '').trim() || 'default';
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(cluster))
    throw new UsageError('ROLLOUT_DOCTOR_CLUSTER must be a DNS-1123 label');
  return { redisUrl, key, cluster };
}

/** The announcer of each webhook's metrics over one queue (src/admission/announce.ts). */
function announcing(
  { redisUrl, key, cluster }: AnnounceSettings,
  logger: Logger,
): { onWarned: (metrics: AdmissionMetrics) => ReviewDeps['onWarned']; close: () => Promise<void> } {
  const queue = announceQueue({ redisUrl, cluster, key, logger });
  const announcers: Announcer[] = [];
  logger.info({ cluster }, 'warned applies are announced to the app');
  return {
    onWarned: (metrics) => {
      const announcer = createAnnouncer({ cluster, send: queue.send, metrics, logger });
      announcers.push(announcer);
      return announcer.onWarned;
    },
    close: async () => {
      await Promise.all(announcers.map((a) => a.idle()));
      await queue.close();
    },
  };
}
