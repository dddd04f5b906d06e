import { connect, type Socket } from 'node:net';
import { SIGNAL_WAIT_MS } from './timeouts.js';

export interface RawResponse {
  /** Status code of the first response line, or 0 when the server closed without one. */
  status: number;
  /** Everything the server sent. */
  text: string;
}

/**
 * Opens a TCP connection to `url`'s host and port, from `localAddress` when given: on
 * Linux every 127.x.y.z is loopback, so one test process can be many peers.
 */
export function openSocket(url: string, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) },
      () => resolve(socket),
    );
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent once it closes the connection (or `timeoutMs` passes). */
export function readUntilClose(
  socket: Socket,
  timeoutMs = SIGNAL_WAIT_MS,
): Promise<RawResponse & { closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text, closed });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done(false);
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => done(true));
  });
}

/**
 * Sends `head` (request line and headers, CRLF-separated, no blank line) and `body`
 * exactly as given, with `Connection: close`, and returns the raw answer. Paths are
 * not normalised or encoded, unlike fetch.
 */
export async function rawRequest(url: string, head: string, body = ''): Promise<RawResponse> {
  const socket = await openSocket(url);
  const reply = readUntilClose(socket);
  socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  return reply;
}
