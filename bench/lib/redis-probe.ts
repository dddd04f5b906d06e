/**
 * What one redis-server spends, read from its own INFO (for docs/operations.md "Sizing"): CPU of
 * its main thread (the one that serialises every command, so the one that saturates),
 * commands processed and the server-side time they took (INFO commandstats), memory and
 * clients; plus the round trip of a PING every 50 ms as a client sees it. CPU and
 * server-side time are the Redis process's own counters: other load on the machine
 * stretches the PING figure much more than these.
 */
import { Redis } from 'ioredis';
import { percentile } from './stats.js';

export interface RedisCounters {
  /** Main-thread CPU seconds (user + sys) since the server started. */
  cpuMainSeconds: number;
  commands: number;
  /** Server-side microseconds spent in commands (sum over INFO commandstats). */
  commandUsec: number;
  usedMemoryBytes: number;
  rssBytes: number;
  clients: number;
  at: number;
}

const field = (info: string, name: string): number =>
  Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);

/** Reads the counters now. */
export async function readCounters(redis: Redis): Promise<RedisCounters> {
  const info = await redis.info('all');
  let commandUsec = 0;
  for (const m of info.matchAll(/^cmdstat_[^:]+:calls=\d+,usec=(\d+)/gm)) commandUsec += Number(m[1]);
  return {
    cpuMainSeconds: field(info, 'used_cpu_user_main_thread') + field(info, 'used_cpu_sys_main_thread'),
    commands: field(info, 'total_commands_processed'),
    commandUsec,
    usedMemoryBytes: field(info, 'used_memory'),
    rssBytes: field(info, 'used_memory_rss'),
    clients: field(info, 'connected_clients'),
    at: Date.now(),
  };
}

export interface WindowFigures {
  seconds: number;
  /** Main-thread CPU over the window, as a share of one core (0.05 = 5 %). */
  cpuShare: number;
  cpuSeconds: number;
  commandsPerSecond: number;
  /** Server-side mean time per command, µs. */
  usecPerCommand: number;
  pingP50Ms: number;
  pingP99Ms: number;
  usedMemoryMb: number;
  rssMb: number;
  clients: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 ** 2) * 10) / 10;
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** The window's figures from counters at its start and end and the PINGs within it. */
export function windowFigures(a: RedisCounters, b: RedisCounters, pings: number[]): WindowFigures {
  const seconds = (b.at - a.at) / 1000;
  // Not counting the probe's own PINGs.
  const commands = Math.max(0, b.commands - a.commands - pings.length);
  const sorted = [...pings].sort((x, y) => x - y);
  return {
    seconds: round(seconds, 1),
    cpuShare: round((b.cpuMainSeconds - a.cpuMainSeconds) / seconds, 4),
    cpuSeconds: round(b.cpuMainSeconds - a.cpuMainSeconds, 3),
    commandsPerSecond: Math.round(commands / seconds),
    usecPerCommand: commands > 0 ? round((b.commandUsec - a.commandUsec) / commands, 2) : 0,
    pingP50Ms: round(percentile(sorted, 50), 2),
    pingP99Ms: round(percentile(sorted, 99), 2),
    usedMemoryMb: mb(b.usedMemoryBytes),
    rssMb: mb(b.rssBytes),
    clients: b.clients,
  };
}

/** Measures `work` (which runs for the window) against `url`'s server. */
export async function measureWindow(url: string, work: () => Promise<void>): Promise<WindowFigures> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const pinger = new Redis(url, { maxRetriesPerRequest: 1 });
  const pings: number[] = [];
  let pinging = true;
  const ping = (async () => {
    while (pinging) {
      const started = performance.now();
      await pinger.ping();
      pings.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    const before = await readCounters(redis);
    await work();
    const after = await readCounters(redis);
    pinging = false;
    await ping;
    return windowFigures(before, after, pings);
  } finally {
    pinging = false;
    redis.disconnect();
    pinger.disconnect();
  }
}
