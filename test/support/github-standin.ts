/**
 * A GitHub REST stand-in on 127.0.0.1 for pull requests: GET (list by head), POST
 * (create) and PATCH (update) under /repos/OWNER/REPO/pulls, recorded with each
 * request's Authorization header. Enough of the API's shape for src/propose/github.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredPull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
}

export interface GitHubStandIn {
  apiBase: string;
  pulls: StoredPull[];
  requests: { method: string; path: string; authorization?: string }[];
  close(): Promise<void>;
}

export async function startGitHubStandIn(owner: string, repo: string, prefix = ''): Promise<GitHubStandIn> {
  const pulls: StoredPull[] = [];
  const requests: GitHubStandIn['requests'] = [];
  const base = `${prefix}/repos/${owner}/${repo}/pulls`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const json = (p: StoredPull) => ({
        ...p,
        html_url: `https://github.example/${owner}/${repo}/pull/${p.number}`,
      });
      if (req.headers.authorization !== 'Bearer test-token') return send(401, { message: 'Bad credentials' });
      const input = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>)
        : {};
      if (req.method === 'GET' && url.pathname === base) {
        const head = url.searchParams.get('head');
        return send(200, pulls.filter((p) => p.state === 'open' && `${owner}:${p.head}` === head).map(json));
      }
      if (req.method === 'POST' && url.pathname === base) {
        const pull: StoredPull = {
          number: pulls.length + 1,
          title: input['title'] ?? '',
          body: input['body'] ?? '',
          head: input['head'] ?? '',
          base: input['base'] ?? '',
          state: 'open',
        };
        pulls.push(pull);
        return send(201, json(pull));
      }
      const number = Number(url.pathname.slice(base.length + 1));
      const pull = pulls.find((p) => p.number === number);
      if (req.method === 'PATCH' && pull) {
        pull.title = input['title'] ?? pull.title;
        pull.body = input['body'] ?? pull.body;
        return send(200, json(pull));
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}${prefix}`,
    pulls,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
