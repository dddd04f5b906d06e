/**
 * Child processes for benchmarks and drills: the real entry points (`src/app/main.ts`,
 * `workers/main.ts`) run under Node, compiled or with the tsx loader, in one process
 * each, so a pid is the process itself (SIGKILL kills the worker, /proc shows its memory).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_NODE_FLAGS } from '../../src/app/node-flags.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  pid: number;
  /** stdout and stderr so far (pino JSON lines). */
  output(): string;
  /** Resident set size now and at its peak, in MB (Linux /proc). */
  memory(): { rssMb: number; peakMb: number };
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

/** Environment of a child: only what it needs plus PATH/HOME, never the caller's secrets. */
function childEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  return { ...base, NODE_ENV: 'production', ...env };
}

function readStatusMb(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] ? Math.round((Number(match[1]) / 1024) * 10) / 10 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Node flags production gives each compiled entry (the app's heap settings; the worker runs without). */
const PRODUCTION_FLAGS: Record<string, readonly string[]> = { 'src/app/main.ts': APP_NODE_FLAGS };

/**
 * Node arguments for an entry: the compiled .js under `compiled`, started with the
 * flags production uses for it (or `flags`, to compare), else the .ts through tsx
 * (development: no flags).
 */
export function entryArgs(entry: string, compiled?: string, flags?: readonly string[]): string[] {
  return compiled
    ? [...(flags ?? PRODUCTION_FLAGS[entry] ?? []), join(compiled, entry.replace(/\.ts$/, '.js'))]
    : ['--import', 'tsx', entry];
}

/**
 * The URL an app child serves at, read from its "rollout-doctor app started" line. Start
 * it with PORT=0: the port it bound is in that line. A port chosen beforehand (a free port
 * found, closed and handed over) can be taken by another process before the child listens
 * (EADDRINUSE), and the child's start now waits for Redis before it listens.
 */
export function startedAppUrl(child: Pick<Child, 'output'>): string {
  // The url field, not the whole line parsed: the ready check may have seen the line's
  // message before its last bytes arrived.
  const line = child
    .output()
    .split('\n')
    .find((l) => l.includes('"msg":"rollout-doctor app started"'));
  const url = line === undefined ? undefined : /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
  if (url === undefined) throw new Error(`no URL in the app's start line: ${line ?? '(none)'}`);
  return url;
}

/**
 * Starts `entry` (a .ts path relative to the repository root) and waits until a line
 * of its output matches `ready` (or `timeoutMs` passes, which rejects). With
 * `compiled` (bench/lib/build.ts' output directory) the compiled entry runs with
 * plain node, as in production (`nodeFlags` replaces production's node flags for it);
 * otherwise the source runs through tsx.
 */
export async function spawnEntry(
  entry: string,
  env: Record<string, string>,
  options: { ready: RegExp; timeoutMs?: number; compiled?: string; nodeFlags?: readonly string[] },
): Promise<Child> {
  const args = entryArgs(entry, options.compiled, options.nodeFlags);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${entry} not ready in ${options.timeoutMs ?? 20_000} ms:\n${out.slice(-2000)}`)),
      options.timeoutMs ?? 20_000,
    );
    let waiting = true;
    let tail = '';
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      out += text;
      // Only the new text (and a short tail for lines split across chunks) is
      // searched: re-testing the whole output on every chunk is quadratic.
      if (waiting && options.ready.test(tail + text)) {
        waiting = false;
        clearTimeout(timer);
        resolve();
      }
      tail = text.slice(-200);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${String(code)} before it was ready:\n${out.slice(-2000)}`));
    });
  });
  const pid = child.pid ?? -1;
  const handle: Child = {
    pid,
    output: () => out,
    memory: () => ({ rssMb: readStatusMb(pid, 'VmRSS'), peakMb: readStatusMb(pid, 'VmHWM') }),
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  try {
    await ready;
  } catch (error) {
    await handle.stop('SIGKILL');
    throw error;
  }
  return handle;
}
