import { Redis } from 'ioredis';
import type { RedisTarget } from './redis-url.js';

type SentinelTarget = Extract<RedisTarget, { kind: 'sentinel' }>;

/**
 * Follows `+switch-master` on the sentinels for every connection of a process, in
 * place of ioredis' own `failoverDetector`.
 *
 * Why not ioredis' detector: it disconnects its connection on `+switch-master`
 * whatever the connection is doing. When the message arrives while the connection is
 * asking the sentinels for the master again (it lost a SIGKILLed master a moment
 * before), that disconnect makes the pending connect fail with "Connection is closed"
 * and ioredis ends the connection for good (status `end`, no retry). A BullMQ worker
 * whose shared connection ended never takes a job again, and a producer never
 * answers. This watcher only moves connections that are connected, and only when
 * they are not on the new master already: a connection that is (re)connecting asks
 * the sentinels anyway. It also opens one subscriber per sentinel per process rather
 * than one per sentinel per connection.
 */
interface Watch {
  subscribers: Redis[];
  connections: Set<Redis>;
}

const watches = new Map<string, Watch>();

const keyOf = (t: SentinelTarget): string =>
  JSON.stringify([t.name, t.sentinels.map((s) => `${s.host}:${s.port}`)]);

/** `+switch-master` payload: `<master-name> <old-ip> <old-port> <new-ip> <new-port>`. */
function parseSwitch(message: string): { name: string; host: string; port: number } | undefined {
  const parts = message.trim().split(/\s+/);
  if (parts.length !== 5) return undefined;
  const [name = '', , , host = '', portText = ''] = parts;
  const port = Number(portText);
  return Number.isInteger(port) && port > 0 && port < 65536 ? { name, host, port } : undefined;
}

/** True when `connection` is connected, and to another server than `host:port`. */
function connectedElsewhere(connection: Redis, host: string, port: number): boolean {
  if (connection.status !== 'ready' && connection.status !== 'connect') return false;
  const stream = (connection as unknown as { stream?: { remoteAddress?: string; remotePort?: number } })
    .stream;
  const address = stream?.remoteAddress?.replace(/^::ffff:/, '');
  return !(stream?.remotePort === port && address === host);
}

function subscribe(target: SentinelTarget, watch: Watch): Redis[] {
  return target.sentinels.map(({ host, port }) => {
    const sub = new Redis({
      host,
      port,
      ...(target.sentinelUsername ? { username: target.sentinelUsername } : {}),
      ...(target.sentinelPassword ? { password: target.sentinelPassword } : {}),
      ...(target.sentinelTls ? { tls: {} } : {}),
      enableReadyCheck: false,
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    // A sentinel that is down is the others' to cover; the connections log their own errors.
    sub.on('error', () => undefined);
    sub.on('message', (_channel: string, message: string) => {
      const next = parseSwitch(message);
      if (next?.name !== target.name) return;
      // disconnect(true): close the socket and let ioredis ask the sentinels again.
      for (const c of watch.connections) if (connectedElsewhere(c, next.host, next.port)) c.disconnect(true);
    });
    sub.subscribe('+switch-master').catch(() => undefined);
    return sub;
  });
}

/**
 * Adds `connection` to the process' watch of `target`'s sentinels; it leaves the
 * watch when it ends (closed on purpose). The last connection out closes the
 * subscribers.
 */
export function followSwitches(target: SentinelTarget, connection: Redis): void {
  const key = keyOf(target);
  let watch = watches.get(key);
  if (!watch) {
    const created: Watch = { subscribers: [], connections: new Set() };
    created.subscribers = subscribe(target, created);
    watches.set(key, created);
    watch = created;
  }
  const current = watch;
  current.connections.add(connection);
  connection.once('end', () => {
    current.connections.delete(connection);
    if (current.connections.size > 0 || watches.get(key) !== current) return;
    watches.delete(key);
    for (const sub of current.subscribers) sub.disconnect();
  });
}
