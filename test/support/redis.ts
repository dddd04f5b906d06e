import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** A private redis-server for one test file: free port, temp dir, stoppable. */
export interface TestRedis {
  port: number;
  url: string;
  dir: string;
  /** Stops the server (SIGTERM, waits for exit). Data survives when appendonly is on. */
  stop(): Promise<void>;
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

/** Starts `redis-server` on 127.0.0.1 with no persistence unless `appendonly` is set. */
export async function startRedis(options: { appendonly?: boolean } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'rd-redis-'));
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
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
    ];
    child = spawn('redis-server', args, { stdio: 'ignore' });
    const deadline = Date.now() + 5_000;
    for (;;) {
      const probe = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined); // expected while the server starts
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    start,
    stop,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
