/**
 * The app and the worker as child processes, started from their real entry files
 * (the same ones `npm start` and `npm run worker` run) with an explicit environment,
 * logs to files in the demo's temporary directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DemoError } from './demo-error.js';
import { transpiledEntry } from '../transpiled-tree.js';

export interface DemoProcess {
  name: string;
  pid: number | undefined;
  logFile: string;
  /** Rejects as soon as the process exits (a crash while the story runs). */
  exited: Promise<never>;
  /** The last lines of its log, for failure reports. */
  logTail(lines?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Variables passed through from the demo's own environment; nothing else leaks in (no real tokens). */
const PASS_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT'];

/**
 * Starts `<entry>` in `cwd` as production runs it: its JavaScript with plain node
 * (scripts/transpiled-tree.ts makes it from the sources as they are), not through
 * the tsx loader, which cost each process seconds of CPU before its first line.
 * @example startProcess({ name: 'app', entry: 'src/app/main.ts', env: {...}, cwd, logDir })
 */
export function startProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  cwd: string;
  logDir: string;
}): DemoProcess {
  const env: Record<string, string> = {};
  for (const key of PASS_THROUGH) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [transpiledEntry(options.entry)], {
    cwd: options.cwd,
    env: { ...env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: the terminal's Ctrl-C goes to the demo, which stops
    // this process with SIGTERM in its cleanup, instead of killing it mid-story.
    detached: true,
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let stopping = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) =>
      reject(new DemoError(`${options.name} could not start: ${error.message}`)),
    );
    child.once('exit', (code, signal) => {
      if (!stopping) reject(new DemoError(`${options.name} exited (${signal ?? `status ${String(code)}`})`));
    });
  });
  exited.catch(() => undefined); // observed by whoever races it; never an unhandled rejection

  return {
    name: options.name,
    pid: child.pid,
    logFile,
    exited,
    async logTail(lines = 25) {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text.trimEnd().split('\n').slice(-lines).join('\n');
    },
    async stop(graceMs = 8_000) {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await gone;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

/** Polls `url` until it answers 200, the process dies, or `timeoutMs` passes. */
export async function waitForHttp(url: string, proc: DemoProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  const poll = async (): Promise<void> => {
    while (Date.now() < deadline) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
        if (res.ok) return;
        last = `${res.status} ${await res.text()}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new DemoError(`${proc.name} not ready at ${url} after ${timeoutMs / 1000} s (last: ${last})`);
  };
  await Promise.race([poll(), proc.exited]);
}
