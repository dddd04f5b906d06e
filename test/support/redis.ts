import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/** A private redis-server for one test file: free port, temp dir, stoppable. */
export interface TestRedis {
  port: number;
  url: string;
  dir: string;
  /**
   * Stops the server (SIGTERM, waits for exit). Data survives when appendonly is on.
   * SIGKILL: a crash, nothing flushed, replicas and sentinels not told.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it and removes the directory. */
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface StartRedisOptions {
  appendonly?: boolean;
  /** Where candidate ports come from (tests of this helper hand out a taken one). */
  pickPort?: () => Promise<number>;
  /**
   * A process group of its own (`npm run demo`): the terminal's Ctrl-C then reaches
   * only the caller, which stops the server after the processes using it.
   */
  ownProcessGroup?: boolean;
  /** More redis-server arguments (`--replicaof 127.0.0.1 PORT` for a replica: test/support/redis-sentinel.ts). */
  extraArgs?: string[];
}

/** How many fresh ports to try when the one picked was taken before redis-server bound it. */
const BIND_ATTEMPTS = 5;

/**
 * Starts `redis-server` on 127.0.0.1 with no persistence unless `appendonly` is set.
 *
 * A free port is only free until someone binds it: between `freePort()` closing its
 * probe socket and redis-server binding, another test file's server can take it. So
 * the server only counts as started when the one answering PING reports our child's
 * process id (INFO server), and a child that could not bind is retried on a fresh port.
 * Without that check two files could silently share one Redis.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  const pickPort = options.pickPort ?? freePort;
  const dir = await mkdtemp(join(tmpdir(), 'rd-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;

  /** Spawns redis-server on `port`; resolves once it answers as our process, else says why not. */
  const launch = async (): Promise<'ok' | 'not-ours'> => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      options.appendonly ? 'yes' : 'no',
      '--protected-mode',
      'no',
      ...(options.extraArgs ?? []),
    ];
    const spawned = spawn('redis-server', args, {
      stdio: 'ignore',
      detached: options.ownProcessGroup ?? false,
    });
    child = spawned;
    const deadline = Date.now() + SIGNAL_WAIT_MS;
    for (;;) {
      if (spawned.exitCode !== null || spawned.signalCode !== null) {
        child = undefined;
        return 'not-ours'; // could not bind: the port was taken
      }
      const probe = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined); // expected while the server starts
      let pid: number | undefined;
      try {
        await probe.connect();
        const reported = /^process_id:(\d+)/m.exec(await probe.info('server'))?.[1];
        pid = reported === undefined ? -1 : Number(reported);
      } catch {
        pid = undefined;
      } finally {
        probe.disconnect();
      }
      if (pid === spawned.pid) return 'ok';
      if (pid !== undefined) {
        // Someone else's server holds the port; ours cannot bind and is useless.
        await stopChild();
        return 'not-ours';
      }
      if (Date.now() > deadline) {
        await stopChild();
        throw new Error(`redis-server did not start on ${port}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stopChild = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill(signal);
    });
  };
  /** Restarts on the same port and directory, as the drills need; no second port to fall back to. */
  const start = async (): Promise<void> => {
    if ((await launch()) !== 'ok') throw new Error(`redis-server could not take back port ${port}`);
  };

  for (let attempt = 1; ; attempt++) {
    port = await pickPort();
    if ((await launch()) === 'ok') break;
    if (attempt >= BIND_ATTEMPTS) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server could not bind a free port in ${BIND_ATTEMPTS} attempts`);
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    start,
    stop: (signal) => stopChild(signal),
    async close() {
      await stopChild();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
