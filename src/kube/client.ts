/**
 * The Kubernetes client the collector, executor, scan and rollout watcher share:
 * kubeconfig / context / in-cluster loading, a timeout on every request, retries for
 * reads only, and errors that name the verb and resource that failed.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { z } from 'zod';
import { callDescription, describe, toApiError } from './api-errors.js';
import { READ_VERBS, methodFor, pathFor, type ApiCall } from './api-paths.js';
import { parseErrorText } from '../text/parse-error-text.js';
import { KubeApiError, KubeconfigError } from './errors.js';
import { quoted } from '../text/clean.js';
import {
  DEFAULT_RETRY,
  MAX_RETRY_AFTER_MS,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  type RetryOptions,
} from './retry-policy.js';
import { createTransport, TransportError, type RawResponse, type Transport } from './transport.js';

/** The two environment variables that choose a kubeconfig; the caller reads them (src/config/worker-environment.ts, the CLI's io.env). */
export interface KubeEnvironment {
  KUBECONFIG?: string | undefined;
  KUBERNETES_SERVICE_HOST?: string | undefined;
}

export interface KubeClientOptions {
  /** Path to a kubeconfig file; otherwise KUBECONFIG, ~/.kube/config, or the in-cluster service account. */
  kubeconfig?: string | undefined;
  /** Decides the fallbacks above when `kubeconfig` is not given; empty: only ~/.kube/config. */
  environment?: KubeEnvironment;
  /** Context name within the kubeconfig; otherwise its current-context. */
  context?: string;
  /** Deadline for each HTTP exchange (default 10 s). */
  requestTimeoutMs?: number;
  /** Retries for reads (default 4 attempts, 200 ms base, 5 s cap). */
  retry?: RetryOptions;
  /** Injected for tests: jitter source and sleep. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Record<string, unknown>;
}

export interface KubeClient {
  /** The API server URL, for messages. */
  readonly server: string;
  /** The kubeconfig context in use ("inClusterContext" in a pod). */
  readonly context: string;
  /** The context's namespace, the default when a command names none (as in kubectl). */
  readonly namespace: string | undefined;
  /**
   * One API call returning JSON. Reads are retried on 429/5xx/connection errors; a
   * write only when the server refused it with a Retry-After (see `exchange`).
   */
  call<T = unknown>(call: ApiCall): Promise<T>;
  /** One API call returning text (pod logs). Retried like reads. */
  text(call: ApiCall): Promise<string>;
  /**
   * A watch stream: calls onEvent per event until the server closes it or signal
   * aborts. Resolves with the HTTP status (0 when aborted or the connection dropped).
   */
  watch(call: ApiCall, onEvent: (event: WatchEvent) => void, signal: AbortSignal): Promise<number>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const watchEvent = z.object({
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']),
  object: z.record(z.string(), z.unknown()),
});

/**
 * Builds a client from a kubeconfig (explicit path, KUBECONFIG, ~/.kube/config) or
 * the in-cluster service account. Throws KubeconfigError when no configuration is
 * found, it cannot be read, or the context does not exist.
 *
 * @example
 * const client = createKubeClient({ context: 'prod' });
 * const dep = await client.call({ verb: 'get', resource: 'deployments', namespace: 'shop', name: 'checkout' });
 */
export function createKubeClient(options: KubeClientOptions = {}): KubeClient {
  const config = loadConfig(options);
  let transport: Transport;
  try {
    transport = createTransport(config);
  } catch (error) {
    throw new KubeconfigError(`cannot use the kubeconfig: ${parseErrorText(error)}`);
  }
  const retry = options.retry ?? DEFAULT_RETRY;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /**
   * A read is retried on every transient failure. A write is sent again only when the
   * server answered 429, or a 5xx with a Retry-After, and waited that long: as
   * client-go's `checkWait` does (k8s.io/client-go/rest/request.go). API Priority and
   * Fairness answers 429 with Retry-After before it runs the request, so nothing was
   * written; a Retry-After longer than MAX_RETRY_AFTER_MS is not waited for (the write
   * fails, retryable, and says so). Anything else (a reset, a timeout, a bare 5xx) may
   * have been applied: never resent here; the executor re-reads first.
   */
  async function exchange(call: ApiCall, accept?: string): Promise<RawResponse> {
    const read = READ_VERBS.has(call.verb);
    const attempts = Math.max(1, retry.attempts);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    for (let attempt = 0; ; attempt += 1) {
      let status: number;
      let retryAfterMs: number | undefined;
      let response: RawResponse | undefined;
      let failure: unknown;
      try {
        response = await transport.send({
          method: methodFor(call.verb),
          path: pathFor(call),
          body,
          contentType: call.contentType,
          accept,
          timeoutMs: call.timeoutMs ?? timeoutMs,
        });
        status = response.status;
        retryAfterMs = parseRetryAfter(headerText(response.headers['retry-after']));
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        status = 0;
        failure = error;
      }
      if (response && status < 400) return response;
      const again = read
        ? isRetryableStatus(status)
        : (status === 429 || status >= 500) &&
          retryAfterMs !== undefined &&
          retryAfterMs <= MAX_RETRY_AFTER_MS;
      const last = attempt + 1 >= attempts || !again;
      if (last) throw toApiError(call, response, failure, transport.server);
      await sleep(retryDelay(attempt, retry, retryAfterMs, random));
    }
  }

  return {
    server: transport.server,
    context: config.getCurrentContext(),
    namespace: namespaceOf(config),
    async call<T>(call: ApiCall): Promise<T> {
      const response = await exchange(call);
      try {
        return JSON.parse(response.body) as T;
      } catch (error) {
        throw new KubeApiError(
          `the API server sent a response that is not JSON for ${describe(call)}`,
          response.status,
          callDescription(call),
          undefined,
          { cause: error },
        );
      }
    },
    async text(call: ApiCall): Promise<string> {
      return (await exchange(call, '*/*')).body;
    },
    async watch(call, onEvent, signal) {
      const status = await transport.stream(
        pathFor({ ...call, verb: 'watch' }),
        (line) => {
          const parsed = watchEvent.safeParse(safeJson(line));
          if (parsed.success) onEvent(parsed.data);
        },
        signal,
      );
      return status;
    },
  };
}

/** The current context's namespace, as kubectl uses it when no -n is given. */
function namespaceOf(config: KubeConfig): string | undefined {
  const namespace = config.getContextObject(config.getCurrentContext())?.namespace;
  return namespace && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace) && namespace.length <= 63
    ? namespace
    : undefined;
}

/** Where kubectl looks without --kubeconfig or KUBECONFIG. */
const defaultKubeconfig = (): string => join(homedir(), '.kube', 'config');

function loadConfig(options: KubeClientOptions): KubeConfig {
  const config = new KubeConfig();
  try {
    const listed = (options.environment?.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
    if (options.kubeconfig) {
      config.loadFromFile(options.kubeconfig);
    } else if (listed.length > 0) {
      // The files the given environment's KUBECONFIG lists, merged as kubectl merges them
      // (the first file's current-context stands). client-node's loadFromDefault reads
      // process.env, which an in-process caller's environment is not.
      const [first = '', ...rest] = listed;
      config.loadFromFile(first);
      for (const file of rest) {
        const next = new KubeConfig();
        next.loadFromFile(file);
        config.mergeConfig(next, true);
      }
    } else if (existsSync(defaultKubeconfig())) {
      config.loadFromDefault();
    } else if (options.environment?.KUBERNETES_SERVICE_HOST) {
      config.loadFromCluster();
    } else {
      throw new Error('no KUBECONFIG, no ~/.kube/config, and not running inside a pod');
    }
  } catch (error) {
    // The file named: --kubeconfig, else the KUBECONFIG list, else ~/.kube/config.
    const fromEnv = options.environment?.KUBECONFIG;
    const where = options.kubeconfig
      ? `kubeconfig ${quoted(options.kubeconfig)}`
      : fromEnv
        ? `the kubeconfig KUBECONFIG names (${quoted(fromEnv)})`
        : `the default kubeconfig (${quoted(defaultKubeconfig())})`;
    // No cause: the parser's error quotes the file (token, password), and a logged or
    // printed cause chain would carry it along.
    throw new KubeconfigError(`cannot load ${where}: ${parseErrorText(error)}`);
  }
  if (options.context) {
    if (!config.getContextObject(options.context)) {
      throw new KubeconfigError(`context ${quoted(options.context)} is not in the kubeconfig`);
    }
    config.setCurrentContext(options.context);
  }
  if (!config.getCurrentCluster()) {
    throw new KubeconfigError(
      'no cluster configured: pass --kubeconfig, set KUBECONFIG, or run inside a pod',
    );
  }
  return config;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
