/**
 * A Redis Sentinel set on loopback for drills: one master, one replica
 * (`--replicaof`), three `redis-server --sentinel` on free ports, each in a temporary
 * directory. Failovers are fast (down-after-milliseconds 500, failover-timeout 2000).
 * The test kills the master (SIGKILL), asks for a failover (SENTINEL FAILOVER), and
 * brings the old master back, which the sentinels turn into a replica of the new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, startRedis, type TestRedis } from './redis.js';
import { SIGNAL_WAIT_MS } from './timeouts.js';

export const MASTER_NAME = 'rdmaster';

export interface SentinelSet {
  /** redis+sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/rdmaster */
  url: string;
  /** The data nodes, in start order (the first started as master). */
  nodes: TestRedis[];
  sentinelPorts: number[];
  /** The data node the sentinels name as master now. */
  master(): Promise<TestRedis>;
  /**
   * SIGKILLs the master; resolves once the sentinels name another one. `onKilled` runs
   * as soon as the killed process has exited (bench/failover.ts times from there).
   */
  killMaster(onKilled?: () => void): Promise<{ old: TestRedis; next: TestRedis }>;
  /** SENTINEL FAILOVER; resolves once the switch is done and the old master is a replica. */
  failover(): Promise<{ old: TestRedis; next: TestRedis }>;
  /** Starts a killed node again (it returns as it was started and the sentinels make it a replica). */
  revive(node: TestRedis): Promise<void>;
  /** Resolves once the master has every other node as an online replica (so WAIT 1 can succeed). */
  synced(): Promise<void>;
  /**
   * Cuts the master's replicas off: the master now asks a password they lack and drops
   * their links, so nothing written from here on reaches them until the master dies
   * (open connections, the sentinels' and the processes', stay authenticated). A write
   * acked now is one a SIGKILL of this master loses. Do not wait long before the kill:
   * the sentinels promote no replica whose link has been down for seconds.
   */
  cutOffReplicas(): Promise<TestRedis>;
  /**
   * SIGKILLs every sentinel: a process (re)connecting now finds no master, while the
   * data nodes keep their data. `startSentinels` brings them back as they were.
   */
  stopSentinels(): Promise<void>;
  startSentinels(): Promise<void>;
  close(): Promise<void>;
}

const probe = (port: number): Redis => {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  return client;
};

async function ask<T>(port: number, work: (client: Redis) => Promise<T>): Promise<T | undefined> {
  const client = probe(port);
  try {
    await client.connect();
    return await work(client);
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = SIGNAL_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`sentinel set: ${what} not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the master, the replica and three sentinels; resolves once the sentinels see all of it. */
export async function startSentinelSet(options: { replicas?: number } = {}): Promise<SentinelSet> {
  const nodes: TestRedis[] = [];
  const sentinels: ChildProcess[] = [];
  const sentinelPorts: number[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'rd-sentinel-'));
  const confs: string[] = [];
  /** Starts sentinel `i` from its config file (which it rewrites as it learns the set). */
  const launchSentinel = async (i: number): Promise<void> => {
    const port = sentinelPorts[i] ?? 0;
    const child = spawn('redis-server', [confs[i] ?? '', '--sentinel'], { stdio: 'ignore' });
    sentinels[i] = child;
    await until(`sentinel on ${port} answering as our process`, () =>
      ask(port, async (c) => {
        const pid = /^process_id:(\d+)/m.exec(await c.info('server'))?.[1];
        if (Number(pid) !== child.pid) throw new Error('not ours');
        return true;
      }),
    );
  };
  const stopSentinels = (): Promise<unknown> =>
    Promise.all(
      sentinels.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  const close = async (): Promise<void> => {
    await stopSentinels();
    await Promise.all(nodes.map((n) => n.close()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const master = await startRedis();
    nodes.push(master);
    for (let i = 0; i < (options.replicas ?? 1); i += 1)
      nodes.push(await startRedis({ extraArgs: ['--replicaof', '127.0.0.1', String(master.port)] }));
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'protected-mode no',
          `dir ${dir}`,
          `logfile ${join(dir, `sentinel-${port}.log`)}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${MASTER_NAME} 500`,
          `sentinel failover-timeout ${MASTER_NAME} 2000`,
          `sentinel parallel-syncs ${MASTER_NAME} 1`,
          '',
        ].join('\n'),
      );
      sentinelPorts.push(port);
      confs.push(conf);
      await launchSentinel(sentinels.length);
    }
    const replicas = nodes.length - 1;
    // Every sentinel knows the replicas and the two other sentinels (hello messages).
    for (const port of sentinelPorts)
      await until(`sentinel ${port} to see the set`, () =>
        ask(port, async (c) => {
          const seen = (await c.call('SENTINEL', 'sentinels', MASTER_NAME)) as unknown[];
          const reps = (await c.call('SENTINEL', 'replicas', MASTER_NAME)) as string[][];
          const up = reps.filter((r) => !String(r[r.indexOf('flags') + 1]).includes('down'));
          if (seen.length < 2 || up.length < replicas) throw new Error('not yet');
          return true;
        }),
      );
  } catch (error) {
    await close();
    throw error;
  }

  const masterPort = async (): Promise<number | undefined> => {
    for (const port of sentinelPorts) {
      const addr = await ask(
        port,
        (c) => c.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME) as Promise<string[] | null>,
      );
      if (addr?.[1]) return Number(addr[1]);
    }
    return undefined;
  };
  const byPort = (port: number): TestRedis => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on ${port}`);
    return node;
  };
  const master = async (): Promise<TestRedis> => byPort(await until('a master', masterPort));
  /** Waits until the sentinels name another master, and that one accepts writes. */
  const switched = async (old: TestRedis): Promise<{ old: TestRedis; next: TestRedis }> => {
    const port = await until('the switch to a new master', async () => {
      const p = await masterPort();
      return p !== undefined && p !== old.port ? p : undefined;
    });
    await until('the new master to take writes', () =>
      ask(port, async (c) => {
        if (!/^role:master/m.test(await c.info('replication'))) throw new Error('not yet');
        return true;
      }),
    );
    return { old, next: byPort(port) };
  };
  return {
    url: `redis+sentinel://${sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',')}/${MASTER_NAME}`,
    nodes,
    sentinelPorts,
    master,
    async killMaster(onKilled) {
      const old = await master();
      await old.stop('SIGKILL');
      onKilled?.();
      return switched(old);
    },
    async failover() {
      const old = await master();
      await until('SENTINEL FAILOVER accepted', () =>
        ask(sentinelPorts[0] ?? 0, async (c) => {
          await c.call('SENTINEL', 'failover', MASTER_NAME);
          return true;
        }),
      );
      const result = await switched(old);
      // The sentinels demote the old master some seconds after the switch (it keeps
      // taking writes until then, and its clients are killed then): the failover is
      // over when it reports itself a replica.
      await until(
        'the old master to become a replica',
        () =>
          ask(old.port, async (c) => {
            if (!/^role:slave/m.test(await c.info('replication'))) throw new Error('not yet');
            return true;
          }),
        SIGNAL_WAIT_MS,
      );
      return result;
    },
    revive: (node) => node.start(),
    async stopSentinels() {
      await stopSentinels();
    },
    async startSentinels() {
      for (let i = 0; i < sentinels.length; i += 1) await launchSentinel(i);
    },
    async cutOffReplicas() {
      const node = await master();
      await until('the replicas cut off', () =>
        ask(node.port, async (c) => {
          await c.config('SET', 'requirepass', `cut-off-${Date.now()}`);
          await c.call('CLIENT', 'KILL', 'TYPE', 'replica');
          return true;
        }),
      );
      return node;
    },
    async synced() {
      await until(
        'the replicas to be online',
        // The master as the sentinels name it now, on every try: a revived old master can
        // bring a second failover (seen: the new master briefly taken for down while it was
        // promoted), after which the first one asked is a replica for good.
        async () => {
          const port = await masterPort();
          if (port === undefined) return undefined;
          return ask(port, async (c) => {
            const info = await c.info('replication');
            const online = (info.match(/^slave\d+:.*state=online/gm) ?? []).length;
            if (!/^role:master/m.test(info) || online < nodes.length - 1) throw new Error('not yet');
            return true;
          });
        },
        SIGNAL_WAIT_MS,
      ).catch(async (error: unknown) => {
        // What each node and sentinel says, for a drill that failed here.
        for (const node of nodes) {
          const info = await ask(node.port, (c) => c.info('replication'));
          console.error(`sentinel set: node ${node.port}:`, info?.replace(/\r?\n/g, ' ') ?? '(no answer)');
        }
        for (const port of sentinelPorts) {
          const log = await readFile(join(dir, `sentinel-${port}.log`), 'utf8').catch(() => '');
          console.error(`sentinel set: sentinel ${port} log:\n${log.split('\n').slice(-25).join('\n')}`);
        }
        throw error;
      });
    },
    close,
  };
}
