import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';

/**
 * Bounds on what clients that have not proved anything yet can hold on the port. A
 * cap alone would hand the port to whoever fills it first, so at a cap the newcomer
 * takes the place of the connection that has been idle longest (no answer of ours
 * pending: slow headers, a kept-alive socket between requests, an answered request
 * whose client stopped reading): a genuine client sends its request at once and is
 * never the one idle longest. Only when every connection has an answer in progress is
 * the newcomer turned away.
 */
export interface ConnectionLimits {
  /** Open connections in all (file descriptors, parser and header buffers, up to 16 KB each). */
  maxConnections: number;
  /**
   * Open connections from one peer (an IPv4 address, an IPv6 /64). Behind a proxy
   * every client is the proxy, so this only decides whose idle socket goes first.
   */
  maxConnectionsPerPeer: number;
  /**
   * Requests one connection may have unanswered or unread (HTTP/1.1 pipelining).
   * Node parses every request of a read at once and pauses the socket only after it
   * (nodejs/node lib/_http_server.js, parserOnIncoming), so 3,000 pipelined GETs are
   * 3,000 request objects held while the client does not read; no real client pipelines.
   */
  maxRequestsPerConnection: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 1024,
  maxConnectionsPerPeer: 256,
  maxRequestsPerConnection: 8,
};

/**
 * The key per-peer limits count under: an IPv4 address, or the /64 of an IPv6 one
 * (one host usually holds a whole /64, so per-address counting would not bound it);
 * an IPv4-mapped address counts as its IPv4. Never X-Forwarded-For: any client can
 * write that header, and no proxy is trusted to have set it.
 */
export function peerKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const plain = address.split('%')[0] ?? address;
  if (!plain.includes(':')) return plain;
  if (plain.includes('.')) return plain.slice(plain.lastIndexOf(':') + 1);
  const [head = '', tail] = plain.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * One warning line per reason and minute, with the count of the others: refusals are
 * what an attacker makes happen, so logging each one would hand them the log (disk,
 * CPU, the pipeline's budget).
 */
export function refusalLog(
  logger: Logger,
  windowMs = 60_000,
): (reason: string, fields: Record<string, unknown>, message: string) => void {
  const windows = new Map<string, { suppressed: number; timer: NodeJS.Timeout | undefined }>();
  return (reason, fields, message) => {
    const open = windows.get(reason);
    if (open !== undefined) {
      open.suppressed += 1;
      return;
    }
    logger.warn({ ...fields, reason }, message);
    const window: { suppressed: number; timer: NodeJS.Timeout | undefined } = {
      suppressed: 0,
      timer: undefined,
    };
    windows.set(reason, window);
    window.timer = setTimeout(() => {
      windows.delete(reason);
      if (window.suppressed > 0) {
        logger.warn({ reason, count: window.suppressed, windowMs }, `${message} (more in the last minute)`);
      }
    }, windowMs);
    window.timer.unref();
  };
}

interface Tracked {
  socket: Socket;
  peer: string;
  /** When the socket last had no answer of ours in progress (connect time at first). */
  idleSince: number;
  /** Responses not yet closed: unanswered, or answered and not yet read by the client. */
  open: Set<ServerResponse>;
  /**
   * Requests parsed from the connection in this turn of the event loop: Node emits
   * every request of one read at once, so more than the cap here is pipelining, however
   * fast the answers leave (on loopback the kernel may take them all before anything
   * backs up, so `open` alone would not see it).
   */
  burst: number;
  /**
   * Requests, over the connection's life, that shared a read with another one. Under
   * load the kernel may cut a flood into many small reads of a few requests each, none
   * over the cap; a client that waits for each answer never sends two in one read.
   */
  pipelined: number;
}

interface ConnectionGuard {
  /** Call first for every request; false when the request's connection was closed. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /** Open connections now (for tests). */
  connections(): number;
}

/** An answer of ours is still being made on it (ended answers waiting for the client do not count). */
const busy = (t: Tracked): boolean => {
  for (const res of t.open) if (!res.writableEnded) return true;
  return false;
};

/** The connection idle longest among `candidates`, `except` aside. */
function longestIdle(candidates: Iterable<Tracked>, except: Tracked): Tracked | undefined {
  let victim: Tracked | undefined;
  for (const t of candidates) {
    if (t === except || busy(t)) continue;
    if (victim === undefined || t.idleSince < victim.idleSince) victim = t;
  }
  return victim;
}

/**
 * The rest of a body is not read once the request is answered (a refusal, a 401 for a
 * wrong token, /healthz sent a body that never ends): the connection is half-closed
 * (the client sees the answer and the end) and destroyed shortly after, instead of
 * Node's default of reading the rest to discard it (nodejs/node lib/_http_server.js,
 * resOnFinish calls req._dump()) for as long as the client keeps sending.
 */
function closeUnread(req: IncomingMessage): void {
  if (req.socket.destroyed) return;
  req.pause();
  req.socket.end();
  setTimeout(() => req.socket.destroy(), 1_000).unref();
}

/**
 * Applies `limits` to `server`'s connections (see ConnectionLimits); a request answered
 * before its body arrived closes its connection (closeUnread).
 */
export function guardConnections(server: Server, logger: Logger, limits: ConnectionLimits): ConnectionGuard {
  const all = new Map<Socket, Tracked>();
  const byPeer = new Map<string, Set<Tracked>>();
  const refused = refusalLog(logger);
  // At once, not on 'close' (a turn later): a burst of newcomers must not count or
  // choose a connection already closed.
  const untrack = (t: Tracked): void => {
    all.delete(t.socket);
    const peers = byPeer.get(t.peer);
    peers?.delete(t);
    if (peers?.size === 0) byPeer.delete(t.peer);
  };

  const makeRoom = (newcomer: Tracked, among: Iterable<Tracked>, reason: string): boolean => {
    const victim = longestIdle(among, newcomer);
    refused(
      reason,
      { peer: newcomer.peer, closed: victim === undefined ? 'newcomer' : 'idle' },
      'connection limit reached',
    );
    const closing = victim ?? newcomer;
    untrack(closing);
    closing.socket.destroy();
    return victim !== undefined;
  };

  server.on('connection', (socket: Socket) => {
    const tracked: Tracked = {
      socket,
      peer: peerKey(socket.remoteAddress),
      idleSince: performance.now(),
      open: new Set(),
      burst: 0,
      pipelined: 0,
    };
    const peers = byPeer.get(tracked.peer) ?? new Set<Tracked>();
    byPeer.set(tracked.peer, peers);
    all.set(socket, tracked);
    peers.add(tracked);
    socket.once('close', () => untrack(tracked));
    if (peers.size > limits.maxConnectionsPerPeer && !makeRoom(tracked, peers, 'peer-connections')) return;
    if (all.size > limits.maxConnections) makeRoom(tracked, all.values(), 'connections');
  });

  return {
    connections: () => all.size,
    admit: (req, res) => {
      const tracked = all.get(req.socket);
      // Node keeps parsing the rest of a read after its socket is destroyed: those
      // requests are dropped here, before any handler runs.
      if (tracked === undefined || req.socket.destroyed) return false;
      tracked.open.add(res);
      res.once('close', () => {
        tracked.open.delete(res);
        if (!busy(tracked)) tracked.idleSince = performance.now();
        if (!req.complete) closeUnread(req);
      });
      tracked.burst += 1;
      if (tracked.burst === 1) setImmediate(() => (tracked.burst = 0));
      if (tracked.burst > 1) tracked.pipelined += tracked.burst === 2 ? 2 : 1;
      if (
        tracked.open.size > limits.maxRequestsPerConnection ||
        tracked.burst > limits.maxRequestsPerConnection ||
        tracked.pipelined > limits.maxRequestsPerConnection
      ) {
        refused('pipelining', { peer: tracked.peer }, 'connection limit reached');
        req.socket.destroy();
        return false;
      }
      return true;
    },
  };
}
