/**
 * A real git server on 127.0.0.1: git's own `git http-backend` (smart HTTP, clone and
 * push) behind a small Node http server, over bare repositories built in a test's temp
 * dir. It records each request's method, path and Authorization header, so a test can
 * see the token travel in a header and never in the URL. No network beyond loopback.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface GitServer {
  /** http://127.0.0.1:PORT/<owner>/<repo>.git */
  url(owner: string, repo: string): string;
  requests: { method: string; path: string; authorization?: string }[];
  close(): Promise<void>;
}

const ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

export function gitSync(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, env: { ...ENV, HOME: cwd }, encoding: 'utf8', timeout: 30_000 });
}

/**
 * A bare repository `<root>/<owner>/<repo>.git` holding `files` (the folder copied) as
 * one commit on `main`; symlinks are committed as symlinks.
 */
export function bareRepo(root: string, owner: string, repo: string, files: string): string {
  const work = join(root, 'work', owner, repo);
  mkdirSync(work, { recursive: true });
  cpSync(files, work, { recursive: true, verbatimSymlinks: true });
  gitSync(['init', '--quiet', '--initial-branch', 'main'], work);
  gitSync(['add', '--all'], work);
  gitSync(['commit', '--quiet', '-m', 'initial'], work);
  const bare = join(root, 'git', owner, `${repo}.git`);
  mkdirSync(join(root, 'git', owner), { recursive: true });
  gitSync(['clone', '--quiet', '--bare', work, bare], root);
  gitSync(['config', 'http.receivepack', 'true'], bare);
  return bare;
}

/** Serves `<root>/git` with git http-backend. */
export async function startGitServer(root: string): Promise<GitServer> {
  const requests: GitServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...ENV,
        HOME: root,
        GIT_PROJECT_ROOT: join(root, 'git'),
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'test',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split).toString('latin1');
      let status = 200;
      for (const line of head.split('\r\n')) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (!name) continue;
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.end(all.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (owner, repo) => `http://127.0.0.1:${port}/${owner}/${repo}.git`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
