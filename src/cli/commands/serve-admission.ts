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
import { cliLang, langFlag, parseCommandArgs, wantsHelp } from '../args.js';
import { HELP_WORDS, SERVE_FLAGS, SERVE_VALUES } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import { EXIT, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { firstLang, type Lang } from '../../i18n/lang.js';
import { titleOfKind, titlesPhrase, WORKLOAD_KINDS } from '../../diagnosis/workload-ref.js';

const USAGE = `rollout-doctor serve-admission --tls-cert FILE --tls-key FILE [--port P]
                                       [--client-ca FILE [--client-name NAME]...] [--probe-port P]
                                       [--kubeconfig F] [--context C] [--budget-ms MS] [--cache-seconds S]
                                       [--lang en|ko]`;

/** The help in `lang` (cli/help-words.ts): flags, kinds and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'serveHelp', {
    usage: USAGE,
    kinds: lang === 'en' ? titlesPhrase('s', 'and') : WORKLOAD_KINDS.map(titleOfKind).join(', '),
    flags: [...SERVE_FLAGS],
    values: [...SERVE_VALUES],
  });
}

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
    throw usageError('wholeNumber', { flag: name, min, max, value });
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
  if (!tlsCert || !tlsKey) throw usageError('tlsRequired', { scheme: 'HTTPS' });
  const clientCa = values['client-ca'];
  for (const file of [tlsCert, tlsKey, ...(clientCa !== undefined ? [clientCa] : [])])
    if (!existsSync(file)) throw usageError('noSuchFile', { file });
  const clientNames = (values['client-name'] ?? []) as string[];
  if (clientNames.length > 0 && clientCa === undefined) throw usageError('clientNameNeedsCa', {});
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
    io.stdout.write(help(cliLang(argv, io.env)));
    return EXIT.ok;
  }
  const args = parseServeArgs(argv);
  const settings = announceSettings(io.env);
  if (settings && args.clientCa === undefined)
    throw usageError('announceNeedsCa', { names: ANNOUNCE_SETTINGS });
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
    throw usageError('cannotServe', {
      cert: args.tlsCert,
      key: args.tlsKey,
      problem: error instanceof Error ? error.message : String(error),
    });
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

/** The settings that turn announcing on, both or neither. */
const ANNOUNCE_SETTINGS = ['REDIS_URL', 'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY'];

interface AnnounceSettings {
  redisUrl: string;
  key: SigningKey;
  cluster: string;
}

/**
 * Whether warned applies are announced: REDIS_URL and
 * ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY both, or neither; checked before anything starts.
 */
function announceSettings(env: CliIo['env']): AnnounceSettings | undefined {
  const redisUrl = (env['REDIS_URL'] ?? '').trim();
  const keyText = (env['ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY'] ?? '').trim();
  if (redisUrl === '' && keyText === '') return undefined;
  if (redisUrl === '' || keyText === '') throw usageError('announceNeedsBoth', { names: ANNOUNCE_SETTINGS });
  let key: SigningKey;
  try {
    key = parseSigningKey(keyText);
  } catch (error) {
    // The message never repeats the value.
    throw usageError('badSigningKey', {
      name: 'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY',
      problem: error instanceof Error ? error.message : 'unreadable',
    });
  }
  const cluster = (env['ROLLOUT_DOCTOR_CLUSTER'] ?? '').trim() || 'default';
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(cluster))
    throw usageError('clusterLabel', { name: 'ROLLOUT_DOCTOR_CLUSTER', form: 'DNS-1123' });
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
