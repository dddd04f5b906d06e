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
import { transpiledEntry } from '../../scripts/transpiled-tree.js';

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

/** How an entry runs: which JavaScript, and with which node flags. */
export interface EntryRun {
  /** bench/lib/build.ts' output directory (tsc, the build settings); default: scripts/transpiled-tree.ts'. */
  compiled?: string | undefined;
  /** The .ts through the tsx loader instead (development, as `npm run dev` runs it): no production flags. */
  tsx?: boolean | undefined;
  /** Replaces the node flags production gives the entry (to compare). */
  flags?: readonly string[] | undefined;
}

/**
 * Node arguments for an entry: its JavaScript (the compiled tree, else the transpiled
 * one) with the flags production uses for it, or the .ts through tsx.
 */
export function entryArgs(entry: string, run: EntryRun = {}): string[] {
  if (run.tsx) return ['--import', 'tsx', entry];
  const file = run.compiled ? join(run.compiled, entry.replace(/\.ts$/, '.js')) : transpiledEntry(entry);
  return [...(run.flags ?? PRODUCTION_FLAGS[entry] ?? []), file];
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
 * of its output matches `ready` (or `timeoutMs` passes, which rejects). It runs with
 * plain node, as in production: compiled with the build settings (`compiled`, from
 * bench/lib/build.ts) or transpiled (scripts/transpiled-tree.ts, the default), with
 * production's node flags for it or `nodeFlags`; with `tsx`, the source through tsx.
 */
export async function spawnEntry(
  entry: string,
  env: Record<string, string>,
  options: {
    ready: RegExp;
    timeoutMs?: number;
    compiled?: string;
    tsx?: boolean;
    nodeFlags?: readonly string[];
  },
): Promise<Child> {
  const args = entryArgs(entry, { compiled: options.compiled, tsx: options.tsx, flags: options.nodeFlags });
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
