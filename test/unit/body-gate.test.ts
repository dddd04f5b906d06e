/**
 * The Slack body gate behind the app's HTTP server, over real sockets from several
 * loopback addresses (each 127.x.y.z is a peer of its own). Every defence has small
 * configured limits here, and the others are set wide so that only the one under test
 * can answer.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../src/app/http-server.js';
import { bodyGate, type SlackBodyGate, type SlackBodyLimits } from '../../src/app/body-gate.js';
import { discardLogger, httpServerPerTest } from '../support/http-test-server.js';
import { rawRequest, readUntilClose, type RawResponse } from '../support/raw-http.js';

const logger = discardLogger('body-gate-test');
// Node's own request timeout far away: a cut seen here is the gate's.
const servers = httpServerPerTest(logger, {
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 1_000,
});
const WIDE: SlackBodyLimits = {
  maxBytes: 64 * 1024,
  maxConcurrent: 100,
  maxPerPeer: 100,
  deadlineMs: 60_000,
  minBytesPerSecond: 1,
  rateGraceMs: 60_000,
};

/** A server whose POST /slack/events goes through a gate with `limits`; bodies read are in `seen`. */
async function start(
  limits: Partial<SlackBodyLimits>,
): Promise<{ url: string; gate: SlackBodyGate; seen: string[] }> {
  const gate = bodyGate(logger, { ...WIDE, ...limits });
  const seen: string[] = [];
  const handler = gate.handler((req, res) => {
    seen.push(String((req as typeof req & { rawBody: Buffer }).rawBody));
    res.end('ok');
  });
  const { url } = await servers.start(routeTable([], { '/slack/events': { POST: handler } }));
  return { url, gate, seen };
}

/** Sends headers and the first part of a body of `length` bytes from `from`; the answer resolves once the server closes. */
async function slowBody(
  url: string,
  from: string,
  length = 1_000,
): Promise<{ socket: Socket; reply: Promise<RawResponse & { closed: boolean }> }> {
  const socket = await servers.connect(url, from);
  const reply = readUntilClose(socket);
  socket.write(
    `POST /slack/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${length}\r\n\r\nfirst=`,
  );
  return { socket, reply };
}

const complete = (url: string, body: string): Promise<RawResponse> =>
  rawRequest(url, `POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}`, body);

describe('bodyGate', () => {
  it('hands complete bodies on, as Bolt reads them (rawBody)', async () => {
    const { url, seen, gate } = await start({});
    expect((await complete(url, 'a=1&b=2')).status).toBe(200);
    expect(seen).toEqual(['a=1&b=2']);
    expect(gate.inFlight()).toBe(0);
  });

  it('at the global cap, a new body takes the place of the oldest (408) instead of a 503, and the cap holds', async () => {
    const { url, gate, seen } = await start({ maxConcurrent: 2 });
    const first = await slowBody(url, '127.0.0.2');
    await expect.poll(() => gate.inFlight()).toBe(1);
    const second = await slowBody(url, '127.0.0.3');
    await expect.poll(() => gate.inFlight()).toBe(2);
    // A genuine body from a third peer is read although both slots were taken.
    expect(
      (await rawRequest(url, 'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 3', 'x=1')).status,
    ).toBe(200);
    expect(seen).toEqual(['x=1']);
    const cut = await first.reply;
    expect(cut.status).toBe(408);
    expect(cut.closed).toBe(true);
    // The younger slow body was left alone: it still completes.
    second.socket.write('a'.repeat(1_000 - 'first='.length));
    expect((await second.reply).status).toBe(200);
    expect(gate.inFlight()).toBe(0);
  });

  it("past a peer's own cap, its new body takes the place of its own oldest, not another peer's", async () => {
    const { url, gate } = await start({ maxPerPeer: 2 });
    const mine = await slowBody(url, '127.0.0.2');
    await expect.poll(() => gate.inFlight()).toBe(1);
    const other = await slowBody(url, '127.0.0.3');
    await expect.poll(() => gate.inFlight()).toBe(2);
    await slowBody(url, '127.0.0.2');
    await expect.poll(() => gate.inFlight()).toBe(3);
    await slowBody(url, '127.0.0.2');
    const cut = await mine.reply;
    expect(cut.status).toBe(408);
    expect(gate.inFlight()).toBe(3);
    // The other peer's body (older than two of this peer's) is still being read.
    other.socket.write('a'.repeat(1_000 - 'first='.length));
    expect((await other.reply).status).toBe(200);
  });

  it('cuts a body still arriving at the deadline (408), though it comes faster than the minimum rate', async () => {
    const { url, seen } = await start({ deadlineMs: 300, rateGraceMs: 100, minBytesPerSecond: 1_024 });
    const { socket, reply } = await slowBody(url, '127.0.0.2', 60_000);
    // About 10 KB/s, ten times the minimum rate: only the deadline can cut it, long
    // before the 6 s the whole body would take.
    const pump = setInterval(() => socket.writable && socket.write('a'.repeat(200)), 20);
    const res = await reply;
    clearInterval(pump);
    expect(res.status).toBe(408);
    expect(res.text).toContain('text/plain');
    expect(seen).toEqual([]);
  });

  it('cuts a body that stalls below the minimum rate once the grace is over, before the deadline', async () => {
    const { url, gate } = await start({ deadlineMs: 60_000, rateGraceMs: 100, minBytesPerSecond: 1_024 });
    const { reply } = await slowBody(url, '127.0.0.2');
    const res = await reply;
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
    expect(gate.inFlight()).toBe(0);
  });

  it('does not cut a body that arrived while the loop was busy past the deadline', async () => {
    const { url, seen, gate } = await start({ deadlineMs: 100, rateGraceMs: 100, minBytesPerSecond: 1_024 });
    const { socket, reply } = await slowBody(url, '127.0.0.2', 'first='.length + 4);
    await expect.poll(() => gate.inFlight()).toBe(1);
    // The rest goes out now (libuv writes a small buffer to the kernel at once) and
    // the loop is held for three deadlines in the same turn, as a long GC pause or a
    // burst of work would: the sweep then fires late, and must let the poll phase read
    // what is already in the server's socket before it decides.
    socket.write('rest');
    const until = performance.now() + 300;
    while (performance.now() < until) {
      // busy: the loop does not turn
    }
    expect((await reply).status).toBe(200);
    expect(seen).toEqual(['first=rest']);
  });

  it('refuses a declared Content-Length over the limit with 413 before reading, and cuts a body growing past it', async () => {
    const { url, gate } = await start({ maxBytes: 1_000 });
    const declared = await servers.connect(url);
    const declaredReply = readUntilClose(declared);
    declared.write('POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n');
    expect((await declaredReply).status).toBe(413);
    const chunked = await servers.connect(url);
    const chunkedReply = readUntilClose(chunked);
    chunked.write('POST /slack/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    chunked.write(`400\r\n${'a'.repeat(0x400)}\r\n`);
    expect((await chunkedReply).status).toBe(413);
    expect(gate.inFlight()).toBe(0);
  });
});
