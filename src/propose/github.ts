/**
 * Pull requests through GitHub's REST API (github.com, or GitHub Enterprise at its own
 * API base, `https://HOST/api/v3`): one per branch. An open pull request whose head is
 * the branch is updated (title and body); otherwise one is created. The token goes in
 * the Authorization header and nowhere else; errors name the status, never the token.
 */

interface GitHubOptions {
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise. */
  apiBase: string;
  token: string;
  owner: string;
  repo: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface PullRequest {
  number: number;
  url: string;
  /** created, or updated (the same branch's open pull request). */
  action: 'created' | 'updated';
}

class GitHubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitHubError';
  }
}

/** owner and repo from a clone URL (https://host/owner/repo.git). */
export function ownerRepoOf(url: URL): { owner: string; repo: string } | undefined {
  const parts = url.pathname
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean);
  const [owner, repo] = parts.slice(-2);
  return owner && repo ? { owner, repo } : undefined;
}

async function call(options: GitHubOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = `${options.apiBase.replace(/\/+$/, '')}/repos/${encodeURIComponent(options.owner)}/${encodeURIComponent(options.repo)}${path}`;
  const response = await (options.fetch ?? fetch)(url, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${options.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'rollout-doctor',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  if (!response.ok) {
    const message = (() => {
      try {
        return String((JSON.parse(text) as { message?: unknown }).message ?? '');
      } catch {
        return '';
      }
    })();
    throw new GitHubError(
      `GitHub ${method} ${path.split('?')[0] ?? ''}: ${response.status}${message ? ` ${message.slice(0, 200)}` : ''}`,
    );
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}

interface PullJson {
  number: number;
  html_url: string;
}

/** Creates the pull request from `branch` into `base`, or updates the open one from `branch`. */
export async function upsertPullRequest(
  options: GitHubOptions,
  pull: { branch: string; base: string; title: string; body: string },
): Promise<PullRequest> {
  const head = `${options.owner}:${pull.branch}`;
  const open = (await call(
    options,
    'GET',
    `/pulls?state=open&head=${encodeURIComponent(head)}&per_page=10`,
  )) as PullJson[];
  const existing = Array.isArray(open) ? open[0] : undefined;
  if (existing) {
    const updated = (await call(options, 'PATCH', `/pulls/${existing.number}`, {
      title: pull.title,
      body: pull.body,
    })) as PullJson;
    return { number: updated.number, url: updated.html_url, action: 'updated' };
  }
  const created = (await call(options, 'POST', '/pulls', {
    title: pull.title,
    body: pull.body,
    head: pull.branch,
    base: pull.base,
    maintainer_can_modify: true,
  })) as PullJson;
  return { number: created.number, url: created.html_url, action: 'created' };
}
