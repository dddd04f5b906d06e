/**
 * Unauthenticated clients trying to keep Slack out of the real app process
 * (src/app/main.ts as a child with its default HTTP limits, private Redis, Slack
 * stand-in): more slow bodies than the app reads at once, from one address (as every
 * client is behind a proxy) and from many (127.x.y.z are all loopback), each one
 * reconnecting as soon as the app lets go of it; idle connections past the per-peer
 * cap; a pipelined flood; a wrong Alertmanager token and /healthz with bodies that
 * never end. Meanwhile signed commands and Approve clicks must be acknowledged within
 * Slack's 3 seconds (the client gives up then, as Slack does).
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_SLACK_BODIES } from '../../src/app/body-gate.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../src/app/connection-guard.js';
import { openSocket, readUntilClose } from '../support/raw-http.js';
import { startAppProcess, type AppProcess } from '../support/app-process.js';
import { blockActionBody, signedHeaders, slashCommandBody } from '../support/slack-sign.js';

const SECRET = 'http-starvation-secret';
/** Slack's acknowledgement window: its client gives up after this. */
const SLACK_WINDOW_MS = 3_000;

let started: AppProcess;
let url: string;

beforeAll(async () => {
  started = await startAppProcess({
    SLACK_BOT_TOKEN: 'xoxb-http-starvation',
    SLACK_SIGNING_SECRET: SECRET,
    LOG_LEVEL: 'info',
    ROLLOUT_DOCTOR_READERS: '*',
    ALERTMANAGER_TOKEN: 'the-right-token',
    ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0ALERTS',
  });
  url = started.url;
  // The first command after a start runs cold code (the listeners, the Redis scripts):
  // one before any attack, so the figures under attack are the attack's.
  expect(await signed('command')).toBe(200);
});

afterAll(async () => {
  await started?.close();
});

let sent = 0;
/** One signed slash command or Approve click, as Slack sends it; its status, 0 when not answered in Slack's window. */
async function signed(kind: 'command' | 'approve'): Promise<number> {
  sent += 1;
  const body =
    kind === 'command'
      ? slashCommandBody({ text: `svc-${sent} -n shop` })
      : blockActionBody({
          type: 'block_actions',
          user: { id: 'U0001', team_id: 'T0001' },
          api_app_id: 'A0001',
          team: { id: 'T0001', domain: 'example' },
          container: { type: 'message', message_ts: '1.2', channel_id: 'C0001' },
          channel: { id: 'C0001' },
          trigger_id: '1.1.abc',
          response_url: 'http://127.0.0.1:9/actions',
          actions: [
            { action_id: 'approve_plan', block_id: 'b0', type: 'button', value: 'x', action_ts: '1' },
          ],
        });
  // A connection per request: a kept-alive one that the app closes as idle at the
  // moment it is reused would fail for a reason this test is not about.
  const socket = await openSocket(url);
  const reply = readUntilClose(socket, SLACK_WINDOW_MS);
  const headers = Object.entries(signedHeaders(SECRET, body)).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(
    `POST /slack/events HTTP/1.1\r\nHost: x\r\n${headers.join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const res = await reply;
  return res.closed ? res.status : 0;
}

/** Six commands and two Approve clicks, one after the other; their statuses. */
async function genuineTraffic(): Promise<number[]> {
  const statuses: number[] = [];
  for (const kind of [
    'command',
    'approve',
    'command',
    'command',
    'approve',
    'command',
    'command',
    'command',
  ] as const)
    statuses.push(await signed(kind));
  return statuses;
}

/**
 * `count` connections sending a body's headers and first bytes, then nothing; each
 * reopens as soon as the app closes it. `atCap` resolves when all were opened and
 * the app answered one of them (a refusal or a cut): the gate is at a cap.
 */
function slowBodies(
  count: number,
  from: (i: number) => string | undefined,
): { atCap: Promise<void>; stop(): void } {
  let running = true;
  let opened = 0;
  let answered = 0;
  const live = new Set<Socket>();
  let signal: () => void = () => undefined;
  const atCap = new Promise<void>((resolve) => (signal = resolve));
  const open = async (i: number): Promise<void> => {
    if (!running) return;
    const socket = await openSocket(url, from(i)).catch(() => undefined);
    if (socket === undefined) return void setImmediate(() => void open(i));
    live.add(socket);
    opened += 1;
    void readUntilClose(socket, 60_000).then((res) => {
      live.delete(socket);
      if (res.status !== 0) answered += 1;
      if (opened >= count && answered > 0) signal();
      void open(i);
    });
    socket.write(
      'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ntoken=',
    );
  };
  for (let i = 0; i < count; i += 1) void open(i);
  return {
    atCap,
    stop: () => {
      running = false;
      for (const socket of live) socket.destroy();
    },
  };
}

describe('slow unauthenticated bodies against signed Slack requests', () => {
  const attackers = MAX_CONCURRENT_SLACK_BODIES + 16;

  it.each([
    ['one address (every client behind the same proxy)', (): undefined => undefined],
    ['many addresses', (i: number): string => `127.0.${1 + Math.floor(i / 200)}.${2 + (i % 200)}`],
  ])('from %s: every signed command and Approve click is acknowledged in time', async (_name, from) => {
    const attack = slowBodies(attackers, from);
    try {
      await attack.atCap;
      expect(await genuineTraffic()).toEqual(Array(8).fill(200));
    } finally {
      attack.stop();
    }
  });
});

describe('other ways to hold the port', () => {
  it('idle connections past the per-peer cap: the app closes the idlest, and a signed command still gets through', async () => {
    const extra = 20;
    const sockets: Socket[] = [];
    let closed = 0;
    try {
      for (let i = 0; i < DEFAULT_CONNECTION_LIMITS.maxConnectionsPerPeer + extra; i += 1) {
        const socket = await openSocket(url);
        sockets.push(socket);
        void readUntilClose(socket, 60_000).then(() => (closed += 1));
      }
      await expect.poll(() => closed, { timeout: 10_000 }).toBeGreaterThanOrEqual(extra);
      expect(await signed('command')).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('a pipelined flood from a client that does not read is closed, and signed commands still get through', async () => {
    const socket = await openSocket(url);
    const reply = readUntilClose(socket, 10_000);
    socket.pause();
    // It never reads, and keeps writing (as fast as the socket drains) until it is
    // closed: a paused socket with nothing left to write would not notice a reset, so
    // the close is seen whether the guard acts on the first read or on a later one.
    let over = false;
    void reply.then(() => (over = true));
    const flood = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1_000);
    const pump = (): void => {
      while (!over && socket.writable && socket.write(flood)) {
        // the write buffer has room: keep going
      }
      if (!over && socket.writable) socket.once('drain', pump);
    };
    pump();
    expect((await reply).closed).toBe(true);
    expect(await signed('command')).toBe(200);
  });

  it.each([
    ['a wrong Alertmanager token', 'POST /alerts/alertmanager', 'Authorization: Bearer wrong\r\n', 401],
    ['/healthz', 'GET /healthz', '', 200],
  ])(
    '%s with a body that never ends: answered, and the connection closed',
    async (_name, line, auth, status) => {
      const socket = await openSocket(url);
      const reply = readUntilClose(socket, 5_000);
      socket.write(
        `${line} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"a"`,
      );
      // A byte now and then keeps Node's idle timers from ending it; only the app's own
      // close after the answer does, long before the 15 s request timeout.
      const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
      const res = await reply;
      clearInterval(trickle);
      expect(res.status).toBe(status);
      expect(res.closed).toBe(true);
    },
  );
});
