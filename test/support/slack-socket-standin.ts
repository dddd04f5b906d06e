import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * The Slack side of Socket Mode for tests: a WebSocket server on 127.0.0.1 that the
 * Web API stand-in's `apps.connections.open` points to. It greets each connection with
 * `{"type":"hello"}` (what makes @slack/socket-mode report "connected"), sends envelopes
 * as Slack does and records the app's acknowledgements (`{envelope_id, payload?}`).
 */

/** The part of the `ws` package used here (it ships no types; it is installed by @slack/socket-mode). */
interface WsSocket {
  readonly readyState: number;
  send(data: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
  terminate(): void;
}
interface WsServer {
  address(): AddressInfo | string | null;
  on(event: 'connection', listener: (socket: WsSocket, req: IncomingMessage) => void): void;
  on(event: 'listening', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(callback?: (error?: Error) => void): void;
}
interface WsModule {
  WebSocketServer: new (options: { host: string; port: number }) => WsServer;
}
const OPEN = 1;

const ackSchema = z.object({
  envelope_id: z.string().min(1),
  payload: z.record(z.string(), z.unknown()).optional(),
});

/** One acknowledgement the app sent back over the socket. */
export interface SocketAck {
  envelopeId: string;
  payload: Record<string, unknown> | undefined;
  at: number;
}

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface SlackSocketStandin {
  /** What `apps.connections.open` answers with (ws://127.0.0.1:PORT/link/?ticket=…). */
  url: string;
  /** Every ack received, in order. */
  acks: SocketAck[];
  /** Frames that were not valid acks (non-JSON or missing envelope_id). */
  invalidFrames: string[];
  /** Number of open connections from the app. */
  openConnections(): number;
  /**
   * Sends one envelope to every open connection (Slack sends it to one; tests hold one)
   * and resolves with the ack carrying its envelope_id and the round trip in ms.
   * @throws when no connection is open or no ack comes within `timeoutMs`.
   */
  send(
    type: EnvelopeType,
    payload: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<{ envelopeId: string; ack: SocketAck; ms: number }>;
  close(): Promise<void>;
}

/** Starts the Socket Mode stand-in on 127.0.0.1 and a free port. */
export async function startSlackSocketStandin(): Promise<SlackSocketStandin> {
  // createRequire: `ws` has no type declarations, so it is typed by WsModule above.
  const { WebSocketServer } = createRequire(import.meta.url)('ws') as WsModule;
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.on('listening', resolve);
    server.on('error', reject);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('socket stand-in: no TCP address');

  const sockets = new Set<WsSocket>();
  const acks: SocketAck[] = [];
  const invalidFrames: string[] = [];
  const waiters = new Map<string, (ack: SocketAck) => void>();

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data, isBinary) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      let parsed: z.infer<typeof ackSchema> | undefined;
      try {
        const result = ackSchema.safeParse(JSON.parse(text));
        parsed = !isBinary && result.success ? result.data : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed) {
        invalidFrames.push(text);
        return;
      }
      const ack: SocketAck = { envelopeId: parsed.envelope_id, payload: parsed.payload, at: Date.now() };
      acks.push(ack);
      waiters.get(ack.envelopeId)?.(ack);
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: sockets.size,
        debug_info: { host: 'standin', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0001' },
      }),
    );
  });

  return {
    url: `ws://127.0.0.1:${address.port}/link/?ticket=${randomUUID()}&app_id=A0001`,
    acks,
    invalidFrames,
    openConnections: () => [...sockets].filter((s) => s.readyState === OPEN).length,
    async send(type, payload, timeoutMs = 3_000) {
      const open = [...sockets].filter((s) => s.readyState === OPEN);
      if (open.length === 0) throw new Error('socket stand-in: the app is not connected');
      const envelopeId = randomUUID();
      const started = performance.now();
      const acked = new Promise<SocketAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(envelopeId);
          reject(new Error(`socket stand-in: no ack for ${type} envelope within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.set(envelopeId, (ack) => {
          clearTimeout(timer);
          waiters.delete(envelopeId);
          resolve(ack);
        });
      });
      const envelope = {
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
      };
      for (const socket of open) socket.send(JSON.stringify(envelope));
      const ack = await acked;
      return { envelopeId, ack, ms: performance.now() - started };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.terminate();
        server.close(() => resolve());
      }),
  };
}
