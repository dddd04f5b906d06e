/**
 * Where a webhook is called (k8s.io/apiserver/pkg/util/webhook/client.go HookClient and
 * the API server's service resolver), on loopback only: the simulator never dials off
 * the machine.
 * - clientConfig.url: its host resolves to 127.0.0.1 (an IPv6 literal to ::1), port as
 *   written or 443; the serving certificate is checked against the URL's host.
 * - clientConfig.service: the Service must exist (`service "x" not found`), not be
 *   headless, and have the port (default 443; `no service port 443 found for service
 *   "x"`). There is no pod network, so the webhook process listens on 127.0.0.1 in place
 *   of the pods: the port's targetPort (a number, or a name looked up among the container
 *   ports of the pods the Service selects; none: `no endpoints available for service
 *   "x"`), else the port itself. The certificate is checked against
 *   `<name>.<namespace>.svc`, as the API server checks it.
 */
import type { SimObject, Store } from '../store.js';
import { matchesLabels, requirementsOf } from '../selectors.js';
import type { ValidatingWebhook } from './config.js';

export interface Endpoint {
  /** The URL as the API server names it in errors (`Post "…"`), without the timeout. */
  url: string;
  /** The name the serving certificate must carry. */
  serverName: string;
  connectHost: string;
  connectPort: number;
  path: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function loopbackFor(host: string): string {
  return host.startsWith('[') || host.includes(':') ? '::1' : '127.0.0.1';
}

function fromUrl(raw: string): Endpoint {
  const u = new URL(raw);
  const port = u.port === '' ? 443 : Number(u.port);
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  return {
    url: `${u.protocol}//${u.host}${u.pathname}`,
    serverName: hostname,
    connectHost: loopbackFor(u.hostname),
    connectPort: port,
    path: u.pathname,
  };
}

function namedPort(store: Store, service: SimObject, name: string): number | undefined {
  const spec = isObj(service['spec']) ? service['spec'] : {};
  const selector = isObj(spec['selector']) ? (spec['selector'] as Record<string, string>) : undefined;
  if (!selector || Object.keys(selector).length === 0) return undefined;
  const reqs = requirementsOf({ matchLabels: selector });
  for (const pod of store.list('Pod', service.metadata.namespace)) {
    if (pod.metadata.deletionTimestamp || !matchesLabels(reqs, pod.metadata.labels)) continue;
    const containers =
      isObj(pod['spec']) && Array.isArray(pod['spec']['containers']) ? pod['spec']['containers'] : [];
    for (const c of containers.filter(isObj)) {
      const ports = Array.isArray(c['ports']) ? c['ports'].filter(isObj) : [];
      const found = ports.find((p) => p['name'] === name && typeof p['containerPort'] === 'number');
      if (found) return found['containerPort'] as number;
    }
  }
  return undefined;
}

/**
 * The endpoint of `hook`. `failure` is the resolver's error (the request then fails as
 * a dial would, naming the service's URL); no endpoint at all only for a configuration
 * with neither url nor service, which validation keeps out.
 */
export function resolveEndpoint(
  store: Store,
  hook: ValidatingWebhook,
): { endpoint?: Endpoint; failure?: string } {
  const cc = hook.clientConfig;
  if (cc.url !== undefined) return { endpoint: fromUrl(cc.url) };
  const ref = cc.service;
  if (!ref) return { failure: 'webhook configuration must have either service or URL' };
  const port = ref.port ?? 443;
  const serverName = `${ref.name}.${ref.namespace}.svc`;
  const path = ref.path ?? '';
  const endpoint: Endpoint = {
    url: `https://${serverName}:${port}${path}`,
    serverName,
    connectHost: '127.0.0.1',
    connectPort: port,
    path: path === '' ? '/' : path,
  };
  const service = store.get('Service', ref.namespace, ref.name);
  if (!service) return { endpoint, failure: `service "${ref.name}" not found` };
  const spec = isObj(service['spec']) ? service['spec'] : {};
  if (spec['clusterIP'] === 'None')
    return { endpoint, failure: 'cannot route to service with ClusterIP "None"' };
  const ports = Array.isArray(spec['ports']) ? spec['ports'].filter(isObj) : [];
  const sp = ports.find((p) => p['port'] === port);
  if (!sp) return { endpoint, failure: `no service port ${port} found for service "${ref.name}"` };
  const target = sp['targetPort'];
  const targetPort =
    typeof target === 'number'
      ? target
      : typeof target === 'string' && target !== ''
        ? namedPort(store, service, target)
        : port;
  if (targetPort === undefined)
    return { endpoint, failure: `no endpoints available for service "${ref.name}"` };
  return { endpoint: { ...endpoint, connectPort: targetPort } };
}
