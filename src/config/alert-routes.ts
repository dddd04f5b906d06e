/**
 * Picks the Slack channel for an alert thread: a namespace route when one matches,
 * else the configured alert channel.
 */

export type NamespaceRoutes = Readonly<Record<string, string>>;

// Channel IDs only: job schemas and chat.postMessage threading work on IDs, not names.
const CHANNEL = /^[CG][A-Z0-9]{2,}$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Parses ROLLOUT_DOCTOR_ALERT_ROUTES: comma-separated `namespace=CHANNEL` entries
 * (a channel ID such as `C0123ABC`). Throws an Error naming the bad entry.
 *
 * @example parseNamespaceRoutes('payments=C0PAY,search=C0SEARCH')
 */
export function parseNamespaceRoutes(text: string): NamespaceRoutes {
  const routes: Record<string, string> = {};
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [namespace = '', channel = '', ...rest] = entry.split('=').map((s) => s.trim());
    if (!NAMESPACE.test(namespace) || !CHANNEL.test(channel) || rest.length > 0) {
      throw new Error(`bad entry "${entry}": expected namespace=CHANNEL (a channel ID such as C0123ABC)`);
    }
    routes[namespace] = channel;
  }
  return Object.freeze(routes);
}

/** Returns a function choosing the channel for a namespace. */
export function createChannelRouter(
  defaultChannel: string,
  routes: NamespaceRoutes = {},
): (namespace: string) => string {
  return (namespace) =>
    Object.hasOwn(routes, namespace) ? (routes[namespace] ?? defaultChannel) : defaultChannel;
}
