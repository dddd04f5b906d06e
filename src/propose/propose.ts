/**
 * `propose`'s flow, once the plan is proved: the change to commit taken from the plan
 * (src/remediation/commit-change.ts), a shallow clone in a private temp dir, the workload's file found
 * and edited in place, the result checked with `check`'s engine (refused when it says
 * the rollout can never finish), then (unless a dry run) a branch pushed and a pull
 * request opened or updated. The temp dir is removed whatever happens.
 */
import { writeFile } from 'node:fs/promises';
import type { Lang } from '../i18n/lang.js';
import type { ManifestChange } from '../remediation/manifest-change.js';
import type { RemediationPlan } from '../remediation/plan.js';
import {
  checkRepoUrl,
  insideCheckout,
  NotInRepository,
  privateDir,
  RefusedInput,
  shallowClone,
} from './checkout.js';
import { commitChangeOf } from '../remediation/commit-change.js';
import { git, type GitOptions } from './git.js';
import { ownerRepoOf, upsertPullRequest, type PullRequest } from './github.js';
import { place } from './locate.js';
import { toolsFrom, type Tools } from './tool.js';
import { pullBody, pullTitle, type PullText } from './pull-body.js';
import type { PullRecord } from './pull-record.js';
import type { CheckWord } from './words.js';

export interface CheckOutcome {
  verdict: CheckWord;
  /** With no rollout started now: what check says of the next one (any change to the pod template). */
  next?: Exclude<CheckWord, 'no-rollout'>;
  reason?: string;
}

export interface ProposeInput {
  plan: RemediationPlan;
  finding: { code: string; summary: string };
  /** The report's "Change to commit", printed when the file cannot be found or edited. */
  manual: readonly ManifestChange[];
  repo: string;
  path: string;
  /** The branch to propose into (default: the repository's default branch). */
  base?: string;
  dryRun: boolean;
  /** Names the branch (the command line's --incident), and is said in the body. */
  incident?: string;
  approvedBy?: string;
  thread?: string;
  /**
   * What the body says of a chat press (./pull-record.ts): the incident, the approvers by
   * name and id, the thread's link. The branch stays per workload and remediation.
   */
  record?: PullRecord;
  lang: Lang;
  token?: string;
  github: { apiBase: string; owner?: string; repo?: string; fetch?: typeof fetch };
  /** check's engine on the rendered text, against the cluster or the dump (`against` says which). */
  check: (text: string, file: string) => Promise<CheckOutcome>;
  against: string;
  timeoutMs?: number;
  /** kubectl (kustomize) and helm; default: $ROLLOUT_DOCTOR_KUBECTL / $ROLLOUT_DOCTOR_HELM, else PATH. */
  tools?: Tools;
  /** A chart's release name (default: the workload's name) and values file (default: the chart's values.yaml). */
  helm?: { release?: string; values?: string };
}

export type ProposeResult =
  | { status: 'by-hand'; why: string; manual: readonly ManifestChange[] }
  | { status: 'refused'; why: string; diff?: string; check?: CheckOutcome }
  | { status: 'unchanged'; file: string }
  | {
      status: 'dry-run';
      file: string;
      diff: string;
      check: CheckOutcome;
      branch: string;
      title: string;
      body: string;
    }
  | { status: 'pushed'; file: string; diff: string; check: CheckOutcome; branch: string; pull: PullRequest };

/** The branch of a proposal: the same for the same incident, workload and remediation. */
export function proposalBranch(plan: RemediationPlan, incident: string | undefined): string {
  const part = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .replace(/\.{2,}/g, '.')
      .slice(0, 60) || 'x';
  const { target } = plan;
  const who = `${part(target.namespace)}-${part(target.kind)}-${part(target.name)}`;
  return `rollout-doctor/${incident ? `${part(incident)}/` : ''}${who}/${part(plan.kind)}`;
}

export async function propose(input: ProposeInput): Promise<ProposeResult> {
  const change = commitChangeOf(input.plan);
  if (!change.ok) return { status: 'by-hand', why: change.why, manual: input.manual };
  const url = checkRepoUrl(input.repo);
  const temp = await privateDir();
  const options: GitOptions = {
    home: temp.dir,
    ...(input.token ? { token: input.token } : {}),
    ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
  };
  try {
    const root = await shallowClone(url.href, input.base, options);
    const full = await insideCheckout(root, input.path);
    const placement = await place(root, full, input.plan.target, change.merge, {
      tools: input.tools ?? toolsFrom({}),
      home: temp.dir,
      ...(input.helm ? { helm: input.helm } : {}),
    });
    if (!placement.ok) return { status: 'by-hand', why: placement.why, manual: input.manual };
    const { edits, render } = placement.placed;
    const [first] = edits;
    if (!first || edits.every((e) => e.after === e.before))
      return { status: 'unchanged', file: first?.file ?? input.path };
    const files = edits.map((e) => e.file);
    for (const edit of edits) await writeFile(edit.full, edit.after, 'utf8');
    const created = edits.filter((e) => e.created).map((e) => e.file);
    if (created.length > 0) await git(['add', '--intent-to-add', '--', ...created], root, options);
    const diff = await git(['diff', '--no-color', '--no-ext-diff', '--', ...files], root, options);
    const rendered = await render();
    const check = await input.check(rendered.text, rendered.label);
    if (check.verdict === 'never-finishes' || check.next === 'never-finishes')
      return { status: 'refused', why: 'check: can never finish', diff, check };
    const branch = proposalBranch(input.plan, input.incident);
    const text = pullText(input, { files, rendered: rendered.label }, change.fields, diff, check);
    const title = pullTitle(input.lang, text);
    const body = pullBody(input.lang, text);
    const file = rendered.label;
    if (input.dryRun) return { status: 'dry-run', file, diff, check, branch, title, body };
    const pull = await push(input, root, options, { url, branch, files, title, body });
    return { status: 'pushed', file, diff, check, branch, pull };
  } catch (error) {
    if (error instanceof RefusedInput) return { status: 'refused', why: error.message };
    if (error instanceof NotInRepository)
      return { status: 'by-hand', why: error.message, manual: input.manual };
    throw error;
  } finally {
    await temp.dispose();
  }
}

function pullText(
  input: ProposeInput,
  edit: { files: string[]; rendered: string },
  fields: readonly string[],
  diff: string,
  check: CheckOutcome,
): PullText {
  return {
    plan: input.plan,
    finding: input.finding,
    file: edit.files.join(', '),
    fields,
    diff,
    check,
    rendered: edit.rendered,
    against: input.against,
    ...(input.incident ? { incident: input.incident } : {}),
    ...(input.approvedBy ? { approvedBy: input.approvedBy } : {}),
    ...(input.thread ? { thread: input.thread } : {}),
    ...input.record,
  };
}

/** Commits on the proposal branch and force-pushes it (the branch is ours), then the pull request. */
async function push(
  input: ProposeInput,
  root: string,
  options: GitOptions,
  what: { url: URL; branch: string; files: string[]; title: string; body: string },
): Promise<PullRequest> {
  const named = ownerRepoOf(what.url);
  const owner = input.github.owner ?? named?.owner;
  const repo = input.github.repo ?? named?.repo;
  if (!owner || !repo)
    throw new RefusedInput(`cannot tell the GitHub owner and repository from ${what.url.href}`);
  if (!input.token) throw new RefusedInput('no token: set ROLLOUT_DOCTOR_GIT_TOKEN or --token-file');
  const base = input.base ?? (await git(['rev-parse', '--abbrev-ref', 'HEAD'], root, options)).trim();
  await git(['checkout', '--quiet', '-B', what.branch], root, options);
  await git(['add', '--', ...what.files], root, options);
  await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', what.title], root, options);
  await git(['push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${what.branch}`], root, options);
  return upsertPullRequest(
    {
      apiBase: input.github.apiBase,
      token: input.token,
      owner,
      repo,
      ...(input.github.fetch ? { fetch: input.github.fetch } : {}),
    },
    { branch: what.branch, base, title: what.title, body: what.body },
  );
}
