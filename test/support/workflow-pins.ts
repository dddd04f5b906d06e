/**
 * What the release workflow must hold (issue 54.6), as a lint over a workflow's text:
 * every `uses:` pinned to a full commit SHA with its tag in a comment (a tag can be
 * moved to other code, a SHA cannot), and every job that can publish or sign (a write
 * permission, an OIDC token, or a secret other than GITHUB_TOKEN) in a protected
 * `environment:`. Returns one line per problem; empty when none.
 */
import { parse } from 'yaml';

const PINNED = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]+@[0-9a-f]{40}$/;
const TAG_COMMENT = /^#\s*v\d+(\.\d+){0,2}\s*$/;

interface Job {
  environment?: string | { name?: string };
  permissions?: Record<string, string> | string;
  steps?: { uses?: string; env?: Record<string, string>; with?: Record<string, unknown> }[];
}

export function workflowProblems(text: string, protectedEnvironments: readonly string[]): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s*-?\s*uses:\s*(\S+)\s*(#.*)?$/.exec(line);
    if (!match) return;
    const [, target = '', comment] = match;
    if (target.startsWith('./')) return; // an action of this repository, at this commit
    if (!PINNED.test(target))
      problems.push(`line ${index + 1}: ${target} is not pinned to a full commit SHA`);
    else if (comment === undefined || !TAG_COMMENT.test(comment))
      problems.push(`line ${index + 1}: ${target} names no tag in a comment (# vX.Y.Z)`);
  });
  const workflow = parse(text) as { jobs?: Record<string, Job> };
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    const permissions = typeof job.permissions === 'object' ? Object.entries(job.permissions) : [];
    // Any write (contents: a release; packages: an image; id-token: a signature or provenance).
    const writes = permissions.some(([, level]) => level === 'write');
    const secrets = JSON.stringify(job.steps ?? [])
      .match(/secrets\.([A-Za-z0-9_]+)/g)
      ?.some((s) => s !== 'secrets.GITHUB_TOKEN');
    if (!writes && !secrets) continue;
    const environment = typeof job.environment === 'string' ? job.environment : job.environment?.name;
    if (environment === undefined || !protectedEnvironments.includes(environment))
      problems.push(`job ${name} publishes or signs outside a protected environment`);
  }
  return problems;
}
