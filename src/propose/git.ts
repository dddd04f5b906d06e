/**
 * git, spawned as a program with an argument array (never a shell), a timeout, no
 * prompt and no user or system configuration (HOME is the private temp dir). A token
 * travels as an http.extraHeader in the environment (GIT_CONFIG_COUNT/KEY/VALUE), never
 * on the command line (where `ps` shows it) nor in a message: errors carry git's stderr
 * with the token masked.
 */
import { spawn } from 'node:child_process';

export interface GitOptions {
  /** The private temp dir: HOME, and where the checkout lives. */
  home: string;
  /** Sent as `Authorization: Bearer …` to the remote (http and https only). */
  token?: string;
  timeoutMs?: number;
  /** Extra environment (tests: none needed). */
  env?: Record<string, string>;
}

class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

/** The environment git runs with: nothing of the caller's but PATH. */
function gitEnv(options: GitOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: options.home,
    XDG_CONFIG_HOME: options.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_AUTHOR_NAME: 'rollout-doctor',
    GIT_AUTHOR_EMAIL: 'rollout-doctor@users.noreply.github.com',
    GIT_COMMITTER_NAME: 'rollout-doctor',
    GIT_COMMITTER_EMAIL: 'rollout-doctor@users.noreply.github.com',
    // Only these transports: no ext::, no file:// tricks from a submodule.
    GIT_ALLOW_PROTOCOL: 'http:https',
    LC_ALL: 'C',
    ...options.env,
  };
  if (options.token) {
    env['GIT_CONFIG_COUNT'] = '1';
    env['GIT_CONFIG_KEY_0'] = 'http.extraHeader';
    env['GIT_CONFIG_VALUE_0'] = `Authorization: Bearer ${options.token}`;
  }
  return env;
}

const mask = (text: string, token: string | undefined): string =>
  token ? text.split(token).join('***') : text;

/** Runs git; resolves with stdout, rejects with a GitError naming the command (never the token). */
export function git(args: readonly string[], cwd: string, options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd,
      env: gitEnv(options),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new GitError(`git ${args[0] ?? ''}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const why = signal ? `stopped (${signal}; timed out?)` : `exit ${String(code)}`;
      const stderr = mask(Buffer.concat(err).toString('utf8').trim(), options.token).split('\n').slice(-3);
      reject(new GitError(`git ${args[0] ?? ''} failed (${why}): ${stderr.join(' | ')}`));
    });
  });
}
